//! An invite link's own steps: what the invite page shows, a signed-in
//! user accepting it, and a visitor signing up from it. Joining is one
//! event of the merchant's (live) stream, caused by the person joining.

use protocol::{Change, ErrorCode, InviteDetails, Language, Mode, Role};
use sqlx::Row;

use super::teams::is_open;
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::stream::{self, Actor, Cause, StreamKey, Work};
use crate::store::team::{self as store, InviteRow};
use crate::store::{Db, Tx};

/// The invite a working link names, or `invite_invalid` (unknown, used,
/// revoked, replaced or expired: the page says the same for each).
async fn open_invite<'e, E>(executor: E, token: &str, now: i64) -> AppResult<InviteRow>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    store::find_invite_by_token(executor, token)
        .await?
        .filter(|row| is_open(&row.invite, now))
        .ok_or(AppError::Code(ErrorCode::InviteInvalid))
}

pub async fn details(db: &Db, token: &str, now: i64) -> AppResult<InviteDetails> {
    let row = open_invite(&db.pool, token, now).await?;
    let merchant = sqlx::query("SELECT name FROM merchants WHERE id = $1")
        .bind(&row.merchant_id)
        .fetch_one(&db.pool)
        .await?;
    let account = sqlx::query("SELECT 1 FROM users WHERE email = $1")
        .bind(&row.invite.email)
        .fetch_optional(&db.pool)
        .await?;
    Ok(InviteDetails {
        merchant_name: merchant.get("name"),
        email: row.invite.email,
        role: row.invite.role,
        role_name: row.invite.role_name,
        invited_by_name: row.invite.invited_by_name,
        expires_at: row.invite.expires_at,
        has_account: account.is_some(),
    })
}

/// Who joined which merchant, and the event that says so.
pub struct Joined {
    pub user_id: String,
    pub merchant_id: String,
    pub seq: Option<u64>,
}

/// Who is joining: a signed-in user, or a new account made from the invite.
pub enum Joiner<'a> {
    /// `email` is the signed-in user's address, which must be the invited one.
    SignedIn {
        user_id: &'a str,
        email: &'a str,
        session_id: &'a str,
    },
    New {
        name: &'a str,
        password_hash: &'a str,
        language: Language,
    },
}

/// Takes the invite up (once, while it works) and makes the joiner a
/// member with the invited role, as one event of the merchant's stream.
pub async fn join(
    db: &Db,
    token: &str,
    joiner: Joiner<'_>,
    address: &str,
    now: i64,
) -> AppResult<Joined> {
    let row = open_invite(&db.pool, token, now).await?;
    let (user_id, session_id) = match &joiner {
        Joiner::SignedIn {
            user_id,
            email,
            session_id,
        } => {
            if !email.eq_ignore_ascii_case(&row.invite.email) {
                return Err(AppError::Code(ErrorCode::InviteWrongAddress));
            }
            (user_id.to_string(), session_id.to_string())
        }
        // No browser session exists yet: the account is made by this event.
        Joiner::New { .. } => (new_id("usr"), String::new()),
    };
    let key = StreamKey::new(row.merchant_id.clone(), Mode::Live);
    let cause = Cause {
        actor: Actor::User {
            user_id: user_id.clone(),
            session_id,
        },
        command_id: None,
        address: Some(address.to_string()),
    };
    let role = row.invite.role;
    let role_id = row.invite.role_id.clone();
    let written = stream::write(db, &key, &cause, async |tx: &mut Tx, _seq| {
        if let Joiner::New {
            name,
            password_hash,
            language,
        } = &joiner
        {
            let made = store::create_invited_user(
                tx,
                &user_id,
                name,
                &row.invite.email,
                password_hash,
                *language,
                now,
            )
            .await?;
            if !made {
                return Err(AppError::field("email", ErrorCode::EmailTaken));
            }
        }
        if let Joiner::SignedIn { email, .. } = &joiner {
            store::verify_invited_address(tx, &user_id, email, now).await?;
        }
        // Used up in this transaction: a link followed twice at once joins once.
        if !store::take_invite(tx, token, &user_id, now).await? {
            return Err(AppError::Code(ErrorCode::InviteInvalid));
        }
        if store::find_member(tx, &row.merchant_id, &user_id)
            .await?
            .is_some()
        {
            return Err(AppError::Code(ErrorCode::AlreadyMember));
        }
        let joined = joined_role(role, role_id.as_deref());
        store::add_member(tx, &row.merchant_id, &user_id, joined, now).await?;
        let member = store::find_member(tx, &row.merchant_id, &user_id)
            .await?
            .ok_or_else(|| AppError::Internal("the new member is missing".into()))?;
        let invite = store::find_invite(tx, &row.merchant_id, &row.invite.id)
            .await?
            .ok_or_else(|| AppError::Internal("the invite is missing".into()))?;
        Ok(Work::changed(
            vec![
                Change::InviteUpserted {
                    invite: Box::new(invite),
                },
                Change::MemberUpserted {
                    member: Box::new(member),
                    before: None,
                },
            ],
            (),
        ))
    })
    .await?;
    Ok(Joined {
        user_id,
        merchant_id: row.merchant_id,
        seq: written.seq,
    })
}

/// An invite names a preset below the owner or one of the merchant's
/// custom roles; anything else (a custom role deleted since) joins as a
/// viewer.
fn joined_role(role: Role, role_id: Option<&str>) -> (Role, Option<&str>) {
    match (role, role_id) {
        (Role::Custom, Some(id)) => (Role::Custom, Some(id)),
        (Role::Owner | Role::Custom, _) => (Role::Viewer, None),
        (preset, _) => (preset, None),
    }
}
