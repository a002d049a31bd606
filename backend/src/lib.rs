//! The payments dashboard backend. `app` assembles it; `http` holds the HTTP
//! surface (auth, static app, socket upgrade); `live` the actors; `domain`
//! the rules; `store` the database.

pub mod app;
pub mod auth;
pub mod config;
pub mod domain;
pub mod error;
pub mod http;
pub mod ids;
pub mod jobs;
pub mod live;
pub mod store;
