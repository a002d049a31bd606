//! API tokens: what the developers' tokens screen makes, rolls and revokes
//! (each one event of the stream, with who did it), and what a request
//! presenting a token is allowed (`authenticate`).

pub mod addresses;
pub mod authenticate;
pub mod commands;

use protocol::{ApiToken, ApiTokenState, Change, Mode, ReplyBody};

use super::Scope;
use super::permissions;
use crate::error::AppResult;
use crate::ids::now_ms;
use crate::store::api_tokens::{self as store, TokenRow};
use crate::store::stream::{self, Cause, StreamKey, Work};
use crate::store::{Db, Tx};

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

/// Revokes every usable token `creator` (a member or a token) made on the
/// scope's merchant, in both modes, and those made by them in turn, at
/// `now`. Returns the changes of the scope's own stream: the tokens of the
/// other mode are announced on theirs once this commits (`announce_revoked`).
pub async fn revoke_made_by(
    tx: &mut Tx,
    scope: &Scope,
    creator: &str,
    now: i64,
) -> AppResult<Vec<Change>> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let revoked = store::revoke_made_by(tx, &scope.merchant_id, creator, now).await?;
    let mut changes = Vec::new();
    for (id, mode) in revoked {
        if mode != scope.mode.as_str() {
            continue;
        }
        if let Some(row) = store::find(tx, &key, &id).await? {
            changes.push(Change::ApiTokenUpserted {
                token: Box::new(token_of(row, now)),
            });
        }
    }
    Ok(changes)
}

/// The tokens of `key`'s stream that `creator`'s line lost at `at`, told to
/// that stream as one event caused by whoever did it: its tokens screens
/// and its history hear of them, and the tokens' open sockets close on
/// every node. Returns the event's `seq`, for the caller to publish; none
/// when there was nothing to tell.
pub async fn announce_revoked(
    db: &Db,
    key: &StreamKey,
    creator: &str,
    at: i64,
    cause: &Cause,
) -> AppResult<Option<u64>> {
    let rows = store::revoked_made_by(db, key, creator, at).await?;
    if rows.is_empty() {
        return Ok(None);
    }
    let now = now_ms();
    let changes: Vec<Change> = rows
        .into_iter()
        .map(|row| Change::ApiTokenUpserted {
            token: Box::new(token_of(row, now)),
        })
        .collect();
    let written = stream::write(db, key, cause, async |_tx, _seq| {
        Ok(Work::changed(changes, ()))
    })
    .await?;
    Ok(written.seq)
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
