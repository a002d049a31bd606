//! A merchant's webhook endpoints: adding one, pausing and enabling it,
//! rolling its secret. Each runs inside the stream's write transaction
//! (`store::stream::write`), so it is an event of the account history with
//! who did it. The address is checked (and its name resolved) by
//! `check_address` before the transaction begins: no DNS wait holds the
//! stream's write lock.

use protocol::{Change, ErrorCode};

use super::destinations::{parse_endpoint_url, resolve_allowed};
use super::events::is_event_type;
use super::queries::endpoint_of;
use super::signing::new_signing_secret;
use crate::auth::sealed::SecretBox;
use crate::domain::mail::compose_webhook_disabled;
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::stream::StreamKey;
use crate::store::webhooks::{self as store, EndpointRow};
use crate::store::{Tx, mail};

/// Longest description kept.
const MAX_DESCRIPTION: usize = 500;

/// After a roll, the old secret still signs for this long, so receivers can
/// switch to the new one without missing a delivery.
pub const ROLL_GRACE_MS: i64 = 24 * 3600 * 1000;

/// What a merchant fills in for an endpoint.
#[derive(Clone, Debug)]
pub struct EndpointInput {
    pub url: String,
    pub description: String,
    pub event_types: Vec<String>,
}

/// An endpoint address that passed the checks, in its normal form.
#[derive(Clone, Debug)]
pub struct CheckedAddress(String);

/// Checks the address: an https address whose name resolves only to public
/// addresses. With `allow_private` (receivers on the local network), any
/// address, and plain http too.
pub async fn check_address(url: &str, allow_private: bool) -> AppResult<CheckedAddress> {
    let url = parse_endpoint_url(url)?;
    resolve_allowed(&url, allow_private).await?;
    // Events carry the merchant's customers and amounts: over the internet
    // they travel encrypted. Endpoints saved before this rule keep working.
    if url.scheme() != "https" && !allow_private {
        return Err(AppError::field("url", ErrorCode::InvalidUrl));
    }
    Ok(CheckedAddress(url.to_string()))
}

fn checked_event_types(types: &[String]) -> AppResult<String> {
    if types.is_empty() {
        return Err(AppError::field("eventTypes", ErrorCode::Required));
    }
    if types.iter().any(|t| !is_event_type(t)) {
        return Err(AppError::field("eventTypes", ErrorCode::UnknownEventType));
    }
    let mut types: Vec<&str> = types.iter().map(String::as_str).collect();
    types.sort_unstable();
    types.dedup();
    Ok(types.join(" "))
}

/// Adds an endpoint; returns it and its signing secret, which is shown to
/// the merchant this once and kept only sealed.
pub async fn create_endpoint(
    tx: &mut Tx,
    key: &StreamKey,
    address: CheckedAddress,
    input: &EndpointInput,
    sealer: &SecretBox,
    now: i64,
) -> AppResult<(EndpointRow, String)> {
    let description = checked_description(&input.description)?;
    let event_types = checked_event_types(&input.event_types)?;
    let id = new_id("whe");
    let secret = new_signing_secret()?;
    let row = EndpointRow {
        secret: sealer.seal(&id, &secret)?,
        id,
        merchant_id: key.merchant_id.clone(),
        mode: key.mode.as_str().to_string(),
        url: address.0,
        description: description.to_string(),
        event_types,
        enabled: 1,
        disabled_reason: None,
        previous_secret: None,
        previous_secret_until: None,
        created_at: now,
        updated_at: now,
    };
    store::insert_endpoint(tx, &row).await?;
    Ok((row, secret))
}

async fn find(tx: &mut Tx, key: &StreamKey, endpoint_id: &str) -> AppResult<EndpointRow> {
    store::find_endpoint(tx, key, endpoint_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))
}

/// The endpoint as it is now, for the tabs and the account history.
pub async fn upserted(tx: &mut Tx, key: &StreamKey, endpoint_id: &str) -> AppResult<Change> {
    let row = find(tx, key, endpoint_id).await?;
    Ok(Change::WebhookEndpointUpserted {
        endpoint: Box::new(endpoint_of(row)),
    })
}

