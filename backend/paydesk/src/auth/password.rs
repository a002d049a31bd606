//! Password hashing (argon2id, OWASP parameters) and the strength rules.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use protocol::ErrorCode;

use crate::error::{AppError, AppResult};

const MIN_LENGTH: usize = 10;
const MAX_LENGTH: usize = 128;
const COMMON_PASSWORDS: &str = include_str!("common_passwords.txt");

fn hasher() -> AppResult<Argon2<'static>> {
    // OWASP: 19 MiB of memory, two passes, one lane.
    let params = Params::new(19 * 1024, 2, 1, None)
        .map_err(|e| AppError::Internal(format!("argon2 params: {e}")))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Hashes on a blocking thread: a hash takes tens of milliseconds of CPU and
/// would otherwise stall every socket served by the same async worker.
pub async fn hash_password(password: String) -> AppResult<String> {
    tokio::task::spawn_blocking(move || {
        let salt = new_salt()?;
        hasher()?
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AppError::Internal(format!("hash: {e}")))
    })
    .await
    .map_err(|e| AppError::Internal(format!("blocking pool: {e}")))?
}

/// Verifies on a blocking thread. An unknown user is checked against a dummy
/// hash so both answers take the same time.
pub async fn verify_password(password: String, stored_hash: Option<String>) -> AppResult<bool> {
    tokio::task::spawn_blocking(move || {
        let dummy;
        let stored = match &stored_hash {
            Some(hash) => hash.as_str(),
            None => {
                dummy = dummy_hash()?;
                dummy.as_str()
            }
        };
        let parsed = PasswordHash::new(stored)
            .map_err(|e| AppError::Internal(format!("stored hash: {e}")))?;
        let matches = hasher()?
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(matches && stored_hash.is_some())
    })
    .await
    .map_err(|e| AppError::Internal(format!("blocking pool: {e}")))?
}

fn new_salt() -> AppResult<SaltString> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
    SaltString::encode_b64(&bytes).map_err(|e| AppError::Internal(format!("salt: {e}")))
}

fn dummy_hash() -> AppResult<String> {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if let Some(hash) = DUMMY.get() {
        return Ok(hash.clone());
    }
    let salt = new_salt()?;
    let hash = hasher()?
        .hash_password(b"not a real password", &salt)
        .map_err(|e| AppError::Internal(format!("hash: {e}")))?
        .to_string();
    Ok(DUMMY.get_or_init(|| hash).clone())
}

/// A new password: at least 10 characters, at most 128, not a well-known one.
pub fn check_new_password(password: &str) -> Result<(), ErrorCode> {
    let length = password.chars().count();
    if length < MIN_LENGTH {
        return Err(ErrorCode::WeakPassword);
    }
    if length > MAX_LENGTH {
        return Err(ErrorCode::TooLong);
    }
    let lowered = password.to_lowercase();
    let one_character = lowered.chars().all(|c| lowered.starts_with(c));
    if one_character || COMMON_PASSWORDS.lines().any(|common| common == lowered) {
        return Err(ErrorCode::CommonPassword);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_rules() {
        assert_eq!(check_new_password("short"), Err(ErrorCode::WeakPassword));
        assert_eq!(
            check_new_password("123456789"),
            Err(ErrorCode::WeakPassword)
        );
        assert_eq!(
            check_new_password("1234567890"),
            Err(ErrorCode::CommonPassword)
        );
        assert_eq!(
            check_new_password("Password123"),
            Err(ErrorCode::CommonPassword)
        );
        assert_eq!(
            check_new_password("aaaaaaaaaaaa"),
            Err(ErrorCode::CommonPassword)
        );
        assert_eq!(check_new_password("karoo-sunset-41"), Ok(()));
        assert_eq!(
            check_new_password(&"x1".repeat(65)),
            Err(ErrorCode::TooLong)
        );
    }
}
