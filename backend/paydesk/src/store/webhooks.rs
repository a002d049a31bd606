//! Webhook endpoints and their deliveries. Every query takes the merchant
//! and the mode, except the delivery job's claim, which serves every
//! merchant and reads each delivery's own.

use protocol::{Change, Mode};
use sqlx::{Executor, Row};

use super::batch::Batch;
use super::sql::{Bind, Sql};
use super::stream::StreamKey;
use super::{Db, Tx};
use crate::domain::webhooks::events::{event_of, payload};
use crate::domain::webhooks::queries::delivery_of;
use crate::error::AppResult;
use crate::ids::new_id;

/// An endpoint as stored; its secrets sealed.
#[derive(Clone, Debug)]
pub struct EndpointRow {
    pub id: String,
    pub merchant_id: String,
    pub mode: String,
    pub url: String,
    pub description: String,
    pub event_types: String,
    pub enabled: i64,
    pub disabled_reason: Option<String>,
    pub secret: String,
    pub previous_secret: Option<String>,
    pub previous_secret_until: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl sqlx::FromRow<'_, sqlx::any::AnyRow> for EndpointRow {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            id: row.try_get("id")?,
            merchant_id: row.try_get("merchant_id")?,
            mode: row.try_get("mode")?,
            url: row.try_get("url")?,
            description: row.try_get("description")?,
            event_types: row.try_get("event_types")?,
            enabled: row.try_get("enabled")?,
            disabled_reason: row.try_get("disabled_reason")?,
            secret: row.try_get("secret")?,
            previous_secret: row.try_get("previous_secret")?,
            previous_secret_until: row.try_get("previous_secret_until")?,
            created_at: row.try_get("created_at")?,
            updated_at: row.try_get("updated_at")?,
        })
    }
}

impl EndpointRow {
    pub fn subscribes_to(&self, event_type: &str) -> bool {
        self.event_types.split(' ').any(|t| t == event_type)
    }
}

const ENDPOINT_COLUMNS: &str = "id, merchant_id, mode, url, description, event_types, enabled, \
     disabled_reason, secret, previous_secret, previous_secret_until, created_at, updated_at";

pub async fn insert_endpoint(tx: &mut Tx, row: &EndpointRow) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO webhook_endpoints (id, merchant_id, mode, url, description, event_types, enabled, \
         disabled_reason, secret, previous_secret, previous_secret_until, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&row.id)
    .bind(&row.merchant_id)
    .bind(&row.mode)
    .bind(&row.url)
    .bind(&row.description)
    .bind(&row.event_types)
    .bind(row.enabled)
    .bind(row.disabled_reason.as_deref())
    .bind(&row.secret)
    .bind(row.previous_secret.as_deref())
    .bind(row.previous_secret_until)
    .bind(row.created_at)
    .bind(row.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn find_endpoint(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
) -> AppResult<Option<EndpointRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 AND id = $3"
    )))
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(endpoint_id)
    .fetch_optional(&mut **tx)
    .await?)
}

pub async fn list_endpoints(db: &Db, key: &StreamKey) -> AppResult<Vec<EndpointRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 ORDER BY id"
    )))
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .fetch_all(&db.pool)
    .await?)
}

