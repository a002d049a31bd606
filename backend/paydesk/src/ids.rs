//! Prefixed, time-ordered ids (`cus_...`) and random secrets.

use std::cell::RefCell;
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
    // One allocation: an import makes two ids per row.
    let mut id = String::with_capacity(prefix.len() + 29);
    id.push_str(prefix);
    let _ = write!(id, "_{:012x}{:016x}", now_ms(), id_random());
    id
}

thread_local! {
    /// Operating-system randomness for ids' tails, fetched a page at a
    /// time: an import makes two ids per row, and a system call for each
    /// was a sixth of its reader's time. An id is not a secret; secrets
    /// (`new_secret`) still come straight from the OS.
    static ID_RANDOMNESS: RefCell<(usize, [u8; 4096])> = const { RefCell::new((4096, [0; 4096])) };
}

fn id_random() -> u64 {
    ID_RANDOMNESS.with_borrow_mut(|(used, pool)| {
        if *used + 8 > pool.len() {
            fill_random(pool);
            *used = 0;
        }
        let mut tail = [0u8; 8];
        tail.copy_from_slice(&pool[*used..*used + 8]);
        *used += 8;
        u64::from_be_bytes(tail)
    })
}

/// A 256-bit secret, URL-safe base64.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    fill_random(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What we store in place of a high-entropy secret: its SHA-256, hex.
pub fn hash_secret(secret: &str) -> String {
    hash_bytes(secret.as_bytes())
}

/// The SHA-256 of some bytes, hex.
pub fn hash_bytes(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
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

    #[test]
    fn tails_stay_distinct_across_refills_of_the_randomness() {
        // 1,500 ids use the page of randomness up twice over.
        let tails: std::collections::HashSet<String> = (0..1_500)
            .map(|_| new_id("man")[16..].to_string())
            .collect();
        assert_eq!(tails.len(), 1_500);
    }
}
