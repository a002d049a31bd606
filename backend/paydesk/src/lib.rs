//! The product's rules and storage, free of any web framework or actor
//! system: `domain` holds the use-cases, `store` the database (and the one
//! writer of a merchant's event stream), `auth` the password, session-token,
//! CSRF and two-factor primitives. The `backend` crate puts HTTP, sockets,
//! actors and background jobs around it; Cargo keeps the dependency one way.

pub mod auth;
pub mod domain;
pub mod error;
pub mod ids;
pub mod store;