/// Enables or pauses an endpoint; `reason` says why the system paused it.
pub async fn set_enabled(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    enabled: bool,
    reason: Option<&str>,
    now: i64,
) -> AppResult<bool> {
    let done = sqlx::query(
        "UPDATE webhook_endpoints SET enabled = $4, disabled_reason = $5, updated_at = $6 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3 AND enabled <> $4",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(endpoint_id)
    .bind(i64::from(enabled))
    .bind(reason)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn replace_secret(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    secret: &str,
    previous: &str,
    previous_until: i64,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE webhook_endpoints SET secret = $4, previous_secret = $5, previous_secret_until = $6, \
         updated_at = $7 WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(endpoint_id)
    .bind(secret)
    .bind(previous)
    .bind(previous_until)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Changes an endpoint's description and event types.
pub async fn update_endpoint(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    description: &str,
    event_types: &str,
    now: i64,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE webhook_endpoints SET description = $4, event_types = $5, updated_at = $6 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(endpoint_id)
    .bind(description)
    .bind(event_types)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Removes an endpoint with its delivery log (a delivery names its
/// endpoint); whether there was one.
pub async fn delete_endpoint(tx: &mut Tx, key: &StreamKey, endpoint_id: &str) -> AppResult<bool> {
    sqlx::query(
        "DELETE FROM webhook_deliveries WHERE merchant_id = $1 AND mode = $2 AND endpoint_id = $3",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(endpoint_id)
    .execute(&mut **tx)
    .await?;
    let done = sqlx::query(
        "DELETE FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(endpoint_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// One delivery to queue.
pub struct NewDelivery<'a> {
    pub endpoint_id: &'a str,
    pub event_id: &'a str,
    pub event_type: &'a str,
    pub event_seq: i64,
    pub payload: &'a str,
}

pub async fn insert_delivery(
    tx: &mut Tx,
    key: &StreamKey,
    new: &NewDelivery<'_>,
    now: i64,
) -> AppResult<String> {
    let id = new_id("whd");
    (&mut **tx)
        .execute(delivery_row(&id, key, new, now).query())
        .await?;
    Ok(id)
}

fn delivery_row(id: &str, key: &StreamKey, new: &NewDelivery<'_>, now: i64) -> Sql {
    Sql::statement(
        "INSERT INTO webhook_deliveries (id, merchant_id, mode, endpoint_id, event_id, event_type, event_seq, \
         payload, state, attempts, next_attempt_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9, $9)",
        vec![
            Bind::Text(id.into()),
            Bind::Text(key.merchant_id.clone()),
            Bind::Text(key.mode.as_str().into()),
            Bind::Text(new.endpoint_id.into()),
            Bind::Text(new.event_id.into()),
            Bind::Text(new.event_type.into()),
            Bind::Int(new.event_seq),
            Bind::Text(new.payload.into()),
            Bind::Int(now),
        ],
    )
}

/// A stream's enabled endpoints (id, event types) as committed when the
/// stream's `seq` was `seq`. Read before a write's turn, they still hold
/// for the write that takes `seq + 1`: every change to an endpoint is an
/// event of its stream, so none came between. A write that takes a later
/// `seq` reads them again inside its transaction.
pub(super) struct EndpointsAt {
    seq: u64,
    endpoints: Vec<(String, String)>,
}

impl EndpointsAt {
    /// The endpoints `(id, event types)` read when the stream was at `seq`.
    pub(super) fn new(seq: u64, endpoints: Vec<(String, String)>) -> EndpointsAt {
        EndpointsAt { seq, endpoints }
    }
}

/// Queues a delivery of each of an event's changes to every enabled
/// endpoint of the stream that subscribes to its type. Runs inside the
/// event's own transaction (`stream::write`): the deliveries exist exactly
/// when the event does. One event id per change, the same for every
/// endpoint, so a receiver with several endpoints can tell repeats apart.
/// Returns the queued deliveries as changes, so the endpoint pages that
/// are open show them with the event itself. The rows join the write's
/// batch.
pub(super) async fn queue_for_event(
    tx: &mut Tx,
    batch: &mut Batch,
    key: &StreamKey,
    seq: u64,
    changes: &[Change],
    now: i64,
    known: Option<&EndpointsAt>,
) -> AppResult<Vec<Change>> {
    let mut queued = Vec::new();
    let events: Vec<_> = changes.iter().filter_map(event_of).collect();
    if events.is_empty() {
        return Ok(queued);
    }
    let endpoints = match known {
        // Nothing of the stream was committed between that read and this
        // write's turn: the endpoints are as read.
        Some(known) if known.seq + 1 == seq => known.endpoints.clone(),
        _ => {
            sqlx::query_as(
                "SELECT id, event_types FROM webhook_endpoints WHERE merchant_id = $1 AND mode = $2 AND enabled = 1",
            )
            .bind(&key.merchant_id)
            .bind(key.mode.as_str())
            .fetch_all(&mut **tx)
            .await?
        }
    };
    if endpoints.is_empty() {
        return Ok(queued);
    }
    for (event_type, data) in events {
        let wanted: Vec<&str> = endpoints
            .iter()
            .filter(|(_, types)| types.split(' ').any(|t| t == event_type))
            .map(|(id, _)| id.as_str())
            .collect();
        if wanted.is_empty() {
            continue;
        }
        let event_id = new_id("evt");
        let body = payload(&event_id, event_type, key.mode, now, data);
        for endpoint_id in wanted {
            let new = NewDelivery {
                endpoint_id,
                event_id: &event_id,
                event_type,
                event_seq: seq as i64,
                payload: &body,
            };
            let id = new_id("whd");
            batch.push(delivery_row(&id, key, &new, now));
            queued.push(queued_change(id, &new, now));
        }
    }
    Ok(queued)
}

/// The change a freshly queued delivery shows as, without reading it back.
pub fn queued_change(id: String, new: &NewDelivery<'_>, now: i64) -> Change {
    let row = DeliveryRow {
        id,
        endpoint_id: new.endpoint_id.to_string(),
        event_id: new.event_id.to_string(),
        event_type: new.event_type.to_string(),
        payload: new.payload.to_string(),
        state: "pending".into(),
        attempts: 0,
        next_attempt_at: now,
        last_attempt_at: None,
        last_status: None,
        last_duration_ms: None,
        last_error: None,
        last_request_headers: None,
        last_response: None,
        created_at: now,
        delivered_at: None,
    };
    Change::WebhookDeliveryUpserted {
        delivery: Box::new(delivery_of(row)),
    }
}

/// A delivery the job claimed, with what it needs to send it.
#[derive(Clone, Debug)]
pub struct ClaimedDelivery {
    pub id: String,
    pub key: StreamKey,
    pub endpoint_id: String,
    pub event_id: String,
    pub payload: String,
    pub attempts: i64,
}

/// What the delivery worker will send, sooner or later: a delivery (`d`)
/// still pending, to an endpoint that is enabled.
const PENDING_TO_ENABLED: &str = "d.state = 'pending' \
    AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.enabled = 1)";

/// Deliveries waiting for an attempt (due now or retrying later) to
/// endpoints that are enabled, over every merchant: the webhook worker's
/// backlog, for the metrics. A paused endpoint's deliveries wait for the
/// merchant, not for the worker, so they are not counted.
pub async fn pending_count(db: &Db) -> AppResult<i64> {
    let sql = format!("SELECT COUNT(*) FROM webhook_deliveries d WHERE {PENDING_TO_ENABLED}");
    let count = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .fetch_one(&db.pool)
        .await?;
    Ok(count)
}

/// Claims up to `limit` due deliveries of enabled endpoints by pushing
/// their next attempt `lease_ms` ahead in one statement: a worker that
/// dies mid-delivery leaves the row to be taken again when the lease ends
/// (at least once). On PostgreSQL, `FOR UPDATE SKIP LOCKED` lets workers of
/// every node claim side by side without waiting on each other's rows.
pub async fn claim_due(
    db: &Db,
    now: i64,
    limit: i64,
    lease_ms: i64,
) -> AppResult<Vec<ClaimedDelivery>> {
    let lock = db.backend.skip_locked();
    let sql = format!(
        "UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id IN (\
         SELECT d.id FROM webhook_deliveries d WHERE {PENDING_TO_ENABLED} AND d.next_attempt_at <= $1 \
         ORDER BY d.next_attempt_at LIMIT $3{lock}) \
         RETURNING id, merchant_id, mode, endpoint_id, event_id, payload, attempts"
    );
    let mut tx = db.begin_write().await?;
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(now)
        .bind(now + lease_ms)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            let mode = Mode::parse(row.get::<String, _>("mode").as_str())?;
            Some(ClaimedDelivery {
                id: row.get("id"),
                key: StreamKey::new(row.get::<String, _>("merchant_id"), mode),
                endpoint_id: row.get("endpoint_id"),
                event_id: row.get("event_id"),
                payload: row.get("payload"),
                attempts: row.get("attempts"),
            })
        })
        .collect())
}

/// What one attempt got back.
pub struct Attempt<'a> {
    pub at: i64,
    pub status: Option<i64>,
    pub duration_ms: i64,
    pub error: Option<&'a str>,
    /// The headers sent, one `name: value` a line.
    pub request_headers: &'a str,
    /// The start of the answer's body, already truncated.
    pub response: Option<&'a str>,
}

/// Records an attempt: delivered, pending again at `next_attempt_at`, or
/// failed for good when there is none.
pub async fn record_attempt(
    tx: &mut Tx,
    delivery: &ClaimedDelivery,
    attempt: &Attempt<'_>,
    delivered: bool,
    next_attempt_at: Option<i64>,
) -> AppResult<()> {
    let state = match (delivered, next_attempt_at) {
        (true, _) => "delivered",
        (false, Some(_)) => "pending",
        (false, None) => "failed",
    };
    sqlx::query(
        "UPDATE webhook_deliveries SET state = $4, attempts = attempts + 1, next_attempt_at = $5, \
         last_attempt_at = $6, last_status = $7, last_duration_ms = $8, last_error = $9, last_response = $10, \
         delivered_at = $11, last_request_headers = $12 WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(&delivery.key.merchant_id)
    .bind(delivery.key.mode.as_str())
    .bind(&delivery.id)
    .bind(state)
    .bind(next_attempt_at.unwrap_or(attempt.at))
    .bind(attempt.at)
    .bind(attempt.status)
    .bind(attempt.duration_ms)
    .bind(attempt.error)
    .bind(attempt.response)
    .bind(delivered.then_some(attempt.at))
    .bind(attempt.request_headers)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A delivery as the endpoint page's log shows it.
#[derive(Clone, Debug)]
pub struct DeliveryRow {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event_type: String,
    pub payload: String,
    pub state: String,
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub last_attempt_at: Option<i64>,
    pub last_status: Option<i64>,
    pub last_duration_ms: Option<i64>,
    pub last_error: Option<String>,
    pub last_request_headers: Option<String>,
    pub last_response: Option<String>,
    pub created_at: i64,
    pub delivered_at: Option<i64>,
}

impl sqlx::FromRow<'_, sqlx::any::AnyRow> for DeliveryRow {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            id: row.try_get("id")?,
            endpoint_id: row.try_get("endpoint_id")?,
            event_id: row.try_get("event_id")?,
            event_type: row.try_get("event_type")?,
            payload: row.try_get("payload")?,
            state: row.try_get("state")?,
            attempts: row.try_get("attempts")?,
            next_attempt_at: row.try_get("next_attempt_at")?,
            last_attempt_at: row.try_get("last_attempt_at")?,
            last_status: row.try_get("last_status")?,
            last_duration_ms: row.try_get("last_duration_ms")?,
            last_error: row.try_get("last_error")?,
            last_request_headers: row.try_get("last_request_headers")?,
            last_response: row.try_get("last_response")?,
            created_at: row.try_get("created_at")?,
            delivered_at: row.try_get("delivered_at")?,
        })
    }
}

const DELIVERY_COLUMNS: &str = "id, endpoint_id, event_id, event_type, payload, state, attempts, next_attempt_at, \
     last_attempt_at, last_status, last_duration_ms, last_error, last_request_headers, last_response, created_at, \
     delivered_at";

/// One delivery of the stream, as the log shows it.
pub async fn find_delivery(
    tx: &mut Tx,
    key: &StreamKey,
    delivery_id: &str,
) -> AppResult<Option<DeliveryRow>> {
    let sql = format!(
        "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries WHERE merchant_id = $1 AND mode = $2 AND id = $3"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(&key.merchant_id)
        .bind(key.mode.as_str())
        .bind(delivery_id)
        .fetch_optional(&mut **tx)
        .await?)
}

/// An endpoint's deliveries, newest first.
pub async fn list_deliveries(
    db: &Db,
    key: &StreamKey,
    endpoint_id: &str,
    limit: i64,
) -> AppResult<Vec<DeliveryRow>> {
    let sql = format!(
        "SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries \
         WHERE merchant_id = $1 AND mode = $2 AND endpoint_id = $3 ORDER BY id DESC LIMIT $4"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(&key.merchant_id)
        .bind(key.mode.as_str())
        .bind(endpoint_id)
        .bind(limit)
        .fetch_all(&db.pool)
        .await?)
}

/// Queues deliveries of an endpoint again for an attempt now: the one
/// named, failed or delivered (a receiver that lost it asks again), or all
/// the failed ones when `delivery_id` is none; returns how many. A pending
/// delivery is left alone: it may be in flight.
pub async fn resend_failed(
    tx: &mut Tx,
    key: &StreamKey,
    endpoint_id: &str,
    delivery_id: Option<&str>,
    now: i64,
) -> AppResult<u64> {
    let done = sqlx::query(
        "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $4 \
         WHERE merchant_id = $1 AND mode = $2 AND endpoint_id = $3 \
         AND (state = 'failed' OR ($5 IS NOT NULL AND state = 'delivered')) AND ($5 IS NULL OR id = $5)",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(endpoint_id)
    .bind(now)
    .bind(delivery_id)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected())
}

/// Who owns a merchant, for mail about its endpoints.
pub async fn owner_recipients(
    tx: &mut Tx,
    merchant_id: &str,
) -> AppResult<Vec<super::users::Recipient>> {
    let rows = sqlx::query(
        "SELECT u.id, u.name, u.email, u.language FROM users u JOIN memberships m ON m.user_id = u.id \
         WHERE m.merchant_id = $1 AND m.role = 'owner' ORDER BY u.id",
    )
    .bind(merchant_id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let language: String = row.get("language");
            super::users::Recipient {
                id: row.get("id"),
                name: row.get("name"),
                email: row.get("email"),
                language: protocol::Language::parse(&language).unwrap_or_default(),
            }
        })
        .collect())
}
