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
    use std::fmt::Write;
    let mut random = [0u8; 8];
    fill_random(&mut random);
    // One allocation: an import makes two ids per row.
    let mut id = String::with_capacity(prefix.len() + 29);
    id.push_str(prefix);
    let _ = write!(id, "_{:012x}{:016x}", now_ms(), u64::from_be_bytes(random));
    id
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_prefixed_time_then_random_hex() {
        let before = now_ms();
        let id = new_id("pay");
        let (prefix, hex) = id.split_once('_').unwrap_or_default();
        assert_eq!(prefix, "pay");
        assert_eq!(hex.len(), 28, "{id}");
        assert!(
            hex.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        );
        let millis = i64::from_str_radix(&hex[..12], 16).unwrap_or_default();
        assert!(millis >= before && millis <= now_ms(), "{id}");
        assert_ne!(
            new_id("pay")[16..],
            new_id("pay")[16..],
            "the tail is random"
        );
        assert!(is_well_formed_id(&id));
    }
}
