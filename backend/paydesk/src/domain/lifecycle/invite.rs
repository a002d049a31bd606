//! An invite: pending until someone joins through it or a member revokes
//! it. The link is used up in the joining transaction and revoking writes
//! over a pending invite only, so of a join and a revoke at once exactly one
//! stands; the other is told `invite_invalid`.

use protocol::{ErrorCode, InviteStatus};

use super::TransitionError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InviteEvent {
    Accept,
    Revoke,
    /// Mailed again with a new link (the old one stops working).
    Resend,
}

impl InviteEvent {
    pub const ALL: [InviteEvent; 3] = [
        InviteEvent::Accept,
        InviteEvent::Revoke,
        InviteEvent::Resend,
    ];
}

pub const ALL_STATUSES: [InviteStatus; 3] = [
    InviteStatus::Pending,
    InviteStatus::Accepted,
    InviteStatus::Revoked,
];

/// What a refused move is told as.
pub const REFUSED: ErrorCode = ErrorCode::InviteInvalid;

pub fn transition(
    status: InviteStatus,
    event: InviteEvent,
) -> Result<InviteStatus, TransitionError<InviteStatus, InviteEvent>> {
    use InviteEvent as E;
    use InviteStatus as S;
    match (status, event) {
        (S::Pending, E::Accept) => Ok(S::Accepted),
        (S::Pending, E::Revoke) => Ok(S::Revoked),
        (S::Pending, E::Resend) => Ok(S::Pending),
        _ => Err(TransitionError {
            from: status,
            event,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lifecycle::check_concurrent_pairs;

    #[test]
    fn first_to_commit_wins_from_every_state() {
        check_concurrent_pairs(
            ALL_STATUSES,
            &InviteEvent::ALL,
            |s| s != InviteStatus::Pending,
            transition,
        );
    }
}
