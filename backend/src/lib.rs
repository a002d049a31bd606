//! The payments dashboard server. `app` assembles it; `http` holds the HTTP
//! surface (auth, static app, pay page, socket upgrade); `live` the actors;
//! `jobs` the background work. The rules and the database are the `paydesk`
//! crate's, which knows nothing of this one.

pub mod app;
pub mod config;
pub mod delivery_clock;
pub mod error_reporting;
pub mod http;
pub mod jobs;
pub mod live;
pub mod metrics;
pub mod secret_key;
pub mod security_log;
pub mod state;
