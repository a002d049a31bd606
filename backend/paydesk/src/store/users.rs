//! Users, merchants and memberships.

use protocol::{Language, MerchantView, Role, UserView};
use sqlx::Row;

use super::sql::{Bind, Sql};
use super::{Db, Tx};
use crate::domain::permissions;
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, now_ms};

pub struct UserCredentials {
    pub id: String,
    pub password_hash: String,
}

pub struct NewAccount<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub business_name: &'a str,
}

/// Creates the user, their merchant and the owner membership in one
/// transaction. Returns `None` when the e-mail already has an account.
pub async fn create_account(db: &Db, account: NewAccount<'_>) -> AppResult<Option<String>> {
    let mut tx = db.begin_write().await?;
    let taken = sqlx::query("SELECT 1 FROM users WHERE email = $1")
        .bind(account.email)
        .fetch_optional(&mut *tx)
        .await?;
    if taken.is_some() {
        return Ok(None);
    }
    let now = now_ms();
    let user_id = new_id("usr");
    let merchant_id = new_id("mer");
    sqlx::query("INSERT INTO users (id, email, name, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&user_id)
        .bind(account.email)
        .bind(account.name)
        .bind(account.password_hash)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    // The name given at sign-up is the business's legal name until the owner
    // says otherwise on Business info.
    sqlx::query("INSERT INTO merchants (id, name, legal_name, created_at) VALUES ($1, $2, $3, $4)")
        .bind(&merchant_id)
        .bind(account.business_name)
        .bind(account.business_name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&merchant_id)
    .bind(&user_id)
    .bind(Role::Owner.as_str())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(user_id))
}

pub async fn find_credentials_by_email(db: &Db, email: &str) -> AppResult<Option<UserCredentials>> {
    let row = sqlx::query("SELECT id, password_hash FROM users WHERE email = $1")
        .bind(email)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| UserCredentials {
        id: r.get("id"),
        password_hash: r.get("password_hash"),
    }))
}

pub async fn find_user(db: &Db, user_id: &str) -> AppResult<Option<UserView>> {
    let row = sqlx::query("SELECT id, name, email FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| UserView {
        id: r.get("id"),
        name: r.get("name"),
        email: r.get("email"),
    }))
}

/// The language the user chose for the interface and their mail.
pub async fn find_language(db: &Db, user_id: &str) -> AppResult<Option<Language>> {
    let language: Option<String> = sqlx::query_scalar("SELECT language FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(language.map(|l| Language::parse(&l).unwrap_or_default()))
}

/// The user, and whether they have enrolled in two-factor sign-in: what a
/// socket's `Hello` needs of them, in one read and without their secrets.
pub async fn find_user_and_enrolment(
    db: &Db,
    user_id: &str,
) -> AppResult<Option<(UserView, bool)>> {
    let row = sqlx::query(
        "SELECT id, name, email, \
         CAST(CASE WHEN totp_secret IS NULL THEN 0 ELSE 1 END AS BIGINT) AS enrolled \
         FROM users WHERE id = $1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| {
        let user = UserView {
            id: r.get("id"),
            name: r.get("name"),
            email: r.get("email"),
        };
        (user, r.get::<i64, _>("enrolled") == 1)
    }))
}

/// Every merchant the user belongs to, oldest membership first, with what
/// the member's role grants there (a custom role's matrix read with it).
pub async fn find_memberships(db: &Db, user_id: &str) -> AppResult<Vec<MerchantView>> {
    let rows = sqlx::query(
        "SELECT m.id, m.name, ms.role, cr.name AS role_name, cr.permissions \
         FROM memberships ms JOIN merchants m ON m.id = ms.merchant_id \
         LEFT JOIN custom_roles cr ON cr.id = ms.custom_role_id AND cr.merchant_id = ms.merchant_id \
         WHERE ms.user_id = $1 ORDER BY ms.created_at, m.id",
    )
    .bind(user_id)
    .fetch_all(&db.pool)
    .await?;
    rows.iter().map(merchant_view).collect()
}

/// The user's role on the merchant and what it grants now, if they are
/// still a member. Read inside a command's write transaction, so a role
/// changed or a member removed a moment ago is what decides.
pub async fn find_grant<'e, E>(
    executor: E,
    merchant_id: &str,
    user_id: &str,
) -> AppResult<Option<permissions::Grant>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = grant_query(merchant_id, user_id)
        .query()
        .fetch_all(executor)
        .await?;
    grant_of(&rows)
}

/// The member's standing on the merchant as a tab shows it (their grant and
/// the custom role's name): none if the user is no member.
pub async fn find_standing<'e, E>(
    executor: E,
    merchant_id: &str,
    user_id: &str,
) -> AppResult<Option<MerchantView>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = grant_query(merchant_id, user_id)
        .query()
        .fetch_all(executor)
        .await?;
    rows.first().map(merchant_view).transpose()
}

/// The statement `find_grant` runs, for a write that reads it in the round
/// trip opening its turn (`stream::Check`).
pub fn grant_query(merchant_id: &str, user_id: &str) -> Sql {
    Sql::statement(
        "SELECT m.id, m.name, ms.role, cr.name AS role_name, cr.permissions \
         FROM memberships ms JOIN merchants m ON m.id = ms.merchant_id \
         LEFT JOIN custom_roles cr ON cr.id = ms.custom_role_id AND cr.merchant_id = ms.merchant_id \
         WHERE ms.merchant_id = $1 AND ms.user_id = $2",
        vec![Bind::Text(merchant_id.into()), Bind::Text(user_id.into())],
    )
}

/// The grant in the rows of `grant_query`: none if the user is no member.
pub fn grant_of(rows: &[sqlx::any::AnyRow]) -> AppResult<Option<permissions::Grant>> {
    rows.first().map(merchant_view).transpose().map(|view| {
        view.map(|v| permissions::Grant {
            role: v.role,
            permissions: v.permissions,
        })
    })
}

fn merchant_view(r: &sqlx::any::AnyRow) -> AppResult<MerchantView> {
    let role: String = r.get("role");
    let role =
        Role::parse(&role).ok_or_else(|| AppError::Internal(format!("unknown role {role:?}")))?;
    let stored: Option<String> = r.get("permissions");
    let permissions = match role {
        // A custom role that went missing grants nothing rather than failing
        // the member's sign-in.
        Role::Custom => stored
            .as_deref()
            .and_then(permissions::parse_stored)
            .unwrap_or_default(),
        preset => permissions::preset(preset).unwrap_or_default(),
    };
    Ok(MerchantView {
        id: r.get("id"),
        name: r.get("name"),
        role,
        role_name: r.get("role_name"),
        permissions,
    })
}

/// Who an account's mail goes to, and in which language.
pub struct Recipient {
    pub id: String,
    pub name: String,
    pub email: String,
    pub language: Language,
}

fn recipient_of(row: sqlx::any::AnyRow) -> Recipient {
    let language: String = row.get("language");
    Recipient {
        id: row.get("id"),
        name: row.get("name"),
        email: row.get("email"),
        language: Language::parse(&language).unwrap_or_default(),
    }
}

/// The account signing in with `email`, if there is one.
pub async fn find_recipient_by_email(tx: &mut Tx, email: &str) -> AppResult<Option<Recipient>> {
    let row = sqlx::query("SELECT id, name, email, language FROM users WHERE email = $1")
        .bind(email)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(recipient_of))
}

pub async fn find_recipient(tx: &mut Tx, user_id: &str) -> AppResult<Option<Recipient>> {
    let row = sqlx::query("SELECT id, name, email, language FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(recipient_of))
}
