//! Password hashing (argon2id, OWASP parameters) and the strength rules.

use argon2::password_hash::{Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use protocol::ErrorCode;

use super::hashing_pool;
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

/// The number of hashes that run at once: one per core, on the hashing
/// pool's threads.
pub fn hashing_capacity() -> usize {
    hashing_pool::capacity()
}

/// The most hashes that ran at once since the process started.
pub fn peak_concurrent_hashes() -> usize {
    hashing_pool::peak()
}

/// Hashes on the hashing pool: a hash takes tens of milliseconds of CPU and
/// would otherwise stall every socket served by the same async worker.
pub async fn hash_password(password: String) -> AppResult<String> {
    hashing_pool::run(move |memory| {
        let salt = new_salt()?;
        let argon = hasher()?;
        let output = compute(&argon, password.as_bytes(), salt.as_salt(), memory)?;
        let hash = PasswordHash {
            algorithm: Algorithm::Argon2id.ident(),
            version: Some(Version::V0x13.into()),
            params: ParamsString::try_from(argon.params()).map_err(internal("hash params"))?,
            salt: Some(salt.as_salt()),
            hash: Some(output),
        };
        Ok(hash.to_string())
    })
    .await
}

/// Verifies on the hashing pool. An unknown user is checked against a dummy
/// hash so both answers take the same time.
pub async fn verify_password(password: String, stored_hash: Option<String>) -> AppResult<bool> {
    hashing_pool::run(move |memory| {
        let dummy;
        let stored = match &stored_hash {
            Some(hash) => hash.as_str(),
            None => {
                dummy = dummy_hash(memory)?;
                dummy.as_str()
            }
        };
        let parsed = PasswordHash::new(stored).map_err(internal("stored hash"))?;
        let matches = verify(&parsed, password.as_bytes(), memory)?;
        Ok(matches && stored_hash.is_some())
    })
    .await
}

/// Whether `password` hashes to `stored`, with the stored hash's own
/// algorithm and parameters (older hashes keep theirs).
fn verify(stored: &PasswordHash<'_>, password: &[u8], memory: &mut Vec<Block>) -> AppResult<bool> {
    let (Some(salt), Some(expected)) = (stored.salt, &stored.hash) else {
        return Ok(false);
    };
    let algorithm = Algorithm::try_from(stored.algorithm).map_err(internal("stored hash"))?;
    let version = stored
        .version
        .map(Version::try_from)
        .transpose()
        .map_err(internal("stored hash"))?
        .unwrap_or_default();
    let params = Params::try_from(stored).map_err(internal("stored hash"))?;
    let argon = Argon2::new(algorithm, version, params);
    let computed = compute(&argon, password, salt, memory)?;
    // `Output`'s equality is constant-time.
    Ok(&computed == expected)
}

/// The argon2 output, computed in the pool thread's own memory instead of
/// 19 MiB allocated and freed per hash (which the allocator kept, per
/// thread, after a burst).
fn compute(
    argon: &Argon2<'_>,
    password: &[u8],
    salt: Salt<'_>,
    memory: &mut Vec<Block>,
) -> AppResult<Output> {
    let blocks = argon.params().block_count();
    if memory.len() < blocks {
        memory.resize(blocks, Block::default());
    }
    let mut salt_bytes = [0u8; 64];
    let salt = salt.decode_b64(&mut salt_bytes).map_err(internal("salt"))?;
    let length = argon
        .params()
        .output_len()
        .unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    Output::init_with(length, |out| {
        argon
            .hash_password_into_with_memory(password, salt, out, &mut memory[..blocks])
            .map_err(Into::into)
    })
    .map_err(internal("hash"))
}

fn internal<E: std::fmt::Display>(what: &'static str) -> impl Fn(E) -> AppError {
    move |e| AppError::Internal(format!("{what}: {e}"))
}

fn new_salt() -> AppResult<SaltString> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
    SaltString::encode_b64(&bytes).map_err(|e| AppError::Internal(format!("salt: {e}")))
}

fn dummy_hash(memory: &mut Vec<Block>) -> AppResult<String> {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if let Some(hash) = DUMMY.get() {
        return Ok(hash.clone());
    }
    let salt = new_salt()?;
    let argon = hasher()?;
    let output = compute(&argon, b"not a real password", salt.as_salt(), memory)?;
    let hash = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(argon.params()).map_err(internal("hash params"))?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    }
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
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    /// Hashes made in the pool's reused memory are the crate's own: stored
    /// hashes from before verify, and new ones verify with the crate.
    #[tokio::test]
    async fn pool_hashes_match_the_crates_own() {
        let salt = new_salt().unwrap();
        let old = hasher()
            .unwrap()
            .hash_password(b"karoo-sunset-41", &salt)
            .unwrap()
            .to_string();
        assert!(
            verify_password("karoo-sunset-41".into(), Some(old.clone()))
                .await
                .unwrap()
        );
        assert!(
            !verify_password("karoo-sunset-42".into(), Some(old))
                .await
                .unwrap()
        );
        let new = hash_password("karoo-sunset-41".into()).await.unwrap();
        let parsed = PasswordHash::new(&new).unwrap();
        assert!(
            hasher()
                .unwrap()
                .verify_password(b"karoo-sunset-41", &parsed)
                .is_ok()
        );
        assert!(
            !verify_password("karoo-sunset-41".into(), None)
                .await
                .unwrap()
        );
    }

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
