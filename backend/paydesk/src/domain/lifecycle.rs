//! The lifecycles of DOMAIN.md: mandates, payment schedules and
//! transactions. Each is a pure `transition(state, event)`, so the merchant
//! actor stores only what a legal move produced and every pair is unit-tested
//! without a database.

pub mod mandate;
pub mod payment;
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
