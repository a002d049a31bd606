//! The server's secret key and the keys derived from it.
//!
//! The key comes from the configuration (`SECRET_KEY`, or a key file the
//! server made), never from the database: a copy of the database alone opens
//! no two-factor secret and tests no backup-code guess offline. Each use gets
//! its own sub-key, so what one use reveals (a backup code's keyed hash) says
//! nothing about another's key.

use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::api_tokens::TokenHasher;
use super::backup_codes::CodeHasher;
use super::sealed::SecretBox;
use crate::error::{AppError, AppResult};

pub const KEY_BYTES: usize = 32;

/// What `ServerKey::parse` accepts, for messages that name the setting.
pub const KEY_FORMAT: &str = "32 bytes, written as 64 hex digits or as base64";

#[derive(Clone, PartialEq, Eq)]
pub struct ServerKey([u8; KEY_BYTES]);

/// Never prints the key: the configuration is `Debug`, and may be logged.
impl std::fmt::Debug for ServerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerKey(redacted)")
    }
}

impl ServerKey {
    pub fn generate() -> AppResult<ServerKey> {
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
        Ok(ServerKey(bytes))
    }

    /// 64 hex digits, or base64 (standard or URL-safe, padded or not) of 32
    /// bytes. The error never repeats the value.
    pub fn parse(text: &str) -> Result<ServerKey, String> {
        let text = text.trim();
        let bytes = if text.len() == 2 * KEY_BYTES && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            (0..KEY_BYTES)
                .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| KEY_FORMAT.to_string())?
        } else {
            let unpadded = text.trim_end_matches('=');
            let engines = [
                base64::engine::general_purpose::STANDARD_NO_PAD,
                base64::engine::general_purpose::URL_SAFE_NO_PAD,
            ];
            engines
                .iter()
                .find_map(|engine| engine.decode(unpadded).ok())
                .ok_or_else(|| KEY_FORMAT.to_string())?
        };
        let bytes: [u8; KEY_BYTES] = bytes
            .try_into()
            .map_err(|_| format!("{KEY_FORMAT} (this one is not 32 bytes long)"))?;
        if bytes.iter().all(|b| *b == bytes[0]) {
            return Err(format!("{KEY_FORMAT}, random (this one repeats one byte)"));
        }
        Ok(ServerKey(bytes))
    }

    /// The key as the key file holds it.
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// A sub-key for one use: HMAC-SHA256 of the use's label under the key.
    fn derive(&self, label: &str) -> [u8; KEY_BYTES] {
        hmac_sha256(&self.0, &[b"paydesk sub-key\n", label.as_bytes()])
    }

    /// Stored beside the data to tell whether it was written with this key,
    /// without revealing anything of the key.
    pub fn check_value(&self) -> String {
        hex(&self.derive("key check"))
    }
}

/// The keys each use of the server key works with, handed to the code that
/// needs them (paydesk has no configuration of its own).
#[derive(Clone, Debug)]
pub struct Keys {
    /// Keys backup codes' stored hashes.
    pub backup_codes: CodeHasher,
    /// Seals two-factor secrets.
    pub totp: SecretBox,
    /// Seals webhook signing secrets (they must be read back to sign).
    pub webhooks: SecretBox,
    /// Keys API token secrets' stored hashes.
    pub api_tokens: TokenHasher,
    /// Seals the bodies of queued mail (the links in them).
    pub mail: SecretBox,
}

impl Keys {
    pub fn derive(key: &ServerKey) -> Keys {
        Keys {
            backup_codes: CodeHasher::new(key.derive("backup codes")),
            totp: SecretBox::new(key.derive("totp secrets")),
            webhooks: SecretBox::new(key.derive("webhook secrets")),
            api_tokens: TokenHasher::new(key.derive("api tokens")),
            mail: SecretBox::new(key.derive("mail outbox")),
        }
    }
}

/// HMAC-SHA256 of the concatenated `parts`.
pub(crate) fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    // HMAC takes keys of any length: `new_from_slice` cannot fail.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(key) else {
        return [0; 32];
    };
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_from_hex_or_base64_and_never_show() {
        let key = ServerKey::generate().unwrap();
        let hex_form = key.to_hex();
        assert_eq!(ServerKey::parse(&hex_form), Ok(key.clone()));
        assert_eq!(ServerKey::parse(&hex_form.to_uppercase()), Ok(key.clone()));
        let b64 = base64::engine::general_purpose::STANDARD.encode(key.0);
        assert_eq!(ServerKey::parse(&b64), Ok(key.clone()));
        let url = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(key.0);
        assert_eq!(ServerKey::parse(&format!(" {url}\n")), Ok(key.clone()));

        let short = ServerKey::parse(&hex_form[..62]).unwrap_err();
        assert!(!short.contains(&hex_form[..62]), "{short}");
        assert!(ServerKey::parse("not a key at all").is_err());
        assert!(
            ServerKey::parse(&"00".repeat(32)).is_err(),
            "no all-zero key"
        );
        assert!(!format!("{key:?}").contains(&hex_form));
        assert_eq!(format!("{key:?}"), "ServerKey(redacted)");
    }

    #[test]
    fn sub_keys_differ_by_use_and_by_key() {
        let key = ServerKey([1; 32]);
        assert_ne!(key.derive("backup codes"), key.derive("totp secrets"));
        assert_ne!(
            key.derive("backup codes"),
            ServerKey([2; 32]).derive("backup codes")
        );
        assert_eq!(key.check_value(), ServerKey([1; 32]).check_value());
        assert!(!key.check_value().contains(&key.to_hex()));
    }
}
