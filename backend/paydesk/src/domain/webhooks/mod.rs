//! Outgoing webhooks: which kinds of change a merchant's endpoint can
//! subscribe to, the payload each event carries, how a delivery is signed
//! (Standard Webhooks), when a failed delivery is tried again, and which
//! addresses we refuse to call.

pub mod commands;
pub mod destinations;
pub mod endpoints;
pub mod events;
pub mod queries;
pub mod schedule;
pub mod signing;

pub use events::{EVENT_TYPES, event_of};
