//! A payment: the schedule that raises one transaction per collection date.

use super::TransitionError;
use crate::domain::retry::UnpaidCode;

/// Why the system stopped a schedule the merchant did not end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// A bank return that may not be re-run (DOMAIN.md, unpaid codes).
    Unpaid(UnpaidCode),
    /// The mandate was cancelled or disabled, so nothing more may be debited.
    MandateEnded,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaymentStatus {
    Pending,
    Running,
    Paused,
    Stopped(StopReason),
    Cancelled,
    Completed,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Pending => "pending",
            PaymentStatus::Running => "running",
            PaymentStatus::Paused => "paused",
            PaymentStatus::Stopped(_) => "stopped",
            PaymentStatus::Cancelled => "cancelled",
            PaymentStatus::Completed => "completed",
        }
    }

    pub fn is_final(self) -> bool {
        matches!(
            self,
            PaymentStatus::Stopped(_) | PaymentStatus::Cancelled | PaymentStatus::Completed
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaymentEvent {
    Start,
    Pause,
    Resume,
    Stop(StopReason),
    Cancel,
    /// The last collection date passed.
    Complete,
}

pub fn transition(
    status: PaymentStatus,
    event: PaymentEvent,
) -> Result<PaymentStatus, TransitionError<PaymentStatus, PaymentEvent>> {
    use PaymentEvent as E;
    use PaymentStatus as S;
    match (status, event) {
        (S::Pending, E::Start) => Ok(S::Running),
        (S::Running, E::Pause) => Ok(S::Paused),
        (S::Paused, E::Resume) => Ok(S::Running),
        // A paused schedule stops too when its mandate ends under it.
        (S::Running | S::Paused, E::Stop(reason)) => Ok(S::Stopped(reason)),
        // So does one still waiting for its mandate, when the payer declines
        // it or the merchant cancels it: it never raised a debit, so it can
        // only have stopped for its mandate.
        (S::Pending, E::Stop(StopReason::MandateEnded)) => Ok(S::Stopped(StopReason::MandateEnded)),
        // A merchant may call off a schedule before it starts or while paused,
        // not only while it runs.
        (S::Pending | S::Running | S::Paused, E::Cancel) => Ok(S::Cancelled),
        (S::Running, E::Complete) => Ok(S::Completed),
        _ => Err(TransitionError {
            from: status,
            event,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PaymentEvent as E;
    use PaymentStatus as S;

    const UNPAID: StopReason = StopReason::Unpaid(UnpaidCode::AccountClosed);
    const ENDED: StopReason = StopReason::MandateEnded;

    const STATES: [S; 7] = [
        S::Pending,
        S::Running,
        S::Paused,
        S::Stopped(UNPAID),
        S::Stopped(ENDED),
        S::Cancelled,
        S::Completed,
    ];

    const EVENTS: [E; 7] = [
        E::Start,
        E::Pause,
        E::Resume,
        E::Stop(UNPAID),
        E::Stop(ENDED),
        E::Cancel,
        E::Complete,
    ];

    const ALLOWED: &[(S, E, S)] = &[
        (S::Pending, E::Start, S::Running),
        (S::Running, E::Pause, S::Paused),
        (S::Paused, E::Resume, S::Running),
        (S::Running, E::Stop(UNPAID), S::Stopped(UNPAID)),
        (S::Running, E::Stop(ENDED), S::Stopped(ENDED)),
        (S::Paused, E::Stop(UNPAID), S::Stopped(UNPAID)),
        (S::Paused, E::Stop(ENDED), S::Stopped(ENDED)),
        (S::Pending, E::Stop(ENDED), S::Stopped(ENDED)),
        (S::Pending, E::Cancel, S::Cancelled),
        (S::Running, E::Cancel, S::Cancelled),
        (S::Paused, E::Cancel, S::Cancelled),
        (S::Running, E::Complete, S::Completed),
    ];

    #[test]
    fn exactly_the_allowed_transitions_succeed() {
        let expected = |status, event| {
            ALLOWED
                .iter()
                .find(|(from, on, _)| *from == status && *on == event)
                .map(|(_, _, to)| *to)
        };
        let allowed = super::super::check_every_pair(STATES, &EVENTS, expected, transition);
        assert_eq!(allowed, ALLOWED.len());
    }

    #[test]
    fn final_states_accept_nothing() {
        for status in STATES.into_iter().filter(|s| s.is_final()) {
            for event in EVENTS {
                assert!(transition(status, event).is_err(), "{status:?} {event:?}");
            }
        }
    }

    #[test]
    fn the_stop_reason_is_kept() {
        let stopped = transition(S::Running, E::Stop(UNPAID));
        assert_eq!(stopped, Ok(S::Stopped(UNPAID)));
        assert_eq!(stopped.map(S::as_str), Ok("stopped"));
    }

    #[test]
    fn first_to_commit_wins_from_every_state() {
        let refused =
            super::super::check_concurrent_pairs(STATES, &EVENTS, S::is_final, transition);
        assert!(refused > 0);
    }
}
