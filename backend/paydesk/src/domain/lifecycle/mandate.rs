//! A mandate: the payer's authority to debit. DebiCheck mandates wait for
//! the payer's own bank to approve them; the others go straight to active
//! once sent (the caller sends `Approve` for them).

use super::TransitionError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MandateStatus {
    Draft,
    PendingAuthentication,
    Active,
    Rejected,
    NoReply,
    Suspended,
    Cancelled,
    Disabled,
    Completed,
}

impl MandateStatus {
    pub const ALL: [MandateStatus; 9] = [
        MandateStatus::Draft,
        MandateStatus::PendingAuthentication,
        MandateStatus::Active,
        MandateStatus::Rejected,
        MandateStatus::NoReply,
        MandateStatus::Suspended,
        MandateStatus::Cancelled,
        MandateStatus::Disabled,
        MandateStatus::Completed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MandateStatus::Draft => "draft",
            MandateStatus::PendingAuthentication => "pending_authentication",
            MandateStatus::Active => "active",
            MandateStatus::Rejected => "rejected",
            MandateStatus::NoReply => "no_reply",
            MandateStatus::Suspended => "suspended",
            MandateStatus::Cancelled => "cancelled",
            MandateStatus::Disabled => "disabled",
            MandateStatus::Completed => "completed",
        }
    }

    /// Nothing more can happen to the mandate itself, so it may be archived.
    /// No reply counts: once its approval window closes it cannot be re-sent,
    /// and only the caller knows the clock.
    pub fn is_archivable(self) -> bool {
        matches!(
            self,
            MandateStatus::Rejected
                | MandateStatus::NoReply
                | MandateStatus::Cancelled
                | MandateStatus::Disabled
                | MandateStatus::Completed
        )
    }
}

/// The status plus the archive flag: archiving hides a mandate without
/// losing where it ended, so restoring gives back the same status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MandateState {
    pub status: MandateStatus,
    pub archived: bool,
}

