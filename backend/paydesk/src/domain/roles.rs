//! Custom roles: a merchant's own matrices of sections × access, made,
//! changed and deleted by owners and admins (Team write). Nobody defines a
//! role, or hands one out, that reaches past their own access. Changing a
//! role's grants is one event carrying the role and each of its members
//! as they are now, so their open sockets take the new grant at once, by
//! the same path as a member's role change.

use protocol::{Change, CustomRole, ErrorCode, Permissions, PresetRole, ReplyBody, Role, RoleList};

use super::permissions;
use super::rules;
use super::scope::{Effect, Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::team as team_store;
use crate::store::{Db, Tx, roles as store};

/// The longest name a role may have.
const NAME_MAX: usize = 60;

/// Presets first (the owner's included, to compare against), then the
/// merchant's own roles by name.
pub async fn list(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let presets = Role::PRESETS
        .into_iter()
        .filter_map(|role| permissions::preset(role).map(|grants| PresetRole { role, grants }))
        .collect();
    let custom = store::list(db, &scope.merchant_id).await?;
    Ok(ReplyBody::Roles {
        roles: Box::new(RoleList { presets, custom }),
    })
}

/// A role `scope` may define or hand out: nothing beyond its own access.
fn within_ceiling(scope: &Scope, grants: &Permissions, field: &str) -> AppResult<()> {
    if grants.within(&scope.permissions) {
        Ok(())
    } else {
        Err(AppError::field(field, ErrorCode::RoleAboveYours))
    }
}

async fn checked_name(
    tx: &mut Tx,
    scope: &Scope,
    name: &str,
    except_id: &str,
) -> AppResult<String> {
    let name = name.trim().to_string();
    rules::required(&name, NAME_MAX).map_err(|code| AppError::field("name", code))?;
    if store::name_taken(tx, &scope.merchant_id, &name, except_id).await? {
        return Err(AppError::field("name", ErrorCode::RoleNameTaken));
    }
    Ok(name)
}

async fn role_change(tx: &mut Tx, scope: &Scope, role_id: &str) -> AppResult<(CustomRole, Change)> {
    let role = store::find(tx, &scope.merchant_id, role_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let change = Change::RoleUpserted {
        role: Box::new(role.clone()),
    };
    Ok((role, change))
}

pub async fn create(
    tx: &mut Tx,
    scope: &Scope,
    name: &str,
    grants: &Permissions,
    now: i64,
) -> AppResult<Effect> {
    let name = checked_name(tx, scope, name, "").await?;
    within_ceiling(scope, grants, "grants")?;
    let id = new_id("rol");
    store::insert(tx, &scope.merchant_id, &id, &name, grants, now).await?;
    let (_, change) = role_change(tx, scope, &id).await?;
    Ok(Effect {
        changes: vec![change],
        id: Some(id),
    })
}

/// A role this member may change or delete: one of the merchant's, and
/// not reaching past their own access.
async fn managed_role(tx: &mut Tx, scope: &Scope, role_id: &str) -> AppResult<CustomRole> {
    let role_id = checked_id(role_id)?;
    let role = store::find(tx, &scope.merchant_id, role_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    if !role.grants.within(&scope.permissions) {
        return Err(AppError::Code(ErrorCode::RoleAboveYours));
    }
    Ok(role)
}

pub async fn update(
    tx: &mut Tx,
    scope: &Scope,
    role_id: &str,
    name: &str,
    grants: &Permissions,
    now: i64,
) -> AppResult<Effect> {
    let role = managed_role(tx, scope, role_id).await?;
    let name = checked_name(tx, scope, name, &role.id).await?;
    within_ceiling(scope, grants, "grants")?;
    // Each holder as they were, for the history's "before".
    let mut holders = Vec::new();
    for user_id in store::holders(&mut **tx, &scope.merchant_id, &role.id).await? {
        if let Some(member) = team_store::find_member(tx, &scope.merchant_id, &user_id).await? {
            holders.push(member);
        }
    }
    store::update(tx, &scope.merchant_id, &role.id, &name, grants, now).await?;
    let (_, change) = role_change(tx, scope, &role.id).await?;
    let mut changes = vec![change];
    // Each holder as they are now: the merchant actor regrants their open
    // sockets from these before the delta goes out.
    for before in holders {
        if let Some(member) =
            team_store::find_member(tx, &scope.merchant_id, &before.user_id).await?
        {
            changes.push(Change::MemberUpserted {
                member: Box::new(member),
                before: Some(Box::new(before)),
            });
        }
    }
    Ok(Effect {
        changes,
        id: Some(role.id),
    })
}

pub async fn delete(tx: &mut Tx, scope: &Scope, role_id: &str) -> AppResult<Effect> {
    let role = managed_role(tx, scope, role_id).await?;
    if !store::holders(&mut **tx, &scope.merchant_id, &role.id)
        .await?
        .is_empty()
        || store::offered_by_invites(tx, &scope.merchant_id, &role.id).await?
    {
        return Err(AppError::Code(ErrorCode::RoleInUse));
    }
    store::forget_in_closed_invites(tx, &scope.merchant_id, &role.id).await?;
    store::delete(tx, &scope.merchant_id, &role.id).await?;
    Ok(Effect {
        changes: vec![Change::RoleRemoved {
            role_id: role.id.clone(),
        }],
        id: Some(role.id),
    })
}

/// The role a member is given (by a role change or an invite): a preset
/// other than the owner's (ownership is handed on, never granted), or one
/// of the merchant's custom roles; either within the giver's own access.
/// Returns the custom role's id, when it is one.
pub async fn grantable(
    tx: &mut Tx,
    scope: &Scope,
    role: Role,
    role_id: Option<&str>,
) -> AppResult<Option<String>> {
    let (grants, custom) = match role {
        Role::Owner => return Err(AppError::field("role", ErrorCode::InvalidChoice)),
        Role::Custom => {
            let Some(role_id) = role_id else {
                return Err(AppError::field("role", ErrorCode::InvalidChoice));
            };
            let role_id = checked_id(role_id)?;
            let custom = store::find(tx, &scope.merchant_id, role_id)
                .await?
                .ok_or(AppError::Code(ErrorCode::NotFound))?;
            (custom.grants, Some(custom.id))
        }
        preset => (
            permissions::preset(preset)
                .ok_or_else(|| AppError::field("role", ErrorCode::InvalidChoice))?,
            None,
        ),
    };
    within_ceiling(scope, &grants, "role")?;
    Ok(custom)
}
