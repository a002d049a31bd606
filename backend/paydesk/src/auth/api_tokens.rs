//! API token secrets: `pdk_live_` or `pdk_test_` and 32 random bytes in
//! base62 (letters and digits only, so a double-click selects it whole and
//! secret scanners match the prefix). Only a keyed hash is stored:
//! HMAC-SHA256 under a sub-key of the server key, so a copy of the database
//! alone neither opens the API nor tests guesses offline.

use protocol::Mode;

use super::keys::{hex, hmac_sha256};
use crate::error::{AppError, AppResult};

const SECRET_BYTES: usize = 32;
const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// Random characters the shown prefix keeps after `pdk_<mode>_`.
const SHOWN: usize = 4;
/// The longest secret we bother hashing: anything longer is not ours.
pub const MAX_SECRET_LEN: usize = 80;

/// What every secret of a mode starts with.
pub fn mode_prefix(mode: Mode) -> &'static str {
    match mode {
        Mode::Live => "pdk_live_",
        Mode::Test => "pdk_test_",
    }
}

/// Hashes token secrets for storage and lookup.
#[derive(Clone)]
pub struct TokenHasher([u8; 32]);

/// Never prints the key.
impl std::fmt::Debug for TokenHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TokenHasher(redacted)")
    }
}

impl TokenHasher {
    pub fn new(key: [u8; 32]) -> TokenHasher {
        TokenHasher(key)
    }

    /// The stored form of a secret.
    pub fn hash(&self, secret: &str) -> String {
        hex(&hmac_sha256(&self.0, &[secret.as_bytes()]))
    }
}

/// A fresh secret and the part of it the list shows.
pub struct NewSecret {
    pub secret: String,
    pub prefix: String,
}

pub fn new_secret(mode: Mode) -> AppResult<NewSecret> {
    let mut bytes = [0u8; SECRET_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
    let body = base62(&bytes);
    let secret = format!("{}{body}", mode_prefix(mode));
    let prefix = format!("{}{}", mode_prefix(mode), &body[..SHOWN.min(body.len())]);
    Ok(NewSecret { secret, prefix })
}

/// The mode a presented secret claims by its prefix, if it looks like ours.
pub fn claimed_mode(secret: &str) -> Option<Mode> {
    if secret.len() > MAX_SECRET_LEN {
        return None;
    }
    [Mode::Live, Mode::Test]
        .into_iter()
        .find(|mode| secret.starts_with(mode_prefix(*mode)))
}

/// Big-endian base62 of `bytes`, zero-padded to the length every 32-byte
/// value takes (43 characters), so every secret is as long as any other.
fn base62(bytes: &[u8]) -> String {
    let mut number = bytes.to_vec();
    let mut digits = Vec::new();
    while number.iter().any(|b| *b != 0) {
        let mut remainder = 0u32;
        for byte in number.iter_mut() {
            let value = (remainder << 8) | u32::from(*byte);
            *byte = (value / 62) as u8;
            remainder = value % 62;
        }
        digits.push(BASE62[remainder as usize]);
    }
    let width = 43;
    while digits.len() < width {
        digits.push(b'0');
    }
    digits.reverse();
    String::from_utf8(digits).unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn secrets_carry_their_mode_and_differ() {
        let live = new_secret(Mode::Live).unwrap();
        let test = new_secret(Mode::Test).unwrap();
        assert!(live.secret.starts_with("pdk_live_"));
        assert!(test.secret.starts_with("pdk_test_"));
        assert_eq!(live.secret.len(), "pdk_live_".len() + 43);
        assert!(live.secret.starts_with(&live.prefix));
        assert_ne!(live.secret, new_secret(Mode::Live).unwrap().secret);
        assert!(live.secret[9..].bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_eq!(claimed_mode(&live.secret), Some(Mode::Live));
        assert_eq!(claimed_mode(&test.secret), Some(Mode::Test));
        assert_eq!(claimed_mode("sk_live_abc"), None);
    }

    #[test]
    fn base62_is_positional() {
        assert_eq!(base62(&[0; 32]), "0".repeat(43));
        let mut one = [0u8; 32];
        one[31] = 61;
        assert!(base62(&one).ends_with('z'));
        assert_eq!(base62(&[255; 32]).len(), 43);
    }

    #[test]
    fn hashes_depend_on_the_key() {
        let a = TokenHasher::new([1; 32]);
        let b = TokenHasher::new([2; 32]);
        assert_eq!(a.hash("pdk_live_x"), a.hash("pdk_live_x"));
        assert_ne!(a.hash("pdk_live_x"), b.hash("pdk_live_x"));
        assert!(!format!("{a:?}").contains('1'));
    }
}
