//! Delivers webhooks from the durable queue (`webhook_deliveries`, filled
//! in each event's own transaction). Any node may run it: claims are
//! leases taken with `FOR UPDATE SKIP LOCKED` on PostgreSQL, so a delivery
//! is sent at least once, and a node killed mid-delivery leaves it to be
//! taken again when its lease ends. Each attempt re-checks where the
//! address leads, connects only to the addresses it checked, follows no
//! redirect and gives up after the timeout; a failure waits as the
//! documented schedule says, and after the last attempt the endpoint is
//! paused and the merchant's owners are mailed.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use paydesk::auth::sealed::SecretBox;
use paydesk::domain::webhooks::destinations::{parse_endpoint_url, resolve_allowed};
use paydesk::domain::webhooks::endpoints::{pause_after_failures, signing_secrets};
use paydesk::domain::webhooks::queries::delivery_of;
use paydesk::domain::webhooks::schedule::{next_attempt_at, random_jitter};
use paydesk::domain::webhooks::signing::signature_header;
use paydesk::error::{AppError, AppResult};
use paydesk::store::Db;
use paydesk::store::stream::{self, Actor, Cause, Work};
use paydesk::store::webhooks::{self as queue, Attempt, ClaimedDelivery, EndpointRow};
use protocol::Change;

use crate::delivery_clock::DeliveryClock;
use crate::live::registry::MerchantRegistry;

/// How often the queue is looked at when it was empty.
const POLL: Duration = Duration::from_millis(250);
/// Deliveries claimed at a time; sent one after another, so a slow receiver
/// holds up at most this many.
const BATCH: i64 = 20;
/// How much of a receiver's answer the log keeps.
const RESPONSE_KEPT: usize = 4 * 1024;

#[derive(Clone)]
pub struct WebhookSettings {
    pub database_url: String,
    pub sealer: SecretBox,
    pub allow_private: bool,
    pub timeout: Duration,
    pub public_origin: String,
    pub clock: DeliveryClock,
    /// Tells this node's open tabs of a stream that an attempt was recorded.
    pub merchants: Arc<MerchantRegistry>,
}

/// Runs until the server stops.
pub async fn deliver_forever(settings: WebhookSettings) {
    let db = match Db::connect(&settings.database_url).await {
        Ok(db) => db,
        Err(err) => {
            return tracing::error!(error = %err, "webhook worker cannot reach the database");
        }
    };
    // A delivery is not taken again until its attempt has ended (the
    // timeout, with room for recording it), nor kept from another node for
    // much longer when this one dies mid-delivery. Should recording ever
    // take longer, the delivery is only sent twice: at least once holds.
    let lease_ms = settings.timeout.as_millis() as i64 * 2 + 5_000;
    loop {
        let claimed = match queue::claim_due(&db, settings.clock.now(), BATCH, lease_ms).await {
            Ok(claimed) => claimed,
            Err(err) => {
                tracing::error!(error = %err, "cannot read the webhook queue");
                Vec::new()
            }
        };
        let idle = claimed.is_empty();
        for delivery in claimed {
            if let Err(err) = deliver(&db, &settings, &delivery).await {
                tracing::error!(error = %err, delivery = %delivery.id, "cannot record a webhook delivery");
            }
        }
        if idle {
            tokio::time::sleep(POLL).await;
        }
    }
}

async fn deliver(db: &Db, settings: &WebhookSettings, delivery: &ClaimedDelivery) -> AppResult<()> {
    let endpoint = {
        let mut tx = db.begin_read().await?;
        queue::find_endpoint(&mut tx, &delivery.key, &delivery.endpoint_id).await?
    };
    // Paused since it was claimed: the lease runs out and it waits.
    let Some(endpoint) = endpoint.filter(|e| e.enabled == 1) else {
        return Ok(());
    };
    let started = Instant::now();
    let at = settings.clock.now();
    let sent = send(settings, &endpoint, delivery, at).await;
    let duration_ms = started.elapsed().as_millis() as i64;
    let (status, error, response) = match &sent.outcome {
        Ok((status, body)) => (Some(i64::from(*status)), None, Some(body.as_str())),
        Err(err) => (None, Some(err.as_str()), None),
    };
    let delivered = status.is_some_and(|s| (200..300).contains(&s));
    let attempt = Attempt {
        at,
        status,
        duration_ms,
        error,
        request_headers: &sent.headers,
        response,
    };
    // The wait before a retry counts from the attempt's end: an attempt
    // that ran into its timeout must not be followed by the next at once.
    let ended = settings.clock.now();
    let next = if delivered {
        None
    } else {
        next_attempt_at(ended, delivery.attempts + 1, random_jitter())
    };
    // The address is the merchant's; the log says which delivery, not where.
    tracing::info!(delivery = %delivery.id, attempt = delivery.attempts + 1, ?status, delivered, "webhook attempt");
    // Recorded as an event of the stream (caused by the delivery job) so the
    // endpoint pages open on any node show the attempt as it lands.
    let cause = Cause::background(Actor::WebhookDelivery {
        endpoint_id: endpoint.id.clone(),
    });
    let written = stream::write(db, &delivery.key, &cause, async |tx, _| {
        queue::record_attempt(tx, delivery, &attempt, delivered, next).await?;
        Ok(
            match queue::find_delivery(tx, &delivery.key, &delivery.id).await? {
                Some(row) => Work::changed(
                    vec![Change::WebhookDeliveryUpserted {
                        delivery: Box::new(delivery_of(row)),
                    }],
                    (),
                ),
                // Deleted with its endpoint meanwhile: nothing to show.
                None => Work::Unchanged(()),
            },
        )
    })
    .await?;
    if let Some(seq) = written.seq {
        settings.merchants.advance(&delivery.key, seq);
    }
    if !delivered && next.is_none() {
        give_up(db, settings, delivery, &endpoint, at).await?;
    }
    Ok(())
}

