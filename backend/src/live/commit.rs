//! One socket command committed on its merchant's stream, for the merchant
//! actor: the stored reply of a retry, or the command run in the stream's
//! transaction with its event and its reply stored for retries.

use protocol::{Change, ErrorCode, ReplyBody, encode};

use super::deltas::read_deltas;
use super::messages::Execute;
use paydesk::domain::api_tokens::commands::{is_api_token_command, run_api_token_command};
use paydesk::domain::clock::BusinessClock;
use paydesk::domain::payouts::{is_payout_command, run_payout_command};
use paydesk::domain::permissions::{self, Grant};
use paydesk::domain::teams::{is_team_command, run_team_command};
use paydesk::domain::webhooks::commands::{WebhookTools, is_webhook_command, run_webhook_command};
use paydesk::domain::{self, Scope, routes};
use paydesk::error::{AppError, AppResult};
use paydesk::ids::now_ms;
use paydesk::store::api_tokens as api_token_store;
use paydesk::store::events;
use paydesk::store::stream::{self, Actor as EventActor, Cause, StreamKey, Work};
use paydesk::store::{Db, Tx, users};
use sqlx::any::AnyRow;

/// What the sender may do as it is now, read as the command's write opens
/// (`stream::Check`): a member demoted or removed, or a token revoked or
/// expired, by anything written before the command is refused. The table
/// then decides with that grant whether it may run the command.
fn grant_now(
    key: &StreamKey,
    msg: &Execute,
) -> stream::Check<impl FnOnce(&[AnyRow]) -> AppResult<Grant> + use<>> {
    let route = routes::command_route(&msg.command);
    let needs = route.needs;
    let by_token = msg.token_id.is_some();
    // Refused here too, whichever way the command came: the one check
    // every command of the merchant's queue passes.
    let token_refused = by_token && !route.tokens;
    let query = match &msg.token_id {
        Some(token_id) => api_token_store::live_permissions_query(key, token_id, now_ms()),
        None => users::grant_query(&key.merchant_id, &msg.user_id),
    };
    let decide = move |rows: &[AnyRow]| {
        if token_refused {
            return Err(AppError::Code(ErrorCode::Forbidden));
        }
        let grant = if by_token {
            let stored = api_token_store::live_permissions_of(rows)?
                .ok_or(AppError::Code(ErrorCode::Unauthenticated))?;
            Grant {
                role: protocol::Role::Custom,
                permissions: permissions::parse_stored(&stored).unwrap_or_default(),
            }
        } else {
            users::grant_of(rows)?.ok_or(AppError::Code(ErrorCode::Forbidden))?
        };
        grant.check(needs).map_err(AppError::Code)?;
        Ok(grant)
    };
    stream::Check {
        query: Some(query),
        decide,
    }
}

