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