/// The last attempt failed: the endpoint is paused (an event of the account
/// history) and the owners are mailed, together.
async fn give_up(
    db: &Db,
    settings: &WebhookSettings,
    delivery: &ClaimedDelivery,
    endpoint: &EndpointRow,
    at: i64,
) -> AppResult<()> {
    let cause = Cause::background(Actor::WebhookDelivery {
        endpoint_id: endpoint.id.clone(),
    });
    let written = stream::write(db, &delivery.key, &cause, async |tx, _| {
        let paused =
            pause_after_failures(tx, &delivery.key, endpoint, &settings.public_origin, at).await?;
        Ok(match paused {
            Some(change) => Work::changed(vec![change], ()),
            None => Work::Unchanged(()),
        })
    })
    .await?;
    if let Some(seq) = written.seq {
        settings.merchants.advance(&delivery.key, seq);
    }
    Ok(())
}

/// What one attempt sent and got.
struct Sent {
    /// The headers sent, one `name: value` a line (empty when the attempt
    /// stopped before sending).
    headers: String,
    /// The status code and the start of the answer, or why there was none.
    outcome: Result<(u16, String), String>,
}

/// One attempt. Never the secret, in any message.
async fn send(
    settings: &WebhookSettings,
    endpoint: &EndpointRow,
    delivery: &ClaimedDelivery,
    at: i64,
) -> Sent {
    let mut headers = Vec::new();
    let outcome = attempt(settings, endpoint, delivery, at, &mut headers).await;
    let headers = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}"))
        .collect::<Vec<_>>()
        .join("\n");
    Sent { headers, outcome }
}

async fn attempt(
    settings: &WebhookSettings,
    endpoint: &EndpointRow,
    delivery: &ClaimedDelivery,
    at: i64,
    headers: &mut Vec<(&'static str, String)>,
) -> Result<(u16, String), String> {
    let url =
        parse_endpoint_url(&endpoint.url).map_err(|_| "the address is not valid".to_string())?;
    let addresses = resolve_allowed(&url, settings.allow_private)
        .await
        .map_err(|err| refused(&err))?;
    let client = pinned_client(&url, &addresses, settings.timeout)?;
    let secrets = signing_secrets(endpoint, &settings.sealer, at)
        .map_err(|_| "cannot open the signing secret".to_string())?;
    let secrets: Vec<&str> = secrets.iter().map(String::as_str).collect();
    let timestamp = at / 1000;
    let signature = signature_header(&secrets, &delivery.event_id, timestamp, &delivery.payload)
        .map_err(|_| "cannot sign".to_string())?;
    headers.extend([
        ("content-type", "application/json".to_string()),
        ("user-agent", "Paydesk-Webhooks/1".to_string()),
        ("webhook-id", delivery.event_id.clone()),
        ("webhook-timestamp", timestamp.to_string()),
        ("webhook-signature", signature),
    ]);
    let mut request = client.post(url);
    for (name, value) in headers.iter() {
        request = request.header(*name, value);
    }
    let response = request
        .body(delivery.payload.clone())
        .send()
        .await
        .map_err(|err| describe(&err))?;
    let status = response.status().as_u16();
    Ok((status, read_start(response).await))
}

fn refused(err: &AppError) -> String {
    match err {
        AppError::Invalid(fields)
            if fields
                .iter()
                .any(|f| f.code == protocol::ErrorCode::WebhookAddressForbidden) =>
        {
            "the address leads to a private or internal network".into()
        }
        _ => "the address does not resolve".into(),
    }
}

/// A client that connects only to `addresses` (the ones just checked: a
/// name that resolves elsewhere a moment later is not asked again), uses
/// no proxy, and follows no redirect.
fn pinned_client(
    url: &url::Url,
    addresses: &[SocketAddr],
    timeout: Duration,
) -> Result<reqwest::Client, String> {
    let mut builder = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(timeout)
        .connect_timeout(timeout);
    if let Some(url::Host::Domain(name)) = url.host() {
        builder = builder.resolve_to_addrs(name, addresses);
    }
    builder
        .build()
        .map_err(|err| format!("cannot build a client: {err}"))
}

fn describe(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        "timed out".into()
    } else if err.is_connect() {
        "could not connect".into()
    } else {
        "the request failed".into()
    }
}

/// The first `RESPONSE_KEPT` bytes of the answer, as text.
async fn read_start(mut response: reqwest::Response) -> String {
    let mut kept = Vec::new();
    while kept.len() < RESPONSE_KEPT {
        match response.chunk().await {
            Ok(Some(chunk)) => kept.extend_from_slice(&chunk),
            _ => break,
        }
    }
    kept.truncate(RESPONSE_KEPT);
    String::from_utf8_lossy(&kept).into_owned()
}
