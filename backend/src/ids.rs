//! Prefixed, time-ordered ids (`cus_...`) and random secrets.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use sha2::{Digest, Sha256};

/// Milliseconds since the Unix epoch, UTC.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `prefix_` + 12 hex digits of milliseconds + 16 random hex digits: ids sort
/// by creation time, so a list's cursor is simply the last id.
pub fn new_id(prefix: &str) -> String {
    let mut random = [0u8; 8];
    fill_random(&mut random);
    let tail: String = random.iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}_{:012x}{tail}", now_ms())
}

/// A 256-bit secret, URL-safe base64.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    fill_random(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What we store in place of a high-entropy secret: its SHA-256, hex.
pub fn hash_secret(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn fill_random(buf: &mut [u8]) {
    // The OS generator only fails when the platform has none; nothing secret
    // can be made then, so stop rather than hand out a weak token.
    if let Err(err) = getrandom::fill(buf) {
        panic!("no operating-system random generator: {err}");
    }
}

/// Whether `id` has the shape of one of our ids (route ids, command targets).
pub fn is_well_formed_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}
