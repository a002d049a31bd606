//! Pay attempts as the pages show them.

use protocol::{PayFailure, PaymentMethod};

use super::super::acquirer;
use super::form::{KeptAnswers, bank_name};
use super::public_page::PublicPage;
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::pay_attempts::{self, AttemptRow};
use crate::store::transactions::{self, TransactionRecord};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptStatus {
    AwaitingThreeDs,
    AwaitingBank,
    Succeeded,
    Failed,
}

impl AttemptStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AttemptStatus::AwaitingThreeDs => "awaiting_3ds",
            AttemptStatus::AwaitingBank => "awaiting_bank",
            AttemptStatus::Succeeded => "succeeded",
            AttemptStatus::Failed => "failed",
        }
    }

    pub(super) fn parse(value: &str) -> AttemptStatus {
        match value {
            "awaiting_3ds" => AttemptStatus::AwaitingThreeDs,
            "awaiting_bank" => AttemptStatus::AwaitingBank,
            "succeeded" => AttemptStatus::Succeeded,
            _ => AttemptStatus::Failed,
        }
    }
}

/// An attempt as the pay page shows it.
#[derive(Clone, Debug)]
pub struct Attempt {
    pub id: String,
    pub status: AttemptStatus,
    pub method: PaymentMethod,
    pub failure: Option<PayFailure>,
    pub answers: KeptAnswers,
    pub amount_cents: i64,
    pub order_id: String,
    /// The card's brand and last four, or the payer's bank, for the pages.
    pub source: Option<String>,
}

pub(super) fn to_attempt(
    row: &AttemptRow,
    amount_cents: i64,
    source: Option<String>,
) -> AppResult<Attempt> {
    Ok(Attempt {
        id: row.id.clone(),
        status: AttemptStatus::parse(&row.status),
        method: PaymentMethod::parse(&row.method)
            .ok_or_else(|| AppError::Internal(format!("attempt method {}", row.method)))?,
        failure: row
            .failure
            .as_deref()
            .and_then(crate::store::sql::from_wire_name),
        answers: serde_json::from_str(&row.form).unwrap_or_default(),
        amount_cents,
        order_id: row.order_id.clone(),
        source,
    })
}

pub(super) fn source_label(record: &TransactionRecord) -> Option<String> {
    let view = &record.view;
    match (view.card_brand, view.bank) {
        (Some(brand), _) => Some(format!(
            "{} •••• {}",
            acquirer::brand_name(brand),
            view.account_last_digits
        )),
        (None, Some(bank)) => Some(bank_name(bank).to_string()),
        _ => None,
    }
}

/// Reads an attempt with what the pages show of it.
pub(super) async fn read_attempt<'e, E>(
    executor: E,
    page: &PublicPage,
    row: AttemptRow,
) -> AppResult<Attempt>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let record = match &row.transaction_id {
        Some(id) => {
            transactions::find_transaction(executor, &page.merchant_id, page.page.mode, id).await?
        }
        None => None,
    };
    let amount = record.as_ref().map_or(0, |r| r.view.amount_cents);
    let source = record.as_ref().and_then(source_label);
    let mut attempt = to_attempt(&row, amount, source)?;
    // A step past its expiry is never offered again, even before the
    // scheduler records the order as abandoned.
    if super::has_expired(&row, page.now_ms) {
        attempt.status = AttemptStatus::Failed;
        attempt.failure = Some(PayFailure::Abandoned);
    }
    Ok(attempt)
}

pub async fn find_attempt(
    db: &Db,
    page: &PublicPage,
    attempt_id: &str,
) -> AppResult<Option<Attempt>> {
    if !crate::ids::is_well_formed_id(attempt_id) {
        return Ok(None);
    }
    let Some(row) = attempt_of_page(&db.pool, page, attempt_id).await? else {
        return Ok(None);
    };
    Ok(Some(read_attempt(&db.pool, page, row).await?))
}

/// One attempt of this page, in its merchant and mode.
pub(super) async fn attempt_of_page<'e, E>(
    executor: E,
    page: &PublicPage,
    attempt_id: &str,
) -> AppResult<Option<AttemptRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    pay_attempts::find_attempt(
        executor,
        &page.merchant_id,
        page.page.mode,
        &page.page.id,
        attempt_id,
    )
    .await
}
