//! The socket commands of the developers' webhook screens. Each runs in the
//! stream's write transaction like every command (one event, with who did
//! it); they are apart from `domain::run_command` because they need what a
//! plain command does not: the key that seals signing secrets, and an
//! address already checked (and its name resolved) before the transaction
//! began, so no DNS wait holds the stream's write lock.

use protocol::{Change, Command, EntityKind, ErrorCode, WireError};
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

/// What a webhook command did: the endpoint it touched, and the signing
/// secret it made (create and roll), to be shown once.
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

/// Open endpoint pages and lists read endpoints and their log afresh.
fn refetch() -> Vec<Change> {
    vec![Change::Invalidate {
        kind: EntityKind::WebhookEndpoint,
    }]
}

fn outcome(endpoint_id: &str, secret: Option<String>) -> WebhookOutcome {
    WebhookOutcome {
        endpoint_id: endpoint_id.to_string(),
        secret,
        changes: refetch(),
    }
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
            Ok(outcome(&row.id, Some(secret)))
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
            Ok(outcome(id, None))
        }
        Command::RollWebhookSecret { endpoint_id } => {
            let id = checked_id(endpoint_id)?;
            let secret = endpoints::roll_secret(tx, &key, id, tools.sealer, now).await?;
            Ok(outcome(id, Some(secret)))
        }
        Command::ResendWebhookDeliveries {
            endpoint_id,
            delivery_id,
        } => {
            let id = checked_id(endpoint_id)?;
            let delivery = delivery_id.as_deref().map(checked_id).transpose()?;
            endpoints::resend_failed(tx, &key, id, delivery, now).await?;
            Ok(outcome(id, None))
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
            Ok(outcome(id, None))
        }
        Command::DeleteWebhookEndpoint { endpoint_id } => {
            let id = checked_id(endpoint_id)?;
            if !store::delete_endpoint(tx, &key, id).await? {
                return Err(AppError::Code(ErrorCode::NotFound));
            }
            Ok(outcome(id, None))
        }
        _ => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}
