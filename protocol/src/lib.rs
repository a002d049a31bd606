//! Wire types of the live protocol. No I/O lives here: the backend, the load
//! generator and (through the generated TypeScript) the web app all speak
//! exactly these shapes, encoded as named MessagePack maps.
//!
//! Conventions, so that TypeScript sees plain objects:
//! - enums are internally tagged by `t` and use struct variants only;
//! - fields are camelCase on the wire;
//! - integers stay below 2^53 and are typed `number` in TypeScript;
//! - money is integer cents, timestamps are milliseconds since the Unix epoch (UTC).

mod accounts;
mod banking;
mod changes;
mod commands;
mod commerce;
mod customers;
mod developers;
mod emandates;
mod errors;
mod frames;
mod history;
mod imports;
mod insights;
mod mandates;
mod money;
mod payments;
mod payouts;
mod permissions;
mod queries;
mod replies;
mod search;
mod session;
mod teams;
mod typescript;
mod unpaids;

pub use accounts::*;
pub use banking::*;
pub use changes::*;
pub use commands::*;
pub use commerce::*;
pub use customers::*;
pub use developers::*;
pub use emandates::*;
pub use errors::*;
pub use frames::*;
pub use history::*;
pub use imports::*;
pub use insights::*;
pub use mandates::*;
pub use money::*;
pub use payments::*;
pub use payouts::*;
pub use permissions::*;
pub use queries::*;
pub use replies::*;
pub use search::*;
pub use session::*;
pub use teams::*;
pub use typescript::generate_typescript;
pub use unpaids::*;

/// Largest frame either side may send; larger frames close the socket with 1009.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// Encodes a frame as a named MessagePack map.
pub fn encode<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, rmp_serde::encode::Error> {
    rmp_serde::to_vec_named(value)
}

/// Decodes a MessagePack frame.
pub fn decode<'a, T: serde::Deserialize<'a>>(
    bytes: &'a [u8],
) -> Result<T, rmp_serde::decode::Error> {
    rmp_serde::from_slice(bytes)
}
