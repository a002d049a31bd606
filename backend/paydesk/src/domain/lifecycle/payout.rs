//! A payout: pending until its business day, submitted to the bank, then
//! paid or failed. The scheduler of every node may play the same day, so a
//! move is written only over the status it was decided on (`store::payouts::
//! update_payout`): the first node's move stands and the other's is dropped.

use protocol::PayoutStatus;

use super::TransitionError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PayoutEvent {
    Submit,
    Pay,
    Fail,
}

impl PayoutEvent {
    pub const ALL: [PayoutEvent; 3] = [PayoutEvent::Submit, PayoutEvent::Pay, PayoutEvent::Fail];
}

pub const ALL_STATUSES: [PayoutStatus; 4] = [
    PayoutStatus::Pending,
    PayoutStatus::Submitted,
    PayoutStatus::Paid,
    PayoutStatus::Failed,
];

pub fn transition(
    status: PayoutStatus,
    event: PayoutEvent,
) -> Result<PayoutStatus, TransitionError<PayoutStatus, PayoutEvent>> {
    use PayoutEvent as E;
    use PayoutStatus as S;
    match (status, event) {
        (S::Pending, E::Submit) => Ok(S::Submitted),
        (S::Submitted, E::Pay) => Ok(S::Paid),
        (S::Submitted, E::Fail) => Ok(S::Failed),
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
            &PayoutEvent::ALL,
            |s| matches!(s, PayoutStatus::Paid | PayoutStatus::Failed),
            transition,
        );
    }
}
