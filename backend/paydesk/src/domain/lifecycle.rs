//! The lifecycles of DOMAIN.md: mandates, payment schedules and
//! transactions, and the product's own: e-mandate requests, payouts,
//! imports and invites. Each is a pure `transition(state, event)`, so the
//! merchant actor stores only what a legal move produced and every pair is
//! unit-tested without a database. Moves that can race (two tabs, a payer
//! and the merchant, two nodes) are decided on the state read under the
//! stream's lock, so the second is judged on what the first left:
//! `check_concurrent_pairs` checks each table holds up to that, and
//! `backend/tests/concurrent_transitions.rs` races the real commands.

pub mod e_mandate_request;
pub mod import;
pub mod invite;
pub mod mandate;
pub mod payment;
pub mod payout;
pub mod transaction;

use std::fmt;

/// `event` cannot happen in state `from`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransitionError<S, E> {
    pub from: S,
    pub event: E,
}

impl<S: fmt::Debug, E: fmt::Debug> fmt::Display for TransitionError<S, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} cannot happen in {:?}", self.event, self.from)
    }
}

impl<S: fmt::Debug, E: fmt::Debug> std::error::Error for TransitionError<S, E> {}

/// Tries every event in every state and checks that exactly the moves
/// `expected` names succeed, landing where it says, and that every other
/// pair is refused. Returns how many moves were allowed.
#[cfg(test)]
fn check_every_pair<S, E>(
    states: impl IntoIterator<Item = S>,
    events: &[E],
    expected: impl Fn(S, E) -> Option<S>,
    transition: impl Fn(S, E) -> Result<S, TransitionError<S, E>>,
) -> usize
where
    S: Copy + PartialEq + fmt::Debug,
    E: Copy + PartialEq + fmt::Debug,
{
    let mut allowed = 0;
    for state in states {
        for &event in events {
            let result = transition(state, event);
            match expected(state, event) {
                Some(to) => {
                    allowed += 1;
                    assert_eq!(result, Ok(to), "{state:?} on {event:?}");
                }
                None => assert_eq!(
                    result,
                    Err(TransitionError { from: state, event }),
                    "{state:?} on {event:?}"
                ),
            }
        }
    }
    allowed
}

/// Two moves decided on the same state commit one after the other, so the
/// second is judged on the state the first left. For every state and every
/// ordered pair of moves legal from it, checks that an ended lifecycle
/// (`is_final`) takes no further move, so the first to end it wins and the
/// other is refused: a cancelled e-mandate request is never completed.
/// Returns how many pairs had the second refused.
#[cfg(test)]
fn check_concurrent_pairs<S, E>(
    states: impl IntoIterator<Item = S>,
    events: &[E],
    is_final: impl Fn(S) -> bool,
    transition: impl Fn(S, E) -> Result<S, TransitionError<S, E>>,
) -> usize
where
    S: Copy + PartialEq + fmt::Debug,
    E: Copy + PartialEq + fmt::Debug,
{
    let mut refused = 0;
    for state in states {
        if is_final(state) {
            for &event in events {
                assert!(
                    transition(state, event).is_err(),
                    "{event:?} overturns the ended {state:?}"
                );
            }
        }
        for &first in events {
            let Ok(after_first) = transition(state, first) else {
                continue;
            };
            for &second in events {
                if transition(state, second).is_err() {
                    continue;
                }
                match transition(after_first, second) {
                    Ok(after_both) => assert!(
                        !is_final(after_first),
                        "{second:?} after {first:?} from {state:?} moved an ended lifecycle to {after_both:?}"
                    ),
                    Err(_) => refused += 1,
                }
            }
        }
    }
    refused
}
