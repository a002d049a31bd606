//! An e-mandate request: the link a payer signs a mandate through. The
//! merchant and the payer (and the payer's bank) move it from different
//! places at once, so every move goes through this table under the
//! stream's lock: whichever commits first wins, and the other is refused
//! with `e_mandate_closed`.

use protocol::{EMandateState, ErrorCode};

use super::TransitionError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestEvent {
    /// The payer opened the link.
    Open,
    /// The merchant mailed the link again (a new last day).
    Resend,
    /// The merchant withdrew it.
    Cancel,
    /// The payer signed and their bank approved (or a Registered Mandate
    /// was signed): the mandate exists.
    Complete,
    Decline,
    NoReply,
    /// Its last day passed unsigned (read, not written: `state_on`).
    Expire,
}

impl RequestEvent {
    pub const ALL: [RequestEvent; 7] = [
        RequestEvent::Open,
        RequestEvent::Resend,
        RequestEvent::Cancel,
        RequestEvent::Complete,
        RequestEvent::Decline,
        RequestEvent::NoReply,
        RequestEvent::Expire,
    ];
}

/// What a refused move is told as.
pub const REFUSED: ErrorCode = ErrorCode::EMandateClosed;

pub fn transition(
    state: EMandateState,
    event: RequestEvent,
) -> Result<EMandateState, TransitionError<EMandateState, RequestEvent>> {
    use EMandateState as S;
    use RequestEvent as E;
    match (state, event) {
        (S::Sent, E::Open) => Ok(S::Opened),
        // A resent link starts again; an opened one stays opened.
        (S::Sent | S::Expired, E::Resend) => Ok(S::Sent),
        (S::Opened, E::Resend) => Ok(S::Opened),
        (S::Sent | S::Opened | S::Expired, E::Cancel) => Ok(S::Cancelled),
        // The bank's answer to a signing begun before the last day still
        // counts after it; nothing overturns a cancel.
        (S::Sent | S::Opened | S::Expired, E::Complete) => Ok(S::Completed),
        (S::Sent | S::Opened | S::Expired, E::Decline) => Ok(S::Declined),
        (S::Sent | S::Opened | S::Expired, E::NoReply) => Ok(S::NoReply),
        (S::Sent | S::Opened, E::Expire) => Ok(S::Expired),
        _ => Err(TransitionError { from: state, event }),
    }
}

/// The move, or the refusal the merchant or payer is told.
pub fn apply(state: EMandateState, event: RequestEvent) -> Result<EMandateState, ErrorCode> {
    transition(state, event).map_err(|_| REFUSED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lifecycle::check_concurrent_pairs;

    #[test]
    fn first_to_commit_wins_from_every_state() {
        let finals = [
            EMandateState::Completed,
            EMandateState::Declined,
            EMandateState::NoReply,
            EMandateState::Cancelled,
        ];
        check_concurrent_pairs(
            EMandateState::ALL,
            &RequestEvent::ALL,
            |s| finals.contains(&s),
            transition,
        );
    }

    #[test]
    fn a_cancelled_request_is_never_completed() {
        for event in RequestEvent::ALL {
            assert!(
                transition(EMandateState::Cancelled, event).is_err(),
                "{event:?}"
            );
        }
        assert_eq!(
            apply(EMandateState::Cancelled, RequestEvent::Complete),
            Err(ErrorCode::EMandateClosed)
        );
    }
}
