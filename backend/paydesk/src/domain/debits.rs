//! A transaction's steps through its lifecycle, shared by the scheduler's
//! business day, the merchant's actions on a payment and card charges.

use protocol::{Change, Mode, Transaction, TransactionStatus, TransactionStep};
use time::Date;

use super::calendar::iso_date;
use super::ledger;
use super::lifecycle::transaction::{self as life, TransactionEvent};
use super::retry::UnpaidCode;
use super::scope::{Scope, stream_today};
use crate::error::{AppError, AppResult};
use crate::store::Tx;
use crate::store::transactions::{self as store, TransactionRecord};

fn status_of(status: life::TransactionStatus) -> (TransactionStatus, Option<String>) {
    use life::TransactionStatus as S;
    let plain = |s: TransactionStatus| (s, None);
    match status {
        S::Pending => plain(TransactionStatus::Pending),
        S::SentToBank => plain(TransactionStatus::SentToBank),
        S::AcceptedByBank => plain(TransactionStatus::AcceptedByBank),
        S::RejectedByBank => plain(TransactionStatus::RejectedByBank),
        S::InTracking => plain(TransactionStatus::InTracking),
        S::Paid => plain(TransactionStatus::Paid),
        S::Unpaid(code) => (TransactionStatus::Unpaid, Some(code.code().to_string())),
        S::Disputed => plain(TransactionStatus::Disputed),
        S::Reversed => plain(TransactionStatus::Reversed),
        S::Cancelled => plain(TransactionStatus::Cancelled),
    }
}

fn life_of(view: &Transaction) -> AppResult<life::TransactionStatus> {
    use life::TransactionStatus as S;
    Ok(match view.status {
        TransactionStatus::Pending => S::Pending,
        TransactionStatus::SentToBank => S::SentToBank,
        TransactionStatus::AcceptedByBank => S::AcceptedByBank,
        TransactionStatus::RejectedByBank => S::RejectedByBank,
        TransactionStatus::InTracking => S::InTracking,
        TransactionStatus::Paid => S::Paid,
        TransactionStatus::Unpaid => S::Unpaid(
            view.unpaid_code
                .as_deref()
                .and_then(UnpaidCode::parse)
                .ok_or_else(|| AppError::Internal("unpaid without a code".into()))?,
        ),
        TransactionStatus::Disputed => S::Disputed,
        TransactionStatus::Reversed => S::Reversed,
        TransactionStatus::Cancelled => S::Cancelled,
    })
}

/// Moves a transaction by one event on `date`, keeping its history; a bank's
/// answer (paid, unpaid, rejected) settles it that day. Debit orders and
/// card or pay-by-bank charges both move through here.
pub(crate) fn step(
    record: &mut TransactionRecord,
    event: TransactionEvent,
    date: Date,
) -> AppResult<()> {
    let next = life::transition(life_of(&record.view)?, event)
        .map_err(|e| AppError::Internal(format!("bank script: {e}")))?;
    let (status, code) = status_of(next);
    record.view.status = status;
    if code.is_some() {
        record.view.unpaid_code = code.clone();
    }
    record.view.history.push(TransactionStep {
        status,
        date: iso_date(date),
        unpaid_code: code,
    });
    if matches!(
        event,
        TransactionEvent::Pay | TransactionEvent::ReturnUnpaid(_) | TransactionEvent::RejectByBank
    ) {
        record.settled_on = Some(iso_date(date));
    }
    Ok(())
}

/// Stores a new transaction and the ledger entries its history calls for, in
/// the caller's write transaction: every writer of a transaction goes through
/// here or [`save_transaction`], so the ledger cannot miss a collection.
pub(crate) async fn insert_transaction(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    record: &TransactionRecord,
) -> AppResult<()> {
    store::insert_transaction(tx, merchant_id, mode, record).await?;
    ledger::post_transaction(tx, merchant_id, mode, &record.view).await
}

/// Stores a transaction's new state and the ledger entries it now calls for.
pub(crate) async fn save_transaction(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    record: &TransactionRecord,
    now: i64,
) -> AppResult<()> {
    store::update_transaction(tx, merchant_id, mode, record, now).await?;
    ledger::post_transaction(tx, merchant_id, mode, &record.view).await
}

pub(crate) async fn transaction_change(tx: &mut Tx, scope: &Scope, id: &str) -> AppResult<Change> {
    let record = store::find_transaction(&mut **tx, &scope.merchant_id, scope.mode, id)
        .await?
        .ok_or_else(|| AppError::Internal("transaction vanished".into()))?;
    Ok(Change::TransactionUpserted {
        transaction: Box::new(record.view),
    })
}

/// Withdraws a payment's debits the bank has not taken yet.
pub async fn cancel_unsent(tx: &mut Tx, scope: &Scope, payment_id: &str) -> AppResult<Vec<Change>> {
    let mut changes = Vec::new();
    let today = stream_today(tx, scope).await?;
    for mut record in
        store::unsettled_of_payment(tx, &scope.merchant_id, scope.mode, payment_id).await?
    {
        if matches!(
            record.view.status,
            TransactionStatus::Pending | TransactionStatus::SentToBank
        ) && record.script_step == 0
        {
            step(&mut record, TransactionEvent::Cancel, today)?;
            record.script = String::new();
            let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
            save_transaction(tx, &scope.merchant_id, scope.mode, &record, now).await?;
            changes.push(transaction_change(tx, scope, &record.view.id).await?);
        }
    }
    Ok(changes)
}
