//! The socket commands of the developers' webhook screens. Each runs in the
//! stream's write transaction like every command (one event, with who did
//! it); they are apart from `domain::run_command` because they need what a
//! plain command does not: the key that seals signing secrets, and an
//! address already checked (and its name resolved) before the transaction
//! began, so no DNS wait holds the stream's write lock.

use protocol::{Change, Command, ErrorCode, WireError};
use serde_json::json;

use super::endpoints::{self, CheckedAddress, EndpointInput};
use super::events::{TEST_EVENT_TYPE, payload};
use crate::auth::sealed::SecretBox;
use crate::domain::{Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, now_ms};
use crate::store::Tx;
use crate::store::stream::StreamKey;
use crate::store::webhooks::{self as store, NewDelivery};

/// What a webhook command needs besides the scope.
pub struct WebhookTools<'a> {
    pub sealer: &'a SecretBox,
    /// `CreateWebhookEndpoint`'s address, checked before the transaction,
    /// or why it was refused.
    pub address: Option<&'a Result<CheckedAddress, WireError>>,
}

/// What a webhook command did: the endpoint it touched, the signing secret
/// it made (create and roll), to be shown once, and the endpoint's change.
pub struct WebhookOutcome {
    pub endpoint_id: String,
    pub secret: Option<String>,
    pub changes: Vec<Change>,
}

/// Whether the command is one of this module's.
pub fn is_webhook_command(command: &Command) -> bool {
    matches!(
        command,
        Command::CreateWebhookEndpoint { .. }
            | Command::UpdateWebhookEndpoint { .. }
            | Command::RollWebhookSecret { .. }
            | Command::ResendWebhookDeliveries { .. }
            | Command::SendTestWebhookEvent { .. }
            | Command::DeleteWebhookEndpoint { .. }
    )
}

/// The command's one change: the endpoint as it is after it. Open endpoint
/// pages and lists read the endpoint and its log afresh on it, and the
/// account history names the endpoint from it. Never a secret: the
/// endpoint's wire form has none.
async fn outcome(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    secret: Option<String>,
) -> AppResult<WebhookOutcome> {
    Ok(WebhookOutcome {
        endpoint_id: endpoint_id.to_string(),
        secret,
        changes: vec![endpoints::upserted(tx, key, endpoint_id).await?],
    })
}

/// Runs a webhook command; `seq` is the event it is part of.
pub async fn run_webhook_command(
    tx: &mut Tx,
    scope: &Scope,
    seq: u64,
    command: &Command,
    tools: &WebhookTools<'_>,
) -> AppResult<WebhookOutcome> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let now = now_ms();
    match command {
        Command::CreateWebhookEndpoint {
            description,
            event_types,
            url,
        } => {
            // The session checks the address before it queues the command.
            let address = match tools.address {
                Some(Ok(address)) => address.clone(),
                Some(Err(refused)) => return Err(AppError::Refused(refused.clone())),
                None => return Err(AppError::field("url", ErrorCode::InvalidUrl)),
            };
            let input = EndpointInput {
                url: url.clone(),
                description: description.clone(),
                event_types: event_types.clone(),
            };
            let (row, secret) =
                endpoints::create_endpoint(tx, &key, address, &input, tools.sealer, now).await?;
            outcome(tx, &key, &row.id, Some(secret)).await
        }
        Command::UpdateWebhookEndpoint {
            endpoint_id,
            description,
            event_types,
            enabled,
        } => {
            let id = checked_id(endpoint_id)?;
            endpoints::update_endpoint(tx, &key, id, description, event_types, now).await?;
            endpoints::set_enabled(tx, &key, id, *enabled, now).await?;
            outcome(tx, &key, id, None).await
        }
        Command::RollWebhookSecret { endpoint_id } => {
            let id = checked_id(endpoint_id)?;
            let secret = endpoints::roll_secret(tx, &key, id, tools.sealer, now).await?;
            outcome(tx, &key, id, Some(secret)).await
        }
        Command::ResendWebhookDeliveries {
            endpoint_id,
            delivery_id,
        } => {
            let id = checked_id(endpoint_id)?;
            let delivery = delivery_id.as_deref().map(checked_id).transpose()?;
            endpoints::resend_failed(tx, &key, id, delivery, now).await?;
            // The endpoint is as it was; the history still tells who had
            // its deliveries sent again, naming it.
            outcome(tx, &key, id, None).await
        }
        Command::SendTestWebhookEvent { endpoint_id } => {
            let id = checked_id(endpoint_id)?;
            let endpoint = store::find_endpoint(tx, &key, id)
                .await?
                .ok_or(AppError::Code(ErrorCode::NotFound))?;
            let event_id = new_id("evt");
            let body = payload(
                &event_id,
                TEST_EVENT_TYPE,
                scope.mode,
                now,
                json!({ "endpointId": endpoint.id }),
            );
            // Queued for this endpoint only, whatever it subscribes to; a
            // paused endpoint gets it once enabled again, like any delivery.
            let new = NewDelivery {
                endpoint_id: &endpoint.id,
                event_id: &event_id,
                event_type: TEST_EVENT_TYPE,
                event_seq: seq as i64,
                payload: &body,
            };
            store::insert_delivery(tx, &key, &new, now).await?;
            outcome(tx, &key, id, None).await
        }
        Command::DeleteWebhookEndpoint { endpoint_id } => {
            let id = checked_id(endpoint_id)?;
            let removed = endpoints::delete_endpoint(tx, &key, id).await?;
            Ok(WebhookOutcome {
                endpoint_id: id.to_string(),
                secret: None,
                changes: vec![removed],
            })
        }
        _ => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}
