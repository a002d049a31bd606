//! Credentials, CSRF tokens, sessions, sign-in throttling, and the server
//! key with what it protects (sealed two-factor secrets, keyed backup codes).

pub mod api_tokens;
pub mod backup_codes;
pub mod csrf;
mod hashing_pool;
pub mod keys;
pub mod password;
pub mod sealed;
pub mod throttle;
pub mod totp;
