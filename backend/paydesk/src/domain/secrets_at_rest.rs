//! Secrets at rest: the server key must be the one the database was written
//! with, and what earlier versions stored in weaker forms is upgraded once
//! at start-up (two-factor secrets written in clear are sealed; bare SHA-256
//! hashes of earlier backup codes are wrapped in the keyed hash). Every step
//! is a conditional update, so nodes starting together do not trip on each
//! other, and a step left undone is simply done at the next start.

use crate::auth::backup_codes::{self, CodeHasher};
use crate::auth::keys::{Keys, ServerKey};
use crate::auth::sealed::{self, SecretBox};
use crate::error::{AppError, AppResult};
use crate::store::accounts::{self as store, TotpColumn};
use crate::store::{Db, secrets};

/// The name of the stored check value of the server key.
const KEY_CHECK: &str = "server_key_check";

/// Refuses a key other than the one the database was first used with: with
/// another key no two-factor secret opens and no backup code matches, and
/// every node of one database must share the key. A new database takes the
/// key it is first started with.
pub async fn check_server_key(db: &Db, key: &ServerKey) -> AppResult<()> {
    let expected = key.check_value();
    let stored = secrets::first_value(db, KEY_CHECK, &expected).await?;
    if stored == expected {
        Ok(())
    } else {
        Err(AppError::Internal(
            "SECRET_KEY: this database was written with another server key; start with the \
             key it was written with (SECRET_KEY, or the key file it was generated into)"
                .into(),
        ))
    }
}

/// How many stored secrets start-up upgraded.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Upgraded {
    pub backup_codes: usize,
    pub totp_secrets: usize,
}

pub async fn upgrade_weak_secrets(db: &Db, keys: &Keys) -> AppResult<Upgraded> {
    let weak = store::weak_secrets(db, backup_codes::KEYED_FAMILY, sealed::PREFIX).await?;
    let mut upgraded = Upgraded::default();
    for (user_id, bare) in &weak.backup_codes {
        if CodeHasher::is_bare(bare) {
            let wrapped = keys.backup_codes.wrap_earlier(user_id, bare);
            store::rewrite_backup_code(db, user_id, bare, &wrapped).await?;
            upgraded.backup_codes += 1;
        }
    }
    for (user_id, enabled, pending) in &weak.totp {
        for (column, stored) in [
            (TotpColumn::Enabled, enabled),
            (TotpColumn::Pending, pending),
        ] {
            if let Some(clear) = stored.as_deref().filter(|s| !SecretBox::is_sealed(s)) {
                let sealed = keys.totp.seal(user_id, clear)?;
                store::rewrite_totp_secret(db, user_id, column, clear, &sealed).await?;
                upgraded.totp_secrets += 1;
            }
        }
    }
    Ok(upgraded)
}
