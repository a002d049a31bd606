//! A merchant's team: its members (memberships with their users) and the
//! invitations to join it. Every query names the merchant.

use protocol::{Invite, InviteStatus, Member, Role};
use sqlx::Row;

use super::{Db, Tx};
use crate::domain::permissions;
use crate::error::{AppError, AppResult};
use crate::ids::hash_secret;

const MEMBER_COLUMNS: &str = "u.id AS user_id, u.name, u.email, u.totp_secret, ms.role, ms.created_at, \
     cr.id AS role_id, cr.name AS role_name, cr.permissions, \
     (SELECT MAX(s.last_seen_at) FROM sessions s WHERE s.user_id = u.id) AS last_active_at \
     FROM memberships ms JOIN users u ON u.id = ms.user_id \
     LEFT JOIN custom_roles cr ON cr.id = ms.custom_role_id AND cr.merchant_id = ms.merchant_id";

fn member_of(r: sqlx::any::AnyRow) -> AppResult<Member> {
    let role: String = r.get("role");
    let role =
        Role::parse(&role).ok_or_else(|| AppError::Internal(format!("unknown role {role:?}")))?;
    let stored: Option<String> = r.get("permissions");
    let permissions = match role {
        Role::Custom => stored
            .as_deref()
            .and_then(permissions::parse_stored)
            .unwrap_or_default(),
        preset => permissions::preset(preset).unwrap_or_default(),
    };
    let secret: Option<String> = r.get("totp_secret");
    Ok(Member {
        user_id: r.get("user_id"),
        name: r.get("name"),
        email: r.get("email"),
        role,
        role_name: r.get("role_name"),
        role_id: r.get("role_id"),
        permissions,
        two_factor: secret.is_some(),
        joined_at: r.get("created_at"),
        last_active_at: r.get("last_active_at"),
    })
}

/// The merchant's members, the owner first, then by when they joined.
pub async fn list_members(db: &Db, merchant_id: &str) -> AppResult<Vec<Member>> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {MEMBER_COLUMNS} WHERE ms.merchant_id = $1 \
         ORDER BY CASE WHEN ms.role = 'owner' THEN 0 ELSE 1 END, ms.created_at, u.id"
    )))
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter().map(member_of).collect()
}

pub async fn find_member(
    tx: &mut Tx,
    merchant_id: &str,
    user_id: &str,
) -> AppResult<Option<Member>> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {MEMBER_COLUMNS} WHERE ms.merchant_id = $1 AND ms.user_id = $2"
    )))
    .bind(merchant_id)
    .bind(user_id)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(member_of).transpose()
}

pub async fn is_member_by_email(tx: &mut Tx, merchant_id: &str, email: &str) -> AppResult<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM memberships ms JOIN users u ON u.id = ms.user_id \
         WHERE ms.merchant_id = $1 AND u.email = $2",
    )
    .bind(merchant_id)
    .bind(email)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.is_some())
}

/// Adds a member with a preset role, or with `Role::Custom` and the
/// custom role's id.
pub async fn add_member(
    tx: &mut Tx,
    merchant_id: &str,
    user_id: &str,
    (role, custom_role_id): (Role, Option<&str>),
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, custom_role_id, created_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(merchant_id)
    .bind(user_id)
    .bind(role.as_str())
    .bind(custom_role_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets a member's preset role (a custom role they had is let go).
pub async fn set_role(tx: &mut Tx, merchant_id: &str, user_id: &str, role: Role) -> AppResult<()> {
    set_any_role(tx, merchant_id, user_id, role, None).await
}

/// Sets a member's role: a preset, or `Role::Custom` with the role's id.
pub async fn set_any_role(
    tx: &mut Tx,
    merchant_id: &str,
    user_id: &str,
    role: Role,
    custom_role_id: Option<&str>,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE memberships SET role = $3, custom_role_id = $4 WHERE merchant_id = $1 AND user_id = $2",
    )
    .bind(merchant_id)
    .bind(user_id)
    .bind(role.as_str())
    .bind(custom_role_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn remove_member(tx: &mut Tx, merchant_id: &str, user_id: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM memberships WHERE merchant_id = $1 AND user_id = $2")
        .bind(merchant_id)
        .bind(user_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

pub async fn count_owners(tx: &mut Tx, merchant_id: &str) -> AppResult<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS owners FROM memberships WHERE merchant_id = $1 AND role = 'owner'",
    )
    .bind(merchant_id)
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.get("owners"))
}

const INVITE_COLUMNS: &str = "i.id, i.merchant_id, i.email, i.role, i.invited_by, u.name AS invited_by_name, \
     i.created_at, i.expires_at, i.accepted_at, i.revoked_at, cr.id AS role_id, cr.name AS role_name \
     FROM invites i JOIN users u ON u.id = i.invited_by \
     LEFT JOIN custom_roles cr ON cr.id = i.custom_role_id AND cr.merchant_id = i.merchant_id";

/// An invite as stored, with the merchant it is for.
pub struct InviteRow {
    pub merchant_id: String,
    pub invite: Invite,
}

fn invite_of(r: sqlx::any::AnyRow) -> AppResult<InviteRow> {
    let role: String = r.get("role");
    let role =
        Role::parse(&role).ok_or_else(|| AppError::Internal(format!("unknown role {role:?}")))?;
    let accepted: Option<i64> = r.get("accepted_at");
    let revoked: Option<i64> = r.get("revoked_at");
    let status = match (accepted, revoked) {
        (Some(_), _) => InviteStatus::Accepted,
        (None, Some(_)) => InviteStatus::Revoked,
        (None, None) => InviteStatus::Pending,
    };
    Ok(InviteRow {
        merchant_id: r.get("merchant_id"),
        invite: Invite {
            id: r.get("id"),
            email: r.get("email"),
            role,
            role_id: r.get("role_id"),
            role_name: r.get("role_name"),
            status,
            invited_by: r.get("invited_by"),
            invited_by_name: r.get("invited_by_name"),
            created_at: r.get("created_at"),
            expires_at: r.get("expires_at"),
        },
    })
}

/// The merchant's invites not yet accepted or revoked (expired ones too:
/// they can be sent again), newest first.
pub async fn list_pending_invites(db: &Db, merchant_id: &str) -> AppResult<Vec<Invite>> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {INVITE_COLUMNS} WHERE i.merchant_id = $1 AND i.accepted_at IS NULL \
         AND i.revoked_at IS NULL ORDER BY i.created_at DESC, i.id DESC"
    )))
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await?;
    rows.into_iter()
        .map(|r| invite_of(r).map(|i| i.invite))
        .collect()
}