/// Runs one command in one transaction: the seq bump, the change, the event
/// and the stored reply commit together or not at all. Returns the reply and
/// the deltas to broadcast: any another node committed since `known_seq`
/// (scale-out), then this command's own.
pub(super) async fn commit_command(
    db: Db,
    key: StreamKey,
    clock: BusinessClock,
    known_seq: u64,
    msg: Execute,
) -> AppResult<(ReplyBody, Vec<(u64, Vec<Change>)>)> {
    let fingerprint = events::command_fingerprint(&msg.command)?;
    let actor = match &msg.token_id {
        Some(token_id) => EventActor::ApiToken {
            token_id: token_id.clone(),
        },
        None => EventActor::User {
            user_id: msg.user_id.clone(),
            session_id: msg.session_id.clone(),
        },
    };
    let cause = Cause {
        actor,
        command_id: Some(msg.command_id.clone()),
        address: msg.address.clone(),
    };
    // A retry is not looked up first: the command id is the stored reply's
    // key, so a retry cannot commit twice, and it is answered from the
    // stored reply when it fails (below). Every first run is spared a read.
    let written = async {
        // The table decides with the member's role as it is now: one
        // demoted or removed since their socket joined is refused from
        // their next command on.
        stream::write_checked(
            &db,
            &key,
            &cause,
            grant_now(&key, &msg),
            async |tx: &mut Tx, seq, grant: Grant| {
                let scope = Scope {
                    merchant_id: key.merchant_id.clone(),
                    mode: key.mode,
                    user_id: msg.user_id.clone(),
                    role: grant.role,
                    permissions: grant.permissions,
                    clock,
                    origin: msg.origin.clone(),
                };
                let (changes, reply, stored) = if is_team_command(&msg.command) {
                    let effect = run_team_command(tx, &scope, &msg.command, &msg.team).await?;
                    let reply = ReplyBody::Committed { seq, id: effect.id };
                    (effect.changes, reply.clone(), reply)
                } else if is_payout_command(&msg.command) {
                    let confirmed = msg.team.confirmed.as_ref();
                    let effect = run_payout_command(tx, &scope, &msg.command, confirmed).await?;
                    let reply = ReplyBody::Committed { seq, id: effect.id };
                    (effect.changes, reply.clone(), reply)
                } else if is_webhook_command(&msg.command) {
                    let tools = WebhookTools {
                        sealer: &msg.sealer,
                        address: msg.address_check.as_ref(),
                    };
                    let done = run_webhook_command(tx, &scope, seq, &msg.command, &tools).await?;
                    let reply = |secret| ReplyBody::WebhookSecret {
                        seq,
                        endpoint_id: done.endpoint_id.clone(),
                        secret,
                    };
                    // A signing secret is shown once and kept only sealed: the copy
                    // stored for retries has none, so a retried command answers
                    // without it (the merchant rolls the secret if that answer was lost).
                    let (sent, stored) = (reply(done.secret.clone()), reply(None));
                    (done.changes, sent, stored)
                } else if is_api_token_command(&msg.command) {
                    let by_token = msg.token_id.as_deref();
                    let hasher = &msg.token_hasher;
                    let done =
                        run_api_token_command(tx, &scope, &msg.command, hasher, by_token).await?;
                    let reply = |secret| ReplyBody::ApiTokenSecret {
                        seq,
                        token: Box::new(done.token.clone()),
                        secret,
                    };
                    // Shown once, like a signing secret: only its hash is kept, and
                    // the stored reply for retries has no secret.
                    let (sent, stored) = (reply(done.secret.clone()), reply(None));
                    (done.changes, sent, stored)
                } else {
                    let effect = domain::run_command(tx, &scope, &msg.command).await?;
                    let reply = ReplyBody::Committed { seq, id: effect.id };
                    (effect.changes, reply.clone(), reply)
                };
                let run = events::CommandRun {
                    command_id: &msg.command_id,
                    user_id: &msg.user_id,
                    fingerprint: &fingerprint,
                };
                let stored =
                    events::command_reply_row(&key.merchant_id, key.mode, &run, encode(&stored)?);
                // Even a command that changed nothing a tab shows is an event: its
                // reply names the `seq` the client waits for.
                Ok(Work::changed(changes, reply).writing(stored))
            },
        )
        .await
    }
    .await;
    let written = match written {
        Ok(written) => written,
        // A retry fails: on its stored reply's key, on its work (what the
        // first run did is there now), or on its grant (changed since the
        // first run). It gets the first run's reply, as it would have had.
        // That holds as well for a retry sent to another node while the
        // first run was still committing there (a rolling restart).
        Err(err) => match stored_reply(&db, &key, &msg, &fingerprint).await? {
            Some(reply) => return Ok((reply, Vec::new())),
            None => return Err(err),
        },
    };
    let Some(seq) = written.seq else {
        return Err(AppError::Internal(
            "a command's event was not written".into(),
        ));
    };
    let mut deltas = read_deltas(&db, &key, known_seq, seq.saturating_sub(known_seq + 1)).await?;
    deltas.push((seq, written.changes));
    Ok((written.value, deltas))
}

/// The reply of the command already run under `msg`'s id, if any. A retry
/// gets the first run's reply; another command under a used id is refused,
/// never answered with someone else's result.
async fn stored_reply(
    db: &Db,
    key: &StreamKey,
    msg: &Execute,
    fingerprint: &str,
) -> AppResult<Option<ReplyBody>> {
    let Some(ran) =
        events::find_command_result(db, &key.merchant_id, key.mode, &msg.command_id).await?
    else {
        return Ok(None);
    };
    if !ran.is_retry_of(&msg.user_id, fingerprint) {
        return Err(AppError::Code(ErrorCode::CommandIdReused));
    }
    Ok(Some(protocol::decode(&ran.reply)?))
}
