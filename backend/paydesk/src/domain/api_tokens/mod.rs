//! API tokens: what the developers' tokens screen makes, rolls and revokes
//! (each one event of the stream, with who did it), and what a request
//! presenting a token is allowed (`authenticate`).

pub mod addresses;
pub mod authenticate;
pub mod commands;

use protocol::{ApiToken, ApiTokenState, Mode, ReplyBody};

use super::Scope;
use super::permissions;
use crate::error::AppResult;
use crate::ids::now_ms;
use crate::store::Db;
use crate::store::api_tokens::{self as store, TokenRow};
use crate::store::stream::StreamKey;

/// A token row as the screen shows it, its state as of `now`.
pub fn token_of(row: TokenRow, now: i64) -> ApiToken {
    let state = if row.revoked_at.is_some() {
        ApiTokenState::Revoked
    } else if row.expires_at.is_some_and(|at| at <= now) {
        ApiTokenState::Expired
    } else {
        ApiTokenState::Active
    };
    ApiToken {
        mode: Mode::parse(&row.mode).unwrap_or(Mode::Test),
        // A matrix that no longer reads grants nothing.
        permissions: permissions::parse_stored(&row.permissions).unwrap_or_default(),
        allowed_addresses: addresses::split(&row.allowed_addresses),
        previous_secret_until: row.previous_secret_until.filter(|until| *until > now),
        state,
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        created_by_id: row.created_by,
        created_by_name: row.created_by_name,
        created_at: row.created_at,
        last_used_at: row.last_used_at,
        last_used_from: row.last_used_from,
        expires_at: row.expires_at,
        revoked_at: row.revoked_at,
    }
}

/// The tokens screen's list: the stream's tokens, newest first.
pub async fn list(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let now = now_ms();
    let rows = store::list(db, &key).await?;
    Ok(ReplyBody::ApiTokens {
        tokens: rows.into_iter().map(|row| token_of(row, now)).collect(),
    })
}
