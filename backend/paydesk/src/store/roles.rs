//! A merchant's custom roles: a name and a matrix of sections × access,
//! held by members (and offered by invites) that name the role. Every
//! query names the merchant.

use protocol::{CustomRole, Permissions};
use sqlx::Row;

use super::{Db, Tx};
use crate::domain::permissions;
use crate::error::AppResult;

const COLUMNS: &str = "id, name, permissions, created_at, updated_at FROM custom_roles";

fn role_of(r: sqlx::any::AnyRow) -> CustomRole {
    let stored: String = r.get("permissions");
    CustomRole {
        id: r.get("id"),
        name: r.get("name"),
        // A matrix that cannot be read grants nothing.
        grants: permissions::parse_stored(&stored).unwrap_or_default(),
        created_at: r.get("created_at"),
        updated_at: r.get("updated_at"),
    }
}

/// The merchant's custom roles, by name.
pub async fn list(db: &Db, merchant_id: &str) -> AppResult<Vec<CustomRole>> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} WHERE merchant_id = $1 ORDER BY LOWER(name), id"
    )))
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.into_iter().map(role_of).collect())
}

pub async fn find(tx: &mut Tx, merchant_id: &str, role_id: &str) -> AppResult<Option<CustomRole>> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} WHERE merchant_id = $1 AND id = $2"
    )))
    .bind(merchant_id)
    .bind(role_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(role_of))
}

/// Whether another role of the merchant has this name (any case).
pub async fn name_taken(
    tx: &mut Tx,
    merchant_id: &str,
    name: &str,
    except_id: &str,
) -> AppResult<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM custom_roles WHERE merchant_id = $1 AND LOWER(name) = LOWER($2) AND id <> $3",
    )
    .bind(merchant_id)
    .bind(name)
    .bind(except_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.is_some())
}

pub async fn insert(
    tx: &mut Tx,
    merchant_id: &str,
    id: &str,
    name: &str,
    grants: &Permissions,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO custom_roles (id, merchant_id, name, permissions, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(id)
    .bind(merchant_id)
    .bind(name)
    .bind(permissions::to_stored(grants))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn update(
    tx: &mut Tx,
    merchant_id: &str,
    id: &str,
    name: &str,
    grants: &Permissions,
    now: i64,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE custom_roles SET name = $3, permissions = $4, updated_at = $5 \
         WHERE merchant_id = $1 AND id = $2",
    )
    .bind(merchant_id)
    .bind(id)
    .bind(name)
    .bind(permissions::to_stored(grants))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn delete(tx: &mut Tx, merchant_id: &str, id: &str) -> AppResult<bool> {
    let done = sqlx::query("DELETE FROM custom_roles WHERE merchant_id = $1 AND id = $2")
        .bind(merchant_id)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The members who hold the role now.
pub async fn holders<'e, E>(executor: E, merchant_id: &str, role_id: &str) -> AppResult<Vec<String>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(
        "SELECT user_id FROM memberships WHERE merchant_id = $1 AND custom_role_id = $2 \
         ORDER BY user_id",
    )
    .bind(merchant_id)
    .bind(role_id)
    .fetch_all(executor)
    .await?;
    Ok(rows.into_iter().map(|r| r.get("user_id")).collect())
}

/// Whether an invite still open (or one not yet used) offers the role.
pub async fn offered_by_invites(tx: &mut Tx, merchant_id: &str, role_id: &str) -> AppResult<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM invites WHERE merchant_id = $1 AND custom_role_id = $2 \
         AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(merchant_id)
    .bind(role_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.is_some())
}

/// Used invites keep their role's name in the history; their link to a
/// deleted role is let go (the key would refuse the delete).
pub async fn forget_in_closed_invites(
    tx: &mut Tx,
    merchant_id: &str,
    role_id: &str,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE invites SET custom_role_id = NULL WHERE merchant_id = $1 AND custom_role_id = $2",
    )
    .bind(merchant_id)
    .bind(role_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
