//! What the developers' screens read: a stream's endpoints and an
//! endpoint's delivery log. Only the merchant's own, in the scope's mode.

use protocol::{DeliveryState, ErrorCode, ReplyBody, WebhookDelivery, WebhookEndpoint};

use super::events::EVENT_TYPES;
use crate::domain::{Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::stream::StreamKey;
use crate::store::webhooks::{self as store, DeliveryRow, EndpointRow};

/// How much of an endpoint's log one read returns.
const LOG_LENGTH: i64 = 100;

fn key_of(scope: &Scope) -> StreamKey {
    StreamKey::new(scope.merchant_id.clone(), scope.mode)
}

/// An endpoint as its screens (and the account history) see it: never its
/// secrets, sealed or not.
pub(super) fn endpoint_of(row: EndpointRow) -> WebhookEndpoint {
    WebhookEndpoint {
        event_types: row.event_types.split(' ').map(str::to_string).collect(),
        enabled: row.enabled == 1,
        id: row.id,
        url: row.url,
        description: row.description,
        disabled_reason: row.disabled_reason,
        previous_secret_until: row.previous_secret_until,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

/// The log's view of a stored delivery.
pub fn delivery_of(row: DeliveryRow) -> WebhookDelivery {
    WebhookDelivery {
        state: match row.state.as_str() {
            "delivered" => DeliveryState::Delivered,
            "failed" => DeliveryState::Failed,
            _ => DeliveryState::Pending,
        },
        id: row.id,
        endpoint_id: row.endpoint_id,
        event_id: row.event_id,
        event_type: row.event_type,
        attempts: row.attempts,
        next_attempt_at: row.next_attempt_at,
        payload: row.payload,
        last_attempt_at: row.last_attempt_at,
        last_status: row.last_status,
        last_duration_ms: row.last_duration_ms,
        last_error: row.last_error,
        last_request_headers: row.last_request_headers,
        last_response: row.last_response,
        created_at: row.created_at,
    }
}

pub async fn list_endpoints(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let endpoints = store::list_endpoints(db, &key_of(scope)).await?;
    Ok(ReplyBody::WebhookEndpoints {
        endpoints: endpoints.into_iter().map(endpoint_of).collect(),
        event_types: EVENT_TYPES.iter().map(|t| t.to_string()).collect(),
    })
}

pub async fn list_deliveries(db: &Db, scope: &Scope, endpoint_id: &str) -> AppResult<ReplyBody> {
    let key = key_of(scope);
    let endpoint_id = checked_id(endpoint_id)?;
    let mut tx = db.begin_read().await?;
    // Another merchant's endpoint, or one of the other mode, is not found.
    if store::find_endpoint(&mut tx, &key, endpoint_id)
        .await?
        .is_none()
    {
        return Err(AppError::Code(ErrorCode::NotFound));
    }
    drop(tx);
    let deliveries = store::list_deliveries(db, &key, endpoint_id, LOG_LENGTH).await?;
    Ok(ReplyBody::WebhookDeliveries {
        deliveries: deliveries.into_iter().map(delivery_of).collect(),
    })
}