impl MandateState {
    pub fn new(status: MandateStatus) -> MandateState {
        MandateState {
            status,
            archived: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MandateEvent {
    /// To the payer's bank; again after no reply, while the window is open.
    SendForAuthentication,
    Approve,
    Reject,
    /// The approval window closed without an answer.
    NoReply,
    Suspend,
    Resume,
    Cancel,
    /// By the bank or a rule (an unpaid code that needs a new mandate).
    Disable,
    /// The end date passed.
    Complete,
    Archive,
    Restore,
}

impl MandateEvent {
    pub const ALL: [MandateEvent; 11] = [
        MandateEvent::SendForAuthentication,
        MandateEvent::Approve,
        MandateEvent::Reject,
        MandateEvent::NoReply,
        MandateEvent::Suspend,
        MandateEvent::Resume,
        MandateEvent::Cancel,
        MandateEvent::Disable,
        MandateEvent::Complete,
        MandateEvent::Archive,
        MandateEvent::Restore,
    ];
}

pub fn transition(
    state: MandateState,
    event: MandateEvent,
) -> Result<MandateState, TransitionError<MandateState, MandateEvent>> {
    use MandateEvent as E;
    use MandateStatus as S;
    let refuse = Err(TransitionError { from: state, event });
    if state.archived {
        // An archived mandate is frozen until restored.
        return match event {
            E::Restore => Ok(MandateState::new(state.status)),
            _ => refuse,
        };
    }
    let status = match (state.status, event) {
        (S::Draft | S::NoReply, E::SendForAuthentication) => S::PendingAuthentication,
        (S::PendingAuthentication, E::Approve) => S::Active,
        (S::PendingAuthentication, E::Reject) => S::Rejected,
        (S::PendingAuthentication, E::NoReply) => S::NoReply,
        (S::Active, E::Suspend) => S::Suspended,
        (S::Suspended, E::Resume) => S::Active,
        (S::Active | S::Suspended, E::Cancel) => S::Cancelled,
        (S::Active | S::Suspended, E::Disable) => S::Disabled,
        // The end date passes whether or not the mandate is suspended.
        (S::Active | S::Suspended, E::Complete) => S::Completed,
        (status, E::Archive) if status.is_archivable() => {
            return Ok(MandateState {
                status,
                archived: true,
            });
        }
        _ => return refuse,
    };
    Ok(MandateState::new(status))
}

#[cfg(test)]
mod tests {
    use super::*;
    use MandateEvent as E;
    use MandateStatus as S;

    /// Every legal move between unarchived states.
    const ALLOWED: &[(S, E, S)] = &[
        (S::Draft, E::SendForAuthentication, S::PendingAuthentication),
        (
            S::NoReply,
            E::SendForAuthentication,
            S::PendingAuthentication,
        ),
        (S::PendingAuthentication, E::Approve, S::Active),
        (S::PendingAuthentication, E::Reject, S::Rejected),
        (S::PendingAuthentication, E::NoReply, S::NoReply),
        (S::Active, E::Suspend, S::Suspended),
        (S::Suspended, E::Resume, S::Active),
        (S::Active, E::Cancel, S::Cancelled),
        (S::Suspended, E::Cancel, S::Cancelled),
        (S::Active, E::Disable, S::Disabled),
        (S::Suspended, E::Disable, S::Disabled),
        (S::Active, E::Complete, S::Completed),
        (S::Suspended, E::Complete, S::Completed),
    ];

    const ARCHIVABLE: [S; 5] = [
        S::Rejected,
        S::NoReply,
        S::Cancelled,
        S::Disabled,
        S::Completed,
    ];

    fn expected(state: MandateState, event: E) -> Option<MandateState> {
        if state.archived {
            return (event == E::Restore).then_some(MandateState::new(state.status));
        }
        if event == E::Archive && ARCHIVABLE.contains(&state.status) {
            return Some(MandateState {
                status: state.status,
                archived: true,
            });
        }
        ALLOWED
            .iter()
            .find(|(from, on, _)| *from == state.status && *on == event)
            .map(|(_, _, to)| MandateState::new(*to))
    }

    #[test]
    fn exactly_the_allowed_transitions_succeed() {
        let states = S::ALL
            .into_iter()
            .flat_map(|status| [false, true].map(|archived| MandateState { status, archived }));
        let allowed = super::super::check_every_pair(states, &E::ALL, expected, transition);
        // 13 moves, 5 archives, and a restore for each of the 9 statuses.
        assert_eq!(allowed, 13 + 5 + 9);
    }

    #[test]
    fn archive_then_restore_returns_the_final_status() {
        for status in ARCHIVABLE {
            let archived = transition(MandateState::new(status), E::Archive);
            assert_eq!(
                archived,
                Ok(MandateState {
                    status,
                    archived: true
                })
            );
            let restored = archived.and_then(|state| transition(state, E::Restore));
            assert_eq!(restored, Ok(MandateState::new(status)));
        }
    }

    #[test]
    fn live_mandates_cannot_be_archived() {
        for status in [S::Draft, S::PendingAuthentication, S::Active, S::Suspended] {
            assert!(transition(MandateState::new(status), E::Archive).is_err());
        }
    }

    #[test]
    fn a_debicheck_mandate_resent_after_no_reply_can_still_be_approved() {
        let mut state = MandateState::new(S::Draft);
        for event in [
            E::SendForAuthentication,
            E::NoReply,
            E::SendForAuthentication,
            E::Approve,
            E::Suspend,
            E::Resume,
            E::Complete,
        ] {
            state = transition(state, event).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(state, MandateState::new(S::Completed));
    }

    #[test]
    fn status_names_match_the_domain_brief() {
        let names: Vec<_> = S::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            names,
            [
                "draft",
                "pending_authentication",
                "active",
                "rejected",
                "no_reply",
                "suspended",
                "cancelled",
                "disabled",
                "completed"
            ]
        );
    }

    #[test]
    fn first_to_commit_wins_from_every_state() {
        // Archiving files an ended mandate away; it is no move of its life.
        let moves: Vec<E> = E::ALL
            .into_iter()
            .filter(|e| !matches!(e, E::Archive | E::Restore))
            .collect();
        let ended = |state: MandateState| {
            matches!(
                state.status,
                S::Rejected | S::Cancelled | S::Disabled | S::Completed
            )
        };
        let states = S::ALL.into_iter().map(MandateState::new);
        let refused = super::super::check_concurrent_pairs(states, &moves, ended, transition);
        assert!(refused > 0);
    }
}
