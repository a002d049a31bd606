//! Backup codes: 16 characters from Crockford's base32 alphabet (no `i`,
//! `l`, `o` or `u`, so none is mistaken for another), 80 random bits, shown
//! in groups of four (`7kq2-m9xd-a3pv-tt8c`). Typing ignores case, spaces
//! and dashes, and reads `i`/`l` as `1` and `o` as `0`.
//!
//! Stored as HMAC-SHA256 under a key from the configuration, with the
//! user's id: a copy of the database alone cannot test guesses offline, and
//! the same code of two users does not hash alike.
//!
//! Codes of the earlier format (8 characters of `[a-z0-9]`, stored as a bare
//! SHA-256) keep working until used or replaced: start-up wraps each stored
//! SHA-256 in the same keyed hash (`wrap_earlier`), so no bare hash of a
//! short code stays in the database, and signing in computes the same wrap.

use super::keys::{hex, hmac_sha256};
use crate::error::{AppError, AppResult};
use crate::ids::hash_secret;

/// How many codes a user gets at a time.
pub const COUNT: usize = 10;
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
const LENGTH: usize = 16;
const GROUP: usize = 4;
const EARLIER_LENGTH: usize = 8;

/// What every keyed stored form starts with (current and wrapped earlier codes).
pub const KEYED_FAMILY: &str = "hmac1";
const KEYED: &str = "hmac1:";
const EARLIER_KEYED: &str = "hmac1-earlier:";

/// Ten fresh codes, as shown to the user.
pub fn new_codes() -> AppResult<Vec<String>> {
    (0..COUNT).map(|_| new_code()).collect()
}

fn new_code() -> AppResult<String> {
    let mut bytes = [0u8; LENGTH];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
    let mut code = String::with_capacity(LENGTH + LENGTH / GROUP);
    for (i, byte) in bytes.iter().enumerate() {
        if i > 0 && i % GROUP == 0 {
            code.push('-');
        }
        // 256 is a multiple of 32: taking five bits keeps every symbol equally likely.
        code.push(char::from(ALPHABET[usize::from(byte & 31)]));
    }
    Ok(code)
}

/// A typed code as it is hashed: lower case, only letters and digits, look-alikes read as digits.
fn normalise(typed: &str) -> String {
    typed
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| match c.to_ascii_lowercase() {
            'i' | 'l' => '1',
            'o' => '0',
            other => other,
        })
        .collect()
}

/// The earlier format's normalisation: lower case letters and digits, as they were.
fn normalise_earlier(typed: &str) -> String {
    typed
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_lowercase()
}

#[derive(Clone)]
pub struct CodeHasher {
    key: [u8; 32],
}

impl std::fmt::Debug for CodeHasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CodeHasher(redacted)")
    }
}

impl CodeHasher {
    pub fn new(key: [u8; 32]) -> CodeHasher {
        CodeHasher { key }
    }

    /// What is stored for a code just made for `user_id`.
    pub fn stored_form(&self, user_id: &str, code: &str) -> String {
        let mac = hmac_sha256(
            &self.key,
            &[user_id.as_bytes(), b"\n", normalise(code).as_bytes()],
        );
        format!("{KEYED}{}", hex(&mac))
    }

    /// What is stored for a code of the earlier format, from the bare SHA-256
    /// an earlier version stored.
    pub fn wrap_earlier(&self, user_id: &str, bare_sha256: &str) -> String {
        let mac = hmac_sha256(
            &self.key,
            &[
                b"earlier\n",
                user_id.as_bytes(),
                b"\n",
                bare_sha256.as_bytes(),
            ],
        );
        format!("{EARLIER_KEYED}{}", hex(&mac))
    }

    /// The stored forms a typed code may match: a current code, or one of the
    /// earlier format. Nothing when it cannot be either.
    pub fn candidates(&self, user_id: &str, typed: &str) -> Vec<String> {
        let mut forms = Vec::new();
        if normalise(typed).len() == LENGTH {
            forms.push(self.stored_form(user_id, typed));
        }
        let earlier = normalise_earlier(typed);
        if earlier.len() == EARLIER_LENGTH {
            forms.push(self.wrap_earlier(user_id, &hash_secret(&earlier)));
        }
        forms
    }

