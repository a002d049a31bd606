//! Payers' mandate signings (`e_mandate_signings`). Every function takes the
//! merchant id and mode, except the payer's look-up by a signing link's token.

use protocol::{ApprovalWindow, Interval, Mode, PaymentMethod};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::Tx;
use super::sql::{opt_text, stored, wire_name};
use crate::error::AppResult;

/// Where a signing stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SigningState {
    /// Started from a pay page; the payer has not consented yet.
    Open,
    /// The payer consented; the bank is asking them to approve.
    Authenticating,
    Completed,
    Declined,
    NoReply,
}

impl SigningState {
    pub fn as_str(self) -> &'static str {
        match self {
            SigningState::Open => "open",
            SigningState::Authenticating => "authenticating",
            SigningState::Completed => "completed",
            SigningState::Declined => "declined",
            SigningState::NoReply => "no_reply",
        }
    }

    pub fn parse(value: &str) -> Option<SigningState> {
        [
            SigningState::Open,
            SigningState::Authenticating,
            SigningState::Completed,
            SigningState::Declined,
            SigningState::NoReply,
        ]
        .into_iter()
        .find(|s| s.as_str() == value)
    }
}

#[derive(Clone, Debug)]
pub struct SigningRow {
    pub id: String,
    pub merchant_id: String,
    pub mode: Mode,
    pub token: String,
    /// `link` or `pay_page`.
    pub origin: String,
    pub request_id: Option<String>,
    pub page_id: Option<String>,
    pub method: PaymentMethod,
    pub amount_cents: i64,
    pub max_cents: Option<i64>,
    pub interval: Interval,
    pub start_date: String,
    pub language: String,
    pub state: SigningState,
    /// The consent form's one-time key: a second post of it finds this row.
    pub consent_key: Option<String>,
    /// The payer's checked answers as JSON (empty before consent).
    pub answers: String,
    pub approval_window: Option<ApprovalWindow>,
    pub auth_started_at: Option<i64>,
    pub auth_due_on: Option<String>,
    pub mandate_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

fn from_row(row: &AnyRow) -> AppResult<SigningRow> {
    let state: String = row.get("state");
    Ok(SigningRow {
        id: row.get("id"),
        merchant_id: row.get("merchant_id"),
        mode: stored(&row.get::<String, _>("mode"), "mode")?,
        token: row.get("token"),
        origin: row.get("origin"),
        request_id: opt_text(row, "request_id"),
        page_id: opt_text(row, "page_id"),
        method: stored(&row.get::<String, _>("method"), "method")?,
        amount_cents: row.get("amount_cents"),
        max_cents: row.try_get::<Option<i64>, _>("max_cents").ok().flatten(),
        interval: stored(&row.get::<String, _>("sign_interval"), "interval")?,
        start_date: row.get("start_date"),
        language: row.get("language"),
        state: SigningState::parse(&state).ok_or_else(|| {
            crate::error::AppError::Internal(format!("unknown signing state: {state}"))
        })?,
        consent_key: opt_text(row, "consent_key"),
        answers: row.get("answers"),
        approval_window: opt_text(row, "approval_window")
            .map(|w| stored(&w, "approval window"))
            .transpose()?,
        auth_started_at: row
            .try_get::<Option<i64>, _>("auth_started_at")
            .ok()
            .flatten(),
        auth_due_on: opt_text(row, "auth_due_on"),
        mandate_id: opt_text(row, "mandate_id"),
        created_at: row.get("created_at"),
        updated_at: row.get("updated_at"),
    })
}

pub async fn insert_signing(tx: &mut Tx, s: &SigningRow) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO e_mandate_signings (id, merchant_id, mode, token, origin, request_id, page_id, method, \
         amount_cents, max_cents, sign_interval, start_date, language, state, consent_key, answers, \
         approval_window, auth_started_at, auth_due_on, mandate_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)",
    )
    .bind(&s.id)
    .bind(&s.merchant_id)
    .bind(s.mode.as_str())
    .bind(&s.token)
    .bind(&s.origin)
    .bind(s.request_id.clone())
    .bind(s.page_id.clone())
    .bind(s.method.as_str())
    .bind(s.amount_cents)
    .bind(s.max_cents)
    .bind(wire_name(&s.interval))
    .bind(&s.start_date)
    .bind(&s.language)
    .bind(s.state.as_str())
    .bind(s.consent_key.clone())
    .bind(&s.answers)
    .bind(s.approval_window.as_ref().map(wire_name))
    .bind(s.auth_started_at)
    .bind(s.auth_due_on.clone())
    .bind(s.mandate_id.clone())
    .bind(s.created_at)
    .bind(s.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Records a signing's progress: its state, answers, authentication and
/// mandate.
pub async fn update_signing(tx: &mut Tx, s: &SigningRow) -> AppResult<()> {
    sqlx::query(
        "UPDATE e_mandate_signings SET state = $4, consent_key = $5, answers = $6, approval_window = $7, \
         auth_started_at = $8, auth_due_on = $9, mandate_id = $10, updated_at = $11 \
         WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(&s.merchant_id)
    .bind(s.mode.as_str())
    .bind(&s.id)
    .bind(s.state.as_str())
    .bind(s.consent_key.clone())
    .bind(&s.answers)
    .bind(s.approval_window.as_ref().map(wire_name))
    .bind(s.auth_started_at)
    .bind(s.auth_due_on.clone())
    .bind(s.mandate_id.clone())
    .bind(s.updated_at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The payer's look-up of a pay page's signing: the token is all they have.
pub async fn find_by_token<'e, E>(executor: E, token: &str) -> AppResult<Option<SigningRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query("SELECT * FROM e_mandate_signings WHERE token = $1")
        .bind(token)
        .fetch_optional(executor)
        .await?;
    row.as_ref().map(from_row).transpose()
}

/// The latest signing of a request (a request has at most one that is not
/// declined or unanswered: a new one starts only while none is open).
pub async fn latest_of_request<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    request_id: &str,
) -> AppResult<Option<SigningRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT * FROM e_mandate_signings WHERE merchant_id = $1 AND mode = $2 AND request_id = $3 \
         ORDER BY created_at DESC, id DESC LIMIT 1",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(request_id)
    .fetch_optional(executor)
    .await?;
    row.as_ref().map(from_row).transpose()
}

pub async fn find_signing<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
    id: &str,
) -> AppResult<Option<SigningRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT * FROM e_mandate_signings WHERE merchant_id = $1 AND mode = $2 AND id = $3",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(id)
    .fetch_optional(executor)
    .await?;
    row.as_ref().map(from_row).transpose()
}

/// A stream's signings waiting for the payer's bank, oldest first: the
/// scheduler closes those whose approval window has passed.
pub async fn authenticating<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Vec<SigningRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(
        "SELECT * FROM e_mandate_signings WHERE merchant_id = $1 AND mode = $2 \
         AND state = 'authenticating' ORDER BY created_at, id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .fetch_all(executor)
    .await?;
    rows.iter().map(from_row).collect()
}
