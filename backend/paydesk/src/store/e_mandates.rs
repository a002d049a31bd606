//! Electronic mandate requests. Every function takes the merchant id and
//! mode, except the payer's look-up by the link's token.

use protocol::{EMandateChangeable, EMandateRequest, EMandateState, Mode};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::sql::{PageRequest, Sql, opt_text, push_page, stored, wire_name};
use super::{Db, Tx};
use crate::error::{AppError, AppResult};

const SELECT: &str = "SELECT r.* FROM e_mandate_requests r";

/// A request with the merchant it belongs to (for the payer's side, which
/// finds it by token alone).
pub struct StoredRequest {
    pub merchant_id: String,
    pub token: String,
    pub request: EMandateRequest,
}

/// The payer's link: a path on this server.
pub fn link_path(token: &str) -> String {
    format!("/mandate/{token}")
}

fn changeable(value: &str) -> AppResult<Vec<EMandateChangeable>> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| stored(s, "e-mandate changeable"))
        .collect()
}

fn from_row(row: &AnyRow) -> AppResult<StoredRequest> {
    let token: String = row.get("token");
    let state: String = row.get("state");
    let request = EMandateRequest {
        id: row.get("id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        customer_id: opt_text(row, "customer_id"),
        name: row.get("name"),
        email: row.get("email"),
        cellphone: row.get("cellphone"),
        language: stored(&row.get::<String, _>("language"), "language")?,
        method: stored(&row.get::<String, _>("method"), "method")?,
        amount_cents: row.get("amount_cents"),
        max_cents: row.try_get::<Option<i64>, _>("max_cents").ok().flatten(),
        interval: stored(&row.get::<String, _>("request_interval"), "interval")?,
        start_date: row.get("start_date"),
        payer_may_change: changeable(&row.get::<String, _>("payer_may_change"))?,
        state: EMandateState::parse(&state)
            .ok_or_else(|| AppError::Internal(format!("unknown e-mandate state: {state}")))?,
        link: link_path(&token),
        expires_on: row.get("expires_on"),
        sends: row.get::<i64, _>("sends").clamp(0, i64::from(u32::MAX)) as u32,
        mandate_id: opt_text(row, "mandate_id"),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    };
    Ok(StoredRequest {
        merchant_id: row.get("merchant_id"),
        token,
        request,
    })
}

pub async fn insert_request(
    tx: &mut Tx,
    merchant_id: &str,
    stored: &StoredRequest,
) -> AppResult<()> {
    let r = &stored.request;
    let changeable: Vec<String> = r.payer_may_change.iter().map(wire_name).collect();
    sqlx::query(
        "INSERT INTO e_mandate_requests (id, merchant_id, mode, token, customer_id, name, email, cellphone, \
         language, method, amount_cents, max_cents, request_interval, start_date, payer_may_change, state, \
         expires_on, sends, mandate_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)",
    )
    .bind(&r.id)
    .bind(merchant_id)
    .bind(r.mode.as_str())
    .bind(&stored.token)
    .bind(r.customer_id.clone())
    .bind(&r.name)
    .bind(&r.email)
    .bind(&r.cellphone)
    .bind(r.language.as_str())
    .bind(r.method.as_str())
    .bind(r.amount_cents)
    .bind(r.max_cents)
    .bind(wire_name(&r.interval))
    .bind(&r.start_date)
    .bind(changeable.join(","))
    .bind(r.state.as_str())
    .bind(&r.expires_on)
    .bind(i64::from(r.sends))
    .bind(r.mandate_id.clone())
    .bind(r.created_at)
    .bind(r.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Records a request's new state, send count, mandate and last day.
pub async fn update_request(
    tx: &mut Tx,
    merchant_id: &str,
    request: &EMandateRequest,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE e_mandate_requests SET state = $4, sends = $5, mandate_id = $6, updated_at = $7, \
         expires_on = $8 WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(request.mode.as_str())
    .bind(&request.id)
    .bind(request.state.as_str())
    .bind(i64::from(request.sends))
    .bind(request.mandate_id.clone())
    .bind(request.updated_at)
    .bind(&request.expires_on)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

pub async fn find_request<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<StoredRequest>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT r.* FROM e_mandate_requests r WHERE r.merchant_id = $1 AND r.mode = $2 AND r.id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .fetch_optional(executor)
    .await?;
    row.as_ref().map(from_row).transpose()
}

/// The payer's look-up: the link's token is all they have.
pub async fn find_by_token<'e, E>(executor: E, token: &str) -> AppResult<Option<StoredRequest>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query("SELECT r.* FROM e_mandate_requests r WHERE r.token = $1")
        .bind(token)
        .fetch_optional(executor)
        .await?;
    row.as_ref().map(from_row).transpose()
}

pub async fn list_requests(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    page: &PageRequest,
) -> AppResult<Vec<EMandateRequest>> {
    let mut sql = Sql::in_stream(SELECT, "r", merchant_id, mode);
    push_page(&mut sql, "r", page);
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter()
        .map(|r| from_row(r).map(|s| s.request))
        .collect()
}

/// The merchant's name as payers know it, for the mail.
pub async fn merchant_name(tx: &mut Tx, merchant_id: &str) -> AppResult<String> {
    let row = sqlx::query("SELECT name FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.map(|r| r.get("name")).unwrap_or_default())
}
