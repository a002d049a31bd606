//! Credentials, CSRF tokens, sessions and sign-in throttling.

pub mod csrf;
pub mod password;
pub mod throttle;
pub mod totp;
