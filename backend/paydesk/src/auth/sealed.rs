//! Secrets the server must read back (two-factor secrets) are stored sealed:
//! XChaCha20-Poly1305 under a key from the configuration, with a random
//! 24-byte nonce per secret (large enough that random nonces never repeat)
//! and the owner's id as associated data, so a sealed value copied onto
//! another user's row does not open. Stored as `sealed1:` and the URL-safe
//! base64 of nonce and ciphertext.

use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};

use crate::error::{AppError, AppResult};

/// What every sealed value starts with.
pub const PREFIX: &str = "sealed1:";
const NONCE_BYTES: usize = 24;

#[derive(Clone)]
pub struct SecretBox {
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBox(redacted)")
    }
}

impl SecretBox {
    pub fn new(key: [u8; 32]) -> SecretBox {
        SecretBox {
            cipher: XChaCha20Poly1305::new(&key.into()),
        }
    }

    /// Whether `stored` is in the sealed form (not a secret written in clear
    /// by an earlier version).
    pub fn is_sealed(stored: &str) -> bool {
        stored.starts_with(PREFIX)
    }

    /// Seals `secret` for `owner`; a fresh nonce each time.
    pub fn seal(&self, owner: &str, secret: &str) -> AppResult<String> {
        let mut nonce = [0u8; NONCE_BYTES];
        getrandom::fill(&mut nonce).map_err(|e| AppError::Internal(format!("random: {e}")))?;
        let sealed = self
            .cipher
            .encrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: secret.as_bytes(),
                    aad: owner.as_bytes(),
                },
            )
            .map_err(|_| AppError::Internal("cannot seal a secret".into()))?;
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        Ok(format!(
            "{PREFIX}{}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(out)
        ))
    }

    /// The secret in `stored`: opened when sealed, as it is when an earlier
    /// version wrote it in clear (start-up seals those; until then they still
    /// work). A sealed value that was altered, belongs to another owner, or was
    /// sealed under another key is refused.
    pub fn open(&self, owner: &str, stored: &str) -> AppResult<String> {
        let Some(encoded) = stored.strip_prefix(PREFIX) else {
            return Ok(stored.to_string());
        };
        let refused = || AppError::Internal("a sealed secret does not open with this key".into());
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(encoded)
            .map_err(|_| refused())?;
        if bytes.len() < NONCE_BYTES {
            return Err(refused());
        }
        let (nonce, sealed) = bytes.split_at(NONCE_BYTES);
        let nonce: [u8; NONCE_BYTES] = nonce.try_into().map_err(|_| refused())?;
        let plain = self
            .cipher
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: sealed,
                    aad: owner.as_bytes(),
                },
            )
            .map_err(|_| refused())?;
        String::from_utf8(plain).map_err(|_| refused())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

    #[test]
    fn a_sealed_secret_opens_for_its_owner_only() -> AppResult<()> {
        let vault = SecretBox::new([3; 32]);
        let sealed = vault.seal("usr_a", SECRET)?;
        assert!(SecretBox::is_sealed(&sealed));
        assert!(!sealed.contains(SECRET), "{sealed}");
        assert_eq!(vault.open("usr_a", &sealed)?, SECRET);
        assert_ne!(
            vault.seal("usr_a", SECRET)?,
            sealed,
            "a fresh nonce each time"
        );

        assert!(vault.open("usr_b", &sealed).is_err(), "another owner's row");
        assert!(
            SecretBox::new([4; 32]).open("usr_a", &sealed).is_err(),
            "another key"
        );
        Ok(())
    }

    #[test]
    fn an_altered_sealed_secret_is_refused() -> AppResult<()> {
        let vault = SecretBox::new([3; 32]);
        let sealed = vault.seal("usr_a", SECRET)?;
        let encoded = &sealed[PREFIX.len()..];
        let mut bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(encoded)
            .map_err(|e| AppError::Internal(e.to_string()))?;
        for at in [0, NONCE_BYTES, bytes.len() - 1] {
            bytes[at] ^= 1;
            let tampered = format!(
                "{PREFIX}{}",
                base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes)
            );
            assert!(vault.open("usr_a", &tampered).is_err(), "byte {at} flipped");
            bytes[at] ^= 1;
        }
        assert!(
            vault.open("usr_a", &sealed[..sealed.len() - 4]).is_err(),
            "cut short"
        );
        assert!(vault.open("usr_a", "sealed1:").is_err());
        assert!(vault.open("usr_a", "sealed1:!!").is_err());
        Ok(())
    }

    #[test]
    fn secrets_written_in_clear_by_earlier_versions_still_open() -> AppResult<()> {
        let vault = SecretBox::new([3; 32]);
        assert!(!SecretBox::is_sealed(SECRET));
        assert_eq!(vault.open("usr_a", SECRET)?, SECRET);
        Ok(())
    }
}
