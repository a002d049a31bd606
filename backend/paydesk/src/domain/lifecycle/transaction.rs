//! A transaction: one debit attempt on one action date.

use super::TransitionError;
use crate::domain::retry::UnpaidCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransactionStatus {
    Pending,
    SentToBank,
    AcceptedByBank,
    RejectedByBank,
    /// The payer's bank keeps retrying a DebiCheck or RM debit for a while.
    InTracking,
    Paid,
    Unpaid(UnpaidCode),
    Disputed,
    Reversed,
    Cancelled,
}

impl TransactionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TransactionStatus::Pending => "pending",
            TransactionStatus::SentToBank => "sent_to_bank",
            TransactionStatus::AcceptedByBank => "accepted_by_bank",
            TransactionStatus::RejectedByBank => "rejected_by_bank",
            TransactionStatus::InTracking => "in_tracking",
            TransactionStatus::Paid => "paid",
            TransactionStatus::Unpaid(_) => "unpaid",
            TransactionStatus::Disputed => "disputed",
            TransactionStatus::Reversed => "reversed",
            TransactionStatus::Cancelled => "cancelled",
        }
    }

    /// Paid is not final: an unpaid or a dispute can still arrive days later.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            TransactionStatus::RejectedByBank
                | TransactionStatus::Unpaid(_)
                | TransactionStatus::Reversed
                | TransactionStatus::Cancelled
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransactionEvent {
    Send,
    Accept,
    RejectByBank,
    Track,
    Pay,
    ReturnUnpaid(UnpaidCode),
    Dispute,
    Reverse,
    Cancel,
}

pub fn transition(
    status: TransactionStatus,
    event: TransactionEvent,
) -> Result<TransactionStatus, TransitionError<TransactionStatus, TransactionEvent>> {
    use TransactionEvent as E;
    use TransactionStatus as S;
    match (status, event) {
        (S::Pending, E::Send) => Ok(S::SentToBank),
        (S::SentToBank, E::Accept) => Ok(S::AcceptedByBank),
        (S::SentToBank, E::RejectByBank) => Ok(S::RejectedByBank),
        (S::AcceptedByBank, E::Track) => Ok(S::InTracking),
        (S::AcceptedByBank | S::InTracking, E::Pay) => Ok(S::Paid),
        // A late unpaid turns a paid debit around.
        (S::AcceptedByBank | S::InTracking | S::Paid, E::ReturnUnpaid(code)) => Ok(S::Unpaid(code)),
        (S::Paid, E::Dispute) => Ok(S::Disputed),
        (S::Disputed, E::Reverse) => Ok(S::Reversed),
        // Once the bank has accepted a debit only the bank can end it.
        (S::Pending | S::SentToBank, E::Cancel) => Ok(S::Cancelled),
        _ => Err(TransitionError {
            from: status,
            event,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TransactionEvent as E;
    use TransactionStatus as S;

    const FUNDS: UnpaidCode = UnpaidCode::NotProvidedFor;
    const CLOSED: UnpaidCode = UnpaidCode::AccountClosed;

    const STATES: [S; 11] = [
        S::Pending,
        S::SentToBank,
        S::AcceptedByBank,
        S::RejectedByBank,
        S::InTracking,
        S::Paid,
        S::Unpaid(FUNDS),
        S::Unpaid(CLOSED),
        S::Disputed,
        S::Reversed,
        S::Cancelled,
    ];

    const EVENTS: [E; 10] = [
        E::Send,
        E::Accept,
        E::RejectByBank,
        E::Track,
        E::Pay,
        E::ReturnUnpaid(FUNDS),
        E::ReturnUnpaid(CLOSED),
        E::Dispute,
        E::Reverse,
        E::Cancel,
    ];

    const ALLOWED: &[(S, E, S)] = &[
        (S::Pending, E::Send, S::SentToBank),
        (S::SentToBank, E::Accept, S::AcceptedByBank),
        (S::SentToBank, E::RejectByBank, S::RejectedByBank),
        (S::AcceptedByBank, E::Track, S::InTracking),
        (S::AcceptedByBank, E::Pay, S::Paid),
        (S::InTracking, E::Pay, S::Paid),
        (S::AcceptedByBank, E::ReturnUnpaid(FUNDS), S::Unpaid(FUNDS)),
        (
            S::AcceptedByBank,
            E::ReturnUnpaid(CLOSED),
            S::Unpaid(CLOSED),
        ),
        (S::InTracking, E::ReturnUnpaid(FUNDS), S::Unpaid(FUNDS)),
        (S::InTracking, E::ReturnUnpaid(CLOSED), S::Unpaid(CLOSED)),
        (S::Paid, E::ReturnUnpaid(FUNDS), S::Unpaid(FUNDS)),
        (S::Paid, E::ReturnUnpaid(CLOSED), S::Unpaid(CLOSED)),
        (S::Paid, E::Dispute, S::Disputed),
        (S::Disputed, E::Reverse, S::Reversed),
        (S::Pending, E::Cancel, S::Cancelled),
        (S::SentToBank, E::Cancel, S::Cancelled),
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
    fn final_states_accept_nothing_and_paid_can_still_flip() {
        for status in STATES.into_iter().filter(|s| s.is_final()) {
            for event in EVENTS {
                assert!(transition(status, event).is_err(), "{status:?} {event:?}");
            }
        }
        assert!(!S::Paid.is_final());
        assert_eq!(
            transition(S::Paid, E::ReturnUnpaid(CLOSED)),
            Ok(S::Unpaid(CLOSED))
        );
    }

    #[test]
    fn a_tracked_debit_that_is_paid_then_disputed_and_reversed() {
        let mut status = S::Pending;
        for event in [E::Send, E::Accept, E::Track, E::Pay, E::Dispute, E::Reverse] {
            status = transition(status, event).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(status, S::Reversed);
        assert_eq!(status.as_str(), "reversed");
    }

    #[test]
    fn first_to_commit_wins_from_every_state() {
        let refused =
            super::super::check_concurrent_pairs(STATES, &EVENTS, S::is_final, transition);
        assert!(refused > 0);
    }
}