pub async fn find_invite(
    tx: &mut Tx,
    merchant_id: &str,
    invite_id: &str,
) -> AppResult<Option<Invite>> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {INVITE_COLUMNS} WHERE i.merchant_id = $1 AND i.id = $2"
    )))
    .bind(merchant_id)
    .bind(invite_id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(invite_of).transpose()?.map(|i| i.invite))
}

/// The invite a link's token names, whatever its state (the caller decides
/// whether it still works).
pub async fn find_invite_by_token<'e, E>(executor: E, token: &str) -> AppResult<Option<InviteRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {INVITE_COLUMNS} WHERE i.token_hash = $1"
    )))
    .bind(hash_secret(token))
    .fetch_optional(executor)
    .await?;
    row.map(invite_of).transpose()
}

pub struct NewInvite<'a> {
    pub id: &'a str,
    pub merchant_id: &'a str,
    pub email: &'a str,
    pub role: Role,
    /// The custom role's id, when `role` is `Custom`.
    pub role_id: Option<&'a str>,
    pub token: &'a str,
    pub invited_by: &'a str,
    pub now: i64,
    pub expires_at: i64,
}

pub async fn insert_invite(tx: &mut Tx, invite: &NewInvite<'_>) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO invites (id, merchant_id, email, role, token_hash, invited_by, created_at, \
         expires_at, custom_role_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(invite.id)
    .bind(invite.merchant_id)
    .bind(invite.email)
    .bind(invite.role.as_str())
    .bind(hash_secret(invite.token))
    .bind(invite.invited_by)
    .bind(invite.now)
    .bind(invite.expires_at)
    .bind(invite.role_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Gives a pending invite a new token and a new lifetime: the old link dies.
pub async fn renew_invite(
    tx: &mut Tx,
    merchant_id: &str,
    invite_id: &str,
    token: &str,
    expires_at: i64,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE invites SET token_hash = $3, expires_at = $4 \
         WHERE merchant_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(merchant_id)
    .bind(invite_id)
    .bind(hash_secret(token))
    .bind(expires_at)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn revoke_invite(
    tx: &mut Tx,
    merchant_id: &str,
    invite_id: &str,
    now: i64,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE invites SET revoked_at = $3 \
         WHERE merchant_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(merchant_id)
    .bind(invite_id)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The pending invites of `email` to the merchant (a new one replaces them).
pub async fn pending_invite_ids(
    tx: &mut Tx,
    merchant_id: &str,
    email: &str,
) -> AppResult<Vec<String>> {
    let rows = sqlx::query(
        "SELECT id FROM invites WHERE merchant_id = $1 AND email = $2 \
         AND accepted_at IS NULL AND revoked_at IS NULL",
    )
    .bind(merchant_id)
    .bind(email)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows.into_iter().map(|r| r.get("id")).collect())
}

/// Uses up the invite a token names, if it is pending and unexpired at
/// `now`. Works once, also when two requests race.
pub async fn take_invite(tx: &mut Tx, token: &str, user_id: &str, now: i64) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE invites SET accepted_at = $2, accepted_by = $3 WHERE token_hash = $1 \
         AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2",
    )
    .bind(hash_secret(token))
    .bind(now)
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A signed-in user who accepts an invite mailed to their address has shown
/// they read mail there: it counts as verified, as for one who signs up
/// from the invite.
pub async fn verify_invited_address(
    tx: &mut Tx,
    user_id: &str,
    email: &str,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE users SET email_verified_at = $3 \
         WHERE id = $1 AND email = $2 AND email_verified_at IS NULL",
    )
    .bind(user_id)
    .bind(email)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Creates the account of someone who signed up from an invite: their
/// address is the invited one, so it counts as verified.
pub async fn create_invited_user(
    tx: &mut Tx,
    user_id: &str,
    name: &str,
    email: &str,
    password_hash: &str,
    language: protocol::Language,
    now: i64,
) -> AppResult<bool> {
    let taken = sqlx::query("SELECT 1 FROM users WHERE email = $1")
        .bind(email)
        .fetch_optional(&mut **tx)
        .await?;
    if taken.is_some() {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO users (id, email, name, password_hash, created_at, email_verified_at, language) \
         VALUES ($1, $2, $3, $4, $5, $5, $6)",
    )
    .bind(user_id)
    .bind(email)
    .bind(name)
    .bind(password_hash)
    .bind(now)
    .bind(language.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(true)
}
