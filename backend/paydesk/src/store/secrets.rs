//! Server-wide secrets, kept in the database so every node shares them.

use sqlx::Row;

use super::Db;
use crate::error::AppResult;
use crate::ids::new_secret;

/// The named secret, created on first use. Two nodes racing to create it agree
/// on whichever insert won.
pub async fn server_secret(db: &Db, name: &str) -> AppResult<String> {
    let mut tx = db.begin_write().await?;
    sqlx::query(
        "INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(new_secret())
    .execute(&mut *tx)
    .await?;
    let row = sqlx::query("SELECT value FROM server_secrets WHERE name = $1")
        .bind(name)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(row.get("value"))
}