/// Removes an endpoint and its log; the change carries it as it was, so
/// the history names what was removed.
pub async fn delete_endpoint(tx: &mut Tx, key: &StreamKey, endpoint_id: &str) -> AppResult<Change> {
    let row = find(tx, key, endpoint_id).await?;
    if !store::delete_endpoint(tx, key, endpoint_id).await? {
        return Err(AppError::Code(ErrorCode::NotFound));
    }
    Ok(Change::WebhookEndpointRemoved {
        endpoint: Box::new(endpoint_of(row)),
    })
}

fn checked_description(description: &str) -> AppResult<&str> {
    let description = description.trim();
    if description.chars().count() > MAX_DESCRIPTION {
        return Err(AppError::field("description", ErrorCode::TooLong));
    }
    Ok(description)
}

/// Changes an endpoint's description and the event types it wants.
pub async fn update_endpoint(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    description: &str,
    event_types: &[String],
    now: i64,
) -> AppResult<()> {
    find(tx, key, endpoint_id).await?;
    let description = checked_description(description)?;
    let event_types = checked_event_types(event_types)?;
    store::update_endpoint(tx, key, endpoint_id, description, &event_types, now).await
}

/// Pauses or enables an endpoint; whether anything changed. Deliveries
/// queued while it was paused go out once it is enabled again.
pub async fn set_enabled(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    enabled: bool,
    now: i64,
) -> AppResult<bool> {
    find(tx, key, endpoint_id).await?;
    store::set_enabled(tx, key, endpoint_id, enabled, None, now).await
}

/// Queues an endpoint's deliveries again for an attempt now: the one named
/// (failed or delivered), or all its failed ones when `delivery_id` is
/// none. How many were queued.
pub async fn resend_failed(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    delivery_id: Option<&str>,
    now: i64,
) -> AppResult<u64> {
    find(tx, key, endpoint_id).await?;
    store::resend_failed(tx, key, endpoint_id, delivery_id, now).await
}

/// Makes a new secret (returned, shown once); the current one keeps
/// signing beside it for `ROLL_GRACE_MS`.
pub async fn roll_secret(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    sealer: &SecretBox,
    now: i64,
) -> AppResult<String> {
    let endpoint = find(tx, key, endpoint_id).await?;
    let secret = new_signing_secret()?;
    let sealed = sealer.seal(&endpoint.id, &secret)?;
    store::replace_secret(
        tx,
        key,
        endpoint_id,
        &sealed,
        &endpoint.secret,
        now + ROLL_GRACE_MS,
        now,
    )
    .await?;
    Ok(secret)
}

/// The secrets a delivery at `now` is signed with: the current one, and
/// the previous one while its grace period lasts.
pub fn signing_secrets(
    endpoint: &EndpointRow,
    sealer: &SecretBox,
    now: i64,
) -> AppResult<Vec<String>> {
    let mut secrets = vec![sealer.open(&endpoint.id, &endpoint.secret)?];
    if let (Some(previous), Some(until)) =
        (&endpoint.previous_secret, endpoint.previous_secret_until)
        && now < until
    {
        secrets.push(sealer.open(&endpoint.id, previous)?);
    }
    Ok(secrets)
}

/// Why the delivery job paused an endpoint, as stored.
pub const GAVE_UP: &str = "deliveries_failed";

/// Pauses an endpoint whose delivery failed its last attempt, and tells the
/// merchant's owners, in the same transaction. Returns the paused endpoint's
/// change, or none when it was paused already (a second failing delivery
/// neither mails again nor is another entry of the history).
pub async fn pause_after_failures(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint: &EndpointRow,
    public_origin: &str,
    now: i64,
) -> AppResult<Option<Change>> {
    if !store::set_enabled(tx, key, &endpoint.id, false, Some(GAVE_UP), now).await? {
        return Ok(None);
    }
    let link = format!("{public_origin}/developers/webhooks/{}", endpoint.id);
    for owner in store::owner_recipients(tx, &key.merchant_id).await? {
        let message = compose_webhook_disabled(
            owner.language,
            &owner.email,
            &owner.name,
            &endpoint.url,
            &link,
        );
        mail::enqueue(tx, &message).await?;
    }
    upserted(tx, key, &endpoint.id).await.map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_are_checked_and_kept_sorted() {
        let types = vec![
            "payment.created".to_string(),
            "customer.created".into(),
            "payment.created".into(),
        ];
        assert_eq!(
            checked_event_types(&types).ok().as_deref(),
            Some("customer.created payment.created")
        );
        assert!(checked_event_types(&[]).is_err());
        assert!(checked_event_types(&["payment.exploded".into()]).is_err());
    }
}
