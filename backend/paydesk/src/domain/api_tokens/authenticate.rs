//! What a request presenting an API token may do: whose it is (merchant and
//! mode), what it grants, and whether it is refused (unknown, revoked,
//! expired, or from an address not on its allow-list).

use protocol::{ErrorCode, Mode, Permissions, Role};

use super::addresses;
use crate::auth::api_tokens::{TokenHasher, claimed_mode};
use crate::domain::permissions::{self, Grant};
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::api_tokens::{self as store, TokenRow};

/// A token that opened the API, as of this request.
#[derive(Clone, Debug)]
pub struct TokenAccess {
    pub token_id: String,
    pub merchant_id: String,
    pub mode: Mode,
    pub permissions: Permissions,
    /// When it was last noted as used (to note it again at most once a minute).
    pub last_used_at: Option<i64>,
}

impl TokenAccess {
    /// The token's grant: a custom role with the token's matrix. Never the
    /// owner's: owner-only commands are for people.
    pub fn grant(&self) -> Grant {
        Grant {
            role: Role::Custom,
            permissions: self.permissions,
        }
    }
}

/// Checks a presented secret from `client` at `now`. Every refusal is the
/// same `unauthenticated` for the caller (which one is logged, never the
/// secret), so the answer says nothing about which tokens exist.
pub async fn authenticate(
    db: &Db,
    hasher: &TokenHasher,
    secret: &str,
    client: &str,
    now: i64,
) -> AppResult<Result<TokenAccess, Refusal>> {
    let Some(mode) = claimed_mode(secret) else {
        return Ok(Err(Refusal::Unknown));
    };
    let Some(row) = store::find_by_secret(db, &hasher.hash(secret), now).await? else {
        return Ok(Err(Refusal::Unknown));
    };
    Ok(check(row, mode, client, now))
}

/// Why a token was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    Unknown,
    Revoked,
    Expired,
    AddressNotAllowed,
}

impl Refusal {
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::Unknown => "unknown token",
            Refusal::Revoked => "revoked token",
            Refusal::Expired => "expired token",
            Refusal::AddressNotAllowed => "address not on the token's allow-list",
        }
    }

    pub fn code(self) -> ErrorCode {
        ErrorCode::Unauthenticated
    }
}

fn check(row: TokenRow, mode: Mode, client: &str, now: i64) -> Result<TokenAccess, Refusal> {
    if row.mode != mode.as_str() {
        return Err(Refusal::Unknown);
    }
    if row.revoked_at.is_some() {
        return Err(Refusal::Revoked);
    }
    if row.expires_at.is_some_and(|at| at <= now) {
        return Err(Refusal::Expired);
    }
    if !addresses::allows(&row.allowed_addresses, client) {
        return Err(Refusal::AddressNotAllowed);
    }
    Ok(TokenAccess {
        token_id: row.id,
        merchant_id: row.merchant_id,
        mode,
        permissions: permissions::parse_stored(&row.permissions).unwrap_or_default(),
        last_used_at: row.last_used_at,
    })
}

/// Whether the token was revoked since `access` was checked (a socket asks
/// before each frame it runs).
pub async fn still_valid(db: &Db, access: &TokenAccess, now: i64) -> AppResult<bool> {
    let _ = now;
    Ok(matches!(
        store::revoked_at(db, &access.token_id).await?,
        Some(None)
    ))
}

/// Notes the use, at most once a minute per token: a busy integration
/// costs one write a minute, not one per request.
pub async fn note_use(db: &Db, access: &TokenAccess, client: &str, now: i64) -> AppResult<()> {
    const EVERY_MS: i64 = 60_000;
    if access.last_used_at.is_some_and(|at| now - at < EVERY_MS) {
        return Ok(());
    }
    store::touch(db, &access.token_id, now, client).await
}

/// `AppError` for a refusal.
pub fn refused(refusal: Refusal) -> AppError {
    AppError::Code(refusal.code())
}

/// The key a token's sockets are registered under (beside browser
/// sessions' token hashes, which never look like this).
pub fn api_socket_key(token_id: &str) -> String {
    format!("api:{token_id}")
}
