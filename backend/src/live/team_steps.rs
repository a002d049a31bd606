//! What the session does around a team command beyond queueing it: the
//! owner's confirmation checked before ownership is handed on, and, once
//! the command committed, whose standing it changed, so their sockets of
//! every stream on this node take the new grant, and a removed member's
//! tokens of the other mode told to that mode's stream.

use paydesk::domain::accounts;
use paydesk::domain::api_tokens;
use paydesk::domain::permissions::Grant;
use paydesk::error::AppError;
use paydesk::store::roles as role_store;
use paydesk::store::stream::{Cause, StreamKey};
use paydesk::store::users;
use protocol::{Command, ErrorCode, Mode};

use super::messages::Standing;
use crate::state::State;

/// A command that committed on a stream: who sent it, when by the invite
/// clock (the time its removal revoked tokens at), and as what cause.
pub(super) struct Committed {
    pub key: StreamKey,
    pub acting: String,
    pub at: i64,
    pub cause: Cause,
}

/// The steps after a committed command: a removal's tokens of the other
/// mode announced there, then whose standing it changed.
pub(super) async fn after_team_command(
    state: &State,
    committed: &Committed,
    command: &Command,
) -> Vec<(String, Option<Standing>)> {
    if let Command::RemoveMember { user_id } = command {
        announce_other_modes_tokens(state, committed, user_id).await;
    }
    let merchant_id = &committed.key.merchant_id;
    membership_moves(state, merchant_id, &committed.acting, command).await
}

/// The removal revoked the member's tokens of both modes in its one
/// transaction; the other mode's stream hears of its own now, so its
/// tokens screens and history show them and their sockets close. Should
/// this fail, they stay revoked: every request and command checks.
async fn announce_other_modes_tokens(state: &State, committed: &Committed, user_id: &str) {
    let other = match committed.key.mode {
        Mode::Live => Mode::Test,
        Mode::Test => Mode::Live,
    };
    let key = StreamKey::new(committed.key.merchant_id.clone(), other);
    let db = &state.db;
    match api_tokens::announce_revoked(db, &key, user_id, committed.at, &committed.cause).await {
        Ok(Some(seq)) => state.merchants.advance(&key, seq),
        Ok(None) => {}
        Err(err) => tracing::error!(error = %err, "cannot announce a removed member's tokens"),
    }
}

/// Whose standing a committed team command changed and to what (none:
/// removed), read from the database as it is now, so that their sockets of
/// every stream on this node hear of it, not only those of the command's
/// stream. A custom role's change moves every member who holds it.
async fn membership_moves(
    state: &State,
    merchant_id: &str,
    acting: &str,
    command: &Command,
) -> Vec<(String, Option<Standing>)> {
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
        match users::find_standing(&state.db.pool, merchant_id, &user_id).await {
            Ok(view) => {
                let standing = view.map(|v| Standing {
                    grant: Grant {
                        role: v.role,
                        permissions: v.permissions,
                    },
                    role_name: v.role_name,
                });
                moves.push((user_id, standing));
            }
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
