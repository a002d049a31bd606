//! What the session does around a team command beyond queueing it: the
//! owner's confirmation checked before ownership is handed on, and, once
//! the command committed, whose standing it changed, so their sockets of
//! every stream on this node take the new grant.

use paydesk::domain::accounts;
use paydesk::domain::permissions::Grant;
use paydesk::error::AppError;
use paydesk::store::roles as role_store;
use paydesk::store::users;
use protocol::{Command, ErrorCode};

use crate::state::State;

/// Whose standing a committed team command changed and to what (none:
/// removed), read from the database as it is now, so that their sockets of
/// every stream on this node hear of it, not only those of the command's
/// stream. A custom role's change moves every member who holds it.
pub(super) async fn membership_moves(
    state: &State,
    merchant_id: &str,
    acting: &str,
    command: &Command,
) -> Vec<(String, Option<Grant>)> {
    let users: Vec<String> = match command {
        Command::ChangeMemberRole { user_id, .. } | Command::RemoveMember { user_id } => {
            vec![user_id.clone()]
        }
        Command::TransferOwnership { user_id, .. } => vec![user_id.clone(), acting.to_string()],
        Command::UpdateRole { role_id, .. } => {
            match role_store::holders(&state.db.pool, merchant_id, role_id).await {
                Ok(holders) => holders,
                Err(err) => {
                    tracing::error!(error = %err, "cannot read a role's members");
                    Vec::new()
                }
            }
        }
        _ => Vec::new(),
    };
    let mut moves = Vec::with_capacity(users.len());
    for user_id in users {
        match users::find_grant(&state.db.pool, merchant_id, &user_id).await {
            Ok(grant) => moves.push((user_id, grant)),
            Err(err) => tracing::error!(error = %err, "cannot read a member's grant"),
        }
    }
    moves
}

/// Checks the owner's password or code for `TransferOwnership`, counting
/// wrong ones against the same limit as the account's other secrets.
pub(super) async fn confirm_owner(
    state: &State,
    user_id: &str,
    confirmation: &str,
) -> Result<(), AppError> {
    // A blank confirmation is no guess: it is told as missing, with the form's
    // other mistakes, and never counts towards the limit.
    if confirmation.is_empty() {
        return Err(AppError::field("confirmation", ErrorCode::Required));
    }
    let key = format!("secrets:{user_id}");
    if state.throttle.is_blocked(&key, accounts::SECRET_ATTEMPTS) {
        return Err(AppError::Code(ErrorCode::RateLimited));
    }
    let checked = accounts::confirm_identity(&state.db, &state.keys, user_id, confirmation).await;
    if matches!(checked, Err(AppError::Invalid(_))) {
        state.throttle.record_failure(&key);
    }
    checked
}