    /// Whether `stored` is a bare SHA-256 an earlier version wrote.
    pub fn is_bare(stored: &str) -> bool {
        !stored.starts_with(KEYED_FAMILY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sixteen_unambiguous_characters_in_groups() -> AppResult<()> {
        let codes = new_codes()?;
        assert_eq!(codes.len(), COUNT);
        for code in &codes {
            assert_eq!(code.len(), 19, "{code}");
            let groups: Vec<&str> = code.split('-').collect();
            assert_eq!(groups.len(), 4, "{code}");
            assert!(groups.iter().all(|g| g.len() == 4));
            assert!(
                code.chars()
                    .all(|c| c == '-' || ALPHABET.contains(&(c as u8))),
                "{code}"
            );
            assert!(!code.contains(['i', 'l', 'o', 'u']));
        }
        let distinct: std::collections::HashSet<_> = codes.iter().collect();
        assert_eq!(distinct.len(), COUNT);
        // 16 symbols of 32: 80 bits.
        assert!(LENGTH as f64 * (ALPHABET.len() as f64).log2() >= 80.0);
        Ok(())
    }

    #[test]
    fn the_keyed_hash_ignores_how_a_code_is_typed_and_depends_on_key_and_user() {
        let hasher = CodeHasher::new([5; 32]);
        let code = "7kq2-m9xd-a3pv-tt8c";
        let stored = hasher.stored_form("usr_a", code);
        assert!(stored.starts_with(KEYED));
        assert_ne!(
            stored.trim_start_matches(KEYED),
            hash_secret(&normalise(code)),
            "not a plain SHA-256"
        );
        for typed in [
            "7KQ2 M9XD A3PV TT8C",
            "7kq2m9xda3pvtt8c",
            " 7kq2-m9xd-a3pv-tt8c ",
        ] {
            assert_eq!(
                hasher.candidates("usr_a", typed),
                vec![stored.clone()],
                "{typed}"
            );
        }
        // Look-alikes typed for digits still match.
        let with_ones = hasher.stored_form("usr_a", "1100-aaaa-bbbb-cccc");
        assert_eq!(
            hasher.candidates("usr_a", "lIOo-aaaa-bbbb-cccc"),
            vec![with_ones]
        );

        assert_ne!(hasher.stored_form("usr_b", code), stored, "another user");
        assert_ne!(
            CodeHasher::new([6; 32]).stored_form("usr_a", code),
            stored,
            "another key"
        );
        assert!(hasher.candidates("usr_a", "short").is_empty());
        assert!(hasher.candidates("usr_a", &"a".repeat(40)).is_empty());
    }

    #[test]
    fn codes_of_the_earlier_format_match_their_wrapped_hash() {
        let hasher = CodeHasher::new([5; 32]);
        // An earlier code and what an earlier version stored for it.
        let bare = hash_secret("k3v92hxq");
        assert!(CodeHasher::is_bare(&bare));
        let wrapped = hasher.wrap_earlier("usr_a", &bare);
        assert!(!CodeHasher::is_bare(&wrapped));
        assert!(!wrapped.contains(&bare));
        assert_eq!(hasher.candidates("usr_a", "K3V9-2HXQ"), vec![wrapped]);
        // Earlier codes were not read with look-alikes mapped: `o` stays `o`.
        let bare_o = hash_secret("o0o0o0o0");
        assert_eq!(
            hasher.candidates("usr_a", "o0o0-o0o0"),
            vec![hasher.wrap_earlier("usr_a", &bare_o)]
        );
        assert!(!CodeHasher::is_bare(
            &hasher.stored_form("usr_a", "7kq2-m9xd-a3pv-tt8c")
        ));
    }
}
