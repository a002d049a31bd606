//! The tokens screen's commands. Each runs in the stream's write
//! transaction like every command: one event, with who did it, and the
//! token as it is after it (`Change::ApiTokenUpserted`), which is what the
//! account history shows. A secret is returned once and never stored.

use protocol::{ApiToken, Change, Command, ErrorCode, Permissions};

use super::{addresses, token_of};
use crate::auth::api_tokens::{TokenHasher, new_secret};
use crate::domain::permissions;
use crate::domain::{Scope, checked_id, rules};
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, now_ms};
use crate::store::Tx;
use crate::store::api_tokens::{self as store, NewToken, TokenRow};
use crate::store::stream::StreamKey;

const NAME_MAX: usize = 64;
/// The longest a rolled secret keeps working beside the new one: a month
/// is long enough to redeploy any integration.
pub const MAX_GRACE_HOURS: u32 = 720;

/// What a token command did: the token as it is now, and the secret it
/// made (create and roll), to be shown once.
pub struct TokenOutcome {
    pub token: ApiToken,
    pub secret: Option<String>,
    pub changes: Vec<Change>,
}

pub fn is_api_token_command(command: &Command) -> bool {
    matches!(
        command,
        Command::CreateApiToken { .. }
            | Command::RollApiToken { .. }
            | Command::RevokeApiToken { .. }
    )
}

async fn outcome(
    tx: &mut Tx,
    key: &StreamKey,
    id: &str,
    secret: Option<String>,
    now: i64,
) -> AppResult<TokenOutcome> {
    let row = store::find(tx, key, id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let token = token_of(row, now);
    Ok(TokenOutcome {
        changes: vec![Change::ApiTokenUpserted {
            token: Box::new(token.clone()),
        }],
        token,
        secret,
    })
}

/// What a token made or rolled by another token may be: nothing its maker
/// is not. Its matrix within the maker's (checked for every sender), its
/// life no longer, and its allow-list no wider: a token cannot hand out
/// more than it holds, nor outlive it.
fn within_maker(
    maker: &TokenRow,
    permissions: &Permissions,
    expires_at: Option<i64>,
    allowed: &str,
) -> AppResult<()> {
    let maker_permissions = permissions::parse_stored(&maker.permissions).unwrap_or_default();
    if !permissions.within(&maker_permissions) {
        return Err(AppError::Code(ErrorCode::Forbidden));
    }
    let outlives = match (maker.expires_at, expires_at) {
        (Some(end), Some(at)) => at > end,
        (Some(_), None) => true,
        (None, _) => false,
    };
    if outlives {
        return Err(AppError::field("expiresAt", ErrorCode::Forbidden));
    }
    if !addresses::within(allowed, &maker.allowed_addresses) {
        return Err(AppError::field("allowedAddresses", ErrorCode::Forbidden));
    }
    Ok(())
}

/// The token sending the command, as stored (the check before the write
/// found it usable).
async fn maker_of(tx: &mut Tx, key: &StreamKey, token_id: &str) -> AppResult<TokenRow> {
    store::find(tx, key, token_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::Unauthenticated))
}

/// Runs a token command for `scope`; `by_token` is the token that sent it,
/// when a token did (a member otherwise).
pub async fn run_api_token_command(
    tx: &mut Tx,
    scope: &Scope,
    command: &Command,
    hasher: &TokenHasher,
    by_token: Option<&str>,
) -> AppResult<TokenOutcome> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let now = now_ms();
    match command {
        Command::CreateApiToken {
            name,
            mode,
            permissions: grants,
            expires_at,
            allowed_addresses,
        } => {
            let name = name.trim();
            rules::required(name, NAME_MAX).map_err(|code| AppError::field("name", code))?;
            // A token works in the mode it was made in; the screen makes it
            // in the mode it shows.
            if *mode != scope.mode {
                return Err(AppError::field("mode", ErrorCode::InvalidInput));
            }
            if expires_at.is_some_and(|at| at <= now) {
                return Err(AppError::field("expiresAt", ErrorCode::DateInPast));
            }
            let allowed = addresses::normalise(allowed_addresses)
                .map_err(|code| AppError::field("allowedAddresses", code))?;
            // Like a custom role: no one hands out more than they have.
            if !grants.within(&scope.permissions) {
                return Err(AppError::Code(ErrorCode::Forbidden));
            }
            if let Some(maker) = by_token {
                let maker = maker_of(tx, &key, maker).await?;
                within_maker(&maker, grants, *expires_at, &allowed)?;
            }
            let made = new_secret(scope.mode)?;
            let id = new_id("tok");
            let stored = permissions::to_stored(grants);
            let token = NewToken {
                id: &id,
                name,
                prefix: &made.prefix,
                secret_hash: &hasher.hash(&made.secret),
                permissions: &stored,
                allowed_addresses: &allowed,
                expires_at: *expires_at,
                created_by: &scope.user_id,
            };
            store::insert(tx, &key, &token, now).await?;
            outcome(tx, &key, &id, Some(made.secret), now).await
        }
        Command::RollApiToken {
            token_id,
            grace_hours,
        } => {
            let id = checked_id(token_id)?;
            if *grace_hours > MAX_GRACE_HOURS {
                return Err(AppError::field("graceHours", ErrorCode::InvalidInput));
            }
            // A new secret opens the token rolled: a token may roll only
            // one that is nothing more than itself.
            if let Some(maker) = by_token {
                let maker = maker_of(tx, &key, maker).await?;
                let rolled = store::find(tx, &key, id)
                    .await?
                    .ok_or(AppError::Code(ErrorCode::NotFound))?;
                let grants = permissions::parse_stored(&rolled.permissions).unwrap_or_default();
                within_maker(
                    &maker,
                    &grants,
                    rolled.expires_at,
                    &rolled.allowed_addresses,
                )
                .map_err(|_| AppError::Code(ErrorCode::Forbidden))?;
            }
            let made = new_secret(scope.mode)?;
            let until = (*grace_hours > 0).then(|| now + i64::from(*grace_hours) * 3_600_000);
            let hash = hasher.hash(&made.secret);
            // A revoked token stays revoked: rolling it finds nothing.
            if !store::replace_secret(tx, &key, id, &hash, &made.prefix, until).await? {
                return Err(AppError::Code(ErrorCode::NotFound));
            }
            outcome(tx, &key, id, Some(made.secret), now).await
        }
        Command::RevokeApiToken { token_id } => {
            let id = checked_id(token_id)?;
            // Revoking twice changes nothing more, and still says so.
            store::revoke(tx, &key, id, now).await?;
            let mut done = outcome(tx, &key, id, None, now).await?;
            // The tokens it made go with it, and theirs.
            done.changes
                .extend(super::revoke_made_by(tx, scope, id, now).await?);
            Ok(done)
        }
        _ => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}
