//! The merchant's team: inviting people by e-mail, changing a member's
//! role, removing them and handing the ownership on. Each is one event of
//! the merchant's stream, written by the merchant actor with its actor.
//! The invite link's own steps (looking at it, accepting it, signing up
//! from it) are in `invites`.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use protocol::{
    Change, Command, ErrorCode, Invite, InviteStatus, Language, Member, ReplyBody, Role, Team,
};
use sqlx::Row;

use super::api_tokens;
use super::lifecycle::invite::{self as invites_table, InviteEvent};
use super::mail::{InviteMail, compose_invite};
use super::roles;
use super::rules;
use super::scope::{Effect, Scope, checked_id};
use super::team_mail::{Standing, mail_standing};
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, new_secret, now_ms};
use crate::store::team::{self as store, NewInvite};
use crate::store::{Db, Tx, business, mail, users};

/// An invite link lives seven days.
pub const INVITE_SECONDS: i64 = 7 * 24 * 3600;

/// The time invites are made and judged by: the real time, or ahead of it
/// in tests that play an invite's life out.
#[derive(Clone, Debug, Default)]
pub struct InviteClock {
    ahead_ms: Arc<AtomicI64>,
}

impl InviteClock {
    pub fn now(&self) -> i64 {
        now_ms() + self.ahead_ms.load(Ordering::Relaxed)
    }

    /// Moves this clock `ms` further ahead of the real time.
    pub fn advance(&self, ms: i64) {
        self.ahead_ms.fetch_add(ms, Ordering::Relaxed);
    }
}

/// What the team commands need beyond the scope.
#[derive(Clone, Debug, Default)]
pub struct TeamTools {
    /// Now, by the invite clock.
    pub now: i64,
    /// Where the invite links in mail point (the server's public origin).
    pub origin: String,
    /// For `TransferOwnership`: whether the owner's password or code was
    /// right, checked before the command was queued (a slow hash must not
    /// hold the stream's write lock).
    pub confirmed: Option<Result<(), protocol::WireError>>,
}

pub fn is_team_command(command: &Command) -> bool {
    matches!(
        command,
        Command::InviteMember { .. }
            | Command::ResendInvite { .. }
            | Command::RevokeInvite { .. }
            | Command::ChangeMemberRole { .. }
            | Command::RemoveMember { .. }
            | Command::TransferOwnership { .. }
            | Command::CreateRole { .. }
            | Command::UpdateRole { .. }
            | Command::DeleteRole { .. }
    )
}

