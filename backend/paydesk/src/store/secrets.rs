//! Server-wide values kept in the database so every node shares them: the
//! CSRF key, and the check value telling which server key the data was
//! written with.

use sqlx::Row;

use super::Db;
use crate::error::AppResult;
use crate::ids::new_secret;

/// The named secret, created on first use. Two nodes racing to create it agree
/// on whichever insert won.
pub async fn server_secret(db: &Db, name: &str) -> AppResult<String> {
    first_value(db, name, &new_secret()).await
}

/// The value stored under `name`, storing `value` if there is none yet.
pub async fn first_value(db: &Db, name: &str, value: &str) -> AppResult<String> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(value)
    .execute(&mut *tx)
    .await?;
    let row = sqlx::query("SELECT value FROM server_secrets WHERE name = $1")
        .bind(name)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(row.get("value"))
}