pub async fn run_team_command(
    tx: &mut Tx,
    scope: &Scope,
    command: &Command,
    tools: &TeamTools,
) -> AppResult<Effect> {
    match command {
        Command::InviteMember {
            email,
            role,
            role_id,
        } => invite(tx, scope, tools, email, (*role, role_id.as_deref())).await,
        Command::ResendInvite { invite_id } => resend(tx, scope, tools, invite_id).await,
        Command::RevokeInvite { invite_id } => revoke(tx, scope, invite_id, tools.now).await,
        Command::ChangeMemberRole {
            user_id,
            role,
            role_id,
        } => change_role(tx, scope, user_id, (*role, role_id.as_deref())).await,
        Command::CreateRole { name, grants } => {
            roles::create(tx, scope, name, grants, tools.now).await
        }
        Command::UpdateRole {
            role_id,
            name,
            grants,
        } => roles::update(tx, scope, role_id, name, grants, tools.now).await,
        Command::DeleteRole { role_id } => roles::delete(tx, scope, role_id).await,
        Command::RemoveMember { user_id } => remove(tx, scope, user_id, tools.now).await,
        Command::TransferOwnership { user_id, .. } => {
            match &tools.confirmed {
                Some(Ok(())) => {}
                Some(Err(refused)) => return Err(AppError::Refused(refused.clone())),
                None => return Err(AppError::field("confirmation", ErrorCode::WrongPassword)),
            }
            transfer(tx, scope, user_id).await
        }
        _ => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}

async fn merchant_name(tx: &mut Tx, merchant_id: &str) -> AppResult<String> {
    let row = sqlx::query("SELECT name FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(row.get("name"))
}

/// Queues the invite mail with a fresh link, in the invited person's
/// language when they have an account, else the inviter's.
async fn mail_invite(
    tx: &mut Tx,
    scope: &Scope,
    origin: &str,
    invite: &Invite,
    token: &str,
) -> AppResult<()> {
    let inviter = users::find_recipient(tx, &scope.user_id).await?;
    let invitee = users::find_recipient_by_email(tx, &invite.email).await?;
    let language = invitee
        .map(|r| r.language)
        .or(inviter.as_ref().map(|r| r.language))
        .unwrap_or(Language::En);
    let inviter_name = inviter.map(|r| r.name).unwrap_or_default();
    let merchant = merchant_name(tx, &scope.merchant_id).await?;
    let link = format!(
        "{}/account/teams/invite/{token}",
        origin.trim_end_matches('/')
    );
    let words = InviteMail {
        inviter: &inviter_name,
        merchant: &merchant,
        role: invite.role,
        expires_at: invite.expires_at,
    };
    mail::enqueue(tx, &compose_invite(language, &invite.email, &words, &link)).await
}

async fn invite_change(tx: &mut Tx, scope: &Scope, invite_id: &str) -> AppResult<Change> {
    let invite = store::find_invite(tx, &scope.merchant_id, invite_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(Change::InviteUpserted {
        invite: Box::new(invite),
    })
}

async fn invite(
    tx: &mut Tx,
    scope: &Scope,
    tools: &TeamTools,
    email: &str,
    (role, role_id): (Role, Option<&str>),
) -> AppResult<Effect> {
    let now = tools.now;
    let email = email.trim().to_lowercase();
    rules::email(&email).map_err(|code| AppError::field("email", code))?;
    let role_id = roles::grantable(tx, scope, role, role_id).await?;
    if store::is_member_by_email(tx, &scope.merchant_id, &email).await? {
        return Err(AppError::field("email", ErrorCode::AlreadyMember));
    }
    let mut changes = Vec::new();
    // A new invite to the same address replaces any earlier one: only the
    // newest link works.
    for earlier in store::pending_invite_ids(tx, &scope.merchant_id, &email).await? {
        store::revoke_invite(tx, &scope.merchant_id, &earlier, now).await?;
        changes.push(invite_change(tx, scope, &earlier).await?);
    }
    let (id, token) = (new_id("inv"), new_secret());
    let new = NewInvite {
        id: &id,
        merchant_id: &scope.merchant_id,
        email: &email,
        role,
        role_id: role_id.as_deref(),
        token: &token,
        invited_by: &scope.user_id,
        now,
        expires_at: now + INVITE_SECONDS * 1000,
    };
    store::insert_invite(tx, &new).await?;
    let change = invite_change(tx, scope, &id).await?;
    if let Change::InviteUpserted { invite } = &change {
        mail_invite(tx, scope, &tools.origin, invite, &token).await?;
    }
    changes.push(change);
    Ok(Effect {
        changes,
        id: Some(id),
    })
}

async fn resend(
    tx: &mut Tx,
    scope: &Scope,
    tools: &TeamTools,
    invite_id: &str,
) -> AppResult<Effect> {
    let now = tools.now;
    let invite_id = checked_id(invite_id)?;
    invite_move(tx, scope, invite_id, InviteEvent::Resend).await?;
    let token = new_secret();
    let expires_at = now + INVITE_SECONDS * 1000;
    if !store::renew_invite(tx, &scope.merchant_id, invite_id, &token, expires_at).await? {
        return Err(AppError::Code(invites_table::REFUSED));
    }
    let change = invite_change(tx, scope, invite_id).await?;
    if let Change::InviteUpserted { invite } = &change {
        mail_invite(tx, scope, &tools.origin, invite, &token).await?;
    }
    Ok(Effect {
        changes: vec![change],
        id: Some(invite_id.to_string()),
    })
}

async fn revoke(tx: &mut Tx, scope: &Scope, invite_id: &str, now: i64) -> AppResult<Effect> {
    let invite_id = checked_id(invite_id)?;
    invite_move(tx, scope, invite_id, InviteEvent::Revoke).await?;
    // Written over a pending invite only: of a join and a revoke at once,
    // the first to commit stands.
    if !store::revoke_invite(tx, &scope.merchant_id, invite_id, now).await? {
        return Err(AppError::Code(invites_table::REFUSED));
    }
    Ok(Effect {
        changes: vec![invite_change(tx, scope, invite_id).await?],
        id: Some(invite_id.to_string()),
    })
}

/// Whether the invite's table allows `event` from where the invite is now:
/// `not_found` for no such invite, `invite_invalid` once it was accepted or
/// revoked.
async fn invite_move(
    tx: &mut Tx,
    scope: &Scope,
    invite_id: &str,
    event: InviteEvent,
) -> AppResult<()> {
    let invite = store::find_invite(tx, &scope.merchant_id, invite_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    invites_table::transition(invite.status, event)
        .map(|_| ())
        .map_err(|_| AppError::Code(invites_table::REFUSED))
}

/// The member acted on, who must be someone this member may manage: not
/// the owner, and not above the acting member's own role.
async fn managed_member(tx: &mut Tx, scope: &Scope, user_id: &str) -> AppResult<Member> {
    let user_id = checked_id(user_id)?;
    let member = store::find_member(tx, &scope.merchant_id, user_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    if member.role == Role::Owner {
        return Err(AppError::Code(ErrorCode::OwnerRoleFixed));
    }
    if !member.permissions.within(&scope.permissions) {
        return Err(AppError::Code(ErrorCode::RoleAboveYours));
    }
    Ok(member)
}

async fn find_member(tx: &mut Tx, scope: &Scope, user_id: &str) -> AppResult<Member> {
    store::find_member(tx, &scope.merchant_id, user_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))
}

/// The member as they are now, with who they were before the change.
fn member_change(member: &Member, before: &Member) -> Change {
    Change::MemberUpserted {
        member: Box::new(member.clone()),
        before: Some(Box::new(before.clone())),
    }
}

/// A member's role changes, and they hear of it by mail.
async fn change_role(
    tx: &mut Tx,
    scope: &Scope,
    user_id: &str,
    (role, role_id): (Role, Option<&str>),
) -> AppResult<Effect> {
    let before = managed_member(tx, scope, user_id).await?;
    let role_id = roles::grantable(tx, scope, role, role_id).await?;
    store::set_any_role(
        tx,
        &scope.merchant_id,
        &before.user_id,
        role,
        role_id.as_deref(),
    )
    .await?;
    let after = find_member(tx, scope, &before.user_id).await?;
    if (after.role, &after.role_id) != (before.role, &before.role_id) {
        let merchant = merchant_name(tx, &scope.merchant_id).await?;
        let standing = Standing::RoleChanged {
            before: &before,
            after: &after,
        };
        mail_standing(tx, scope, &merchant, standing, now_ms()).await?;
    }
    Ok(Effect {
        changes: vec![member_change(&after, &before)],
        id: Some(after.user_id),
    })
}

/// The member leaves the team, and every API token they made (in either
/// mode, and the tokens those made) is revoked with them, at `now`: a
/// token never outlives the standing of whoever made it. The other mode's
/// tokens are announced on their stream once this commits
/// (`api_tokens::announce_revoked`).
async fn remove(tx: &mut Tx, scope: &Scope, user_id: &str, now: i64) -> AppResult<Effect> {
    let member = managed_member(tx, scope, user_id).await?;
    store::remove_member(tx, &scope.merchant_id, &member.user_id).await?;
    let mut changes = vec![Change::MemberRemoved {
        user_id: member.user_id.clone(),
    }];
    changes.extend(api_tokens::revoke_made_by(tx, scope, &member.user_id, now).await?);
    let merchant = merchant_name(tx, &scope.merchant_id).await?;
    let standing = Standing::Removed { before: &member };
    mail_standing(tx, scope, &merchant, standing, now_ms()).await?;
    Ok(Effect {
        changes,
        id: Some(member.user_id),
    })
}

/// The owner makes another member the owner and stays on as an admin: the
/// merchant has exactly one owner before and after. Both are recorded with
/// their roles before and after (the history's `ownership_transferred`),
/// and both hear of it by mail.
async fn transfer(tx: &mut Tx, scope: &Scope, user_id: &str) -> AppResult<Effect> {
    let user_id = checked_id(user_id)?;
    if user_id == scope.user_id {
        return Err(AppError::Code(ErrorCode::OwnerRoleFixed));
    }
    let new_before = find_member(tx, scope, user_id).await?;
    let old_before = find_member(tx, scope, &scope.user_id).await?;
    store::set_role(tx, &scope.merchant_id, &scope.user_id, Role::Admin).await?;
    store::set_role(tx, &scope.merchant_id, user_id, Role::Owner).await?;
    if store::count_owners(tx, &scope.merchant_id).await? != 1 {
        return Err(AppError::Internal(
            "ownership transfer left other than one owner".into(),
        ));
    }
    let new_after = find_member(tx, scope, user_id).await?;
    let old_after = find_member(tx, scope, &scope.user_id).await?;
    let merchant = merchant_name(tx, &scope.merchant_id).await?;
    let standing = Standing::Transferred {
        to: (&new_before, &new_after),
        by: (&old_before, &old_after),
    };
    mail_standing(tx, scope, &merchant, standing, now_ms()).await?;
    Ok(Effect {
        changes: vec![
            member_change(&new_after, &new_before),
            member_change(&old_after, &old_before),
        ],
        id: Some(user_id.to_string()),
    })
}

/// The team page: members and the invites still open.
pub async fn get_team(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let members = store::list_members(db, &scope.merchant_id).await?;
    let invites = store::list_pending_invites(db, &scope.merchant_id).await?;
    let two_factor_required = business::find_business_info(db, &scope.merchant_id)
        .await?
        .is_some_and(|(_, required)| required);
    Ok(ReplyBody::Team {
        team: Box::new(Team {
            members,
            invites,
            two_factor_required,
        }),
    })
}

/// Whether an invite's link still works at `now`.
pub fn is_open(invite: &Invite, now: i64) -> bool {
    invite.status == InviteStatus::Pending && invite.expires_at > now
}
