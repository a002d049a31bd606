//! A payer who leaves at the 3-D Secure or bank step does not keep an order
//! pending for good. The step expires [`PAYER_STEP_EXPIRY_MS`] after it was
//! offered, by the stream's clock (the test clock's in test mode, so moving
//! it on a day expires it too): the order is then abandoned, its transaction
//! withdrawn before it reached the bank, and the card kept for the step
//! forgotten. An answer after that changes nothing and charges nothing.

use protocol::{Change, PayFailure};
use time::Date;

use super::super::charges::settle;
use super::attempts::AttemptStatus;
use super::form::{KeptAnswers, answers_json};
use crate::domain::clock::BusinessClock;
use crate::domain::debits;
use crate::error::{AppError, AppResult};
use crate::ids::now_ms;
use crate::store::pay_attempts::{self, AttemptRow};
use crate::store::stream::{self, Actor, Cause, StreamKey, Work};
use crate::store::{Db, Tx, clocks, orders, transactions};

/// How long the 3-D Secure or bank step waits for the payer: 30 minutes,
/// well past the few minutes a real challenge takes, as the payment
/// gateways' checkout sessions do.
pub const PAYER_STEP_EXPIRY_MS: i64 = 30 * 60 * 1000;

/// When a step offered at `now` (the stream's clock) expires.
pub(super) fn expiry_from(now: i64) -> i64 {
    now.saturating_add(PAYER_STEP_EXPIRY_MS)
}

/// Whether the attempt still waits on the payer.
pub(super) fn is_waiting(status: AttemptStatus) -> bool {
    matches!(
        status,
        AttemptStatus::AwaitingThreeDs | AttemptStatus::AwaitingBank
    )
}

/// Whether the attempt waits on the payer past its expiry at `now`, the
/// stream's clock. An attempt from before expiries were kept expires by
/// the time it was made.
pub fn has_expired(row: &AttemptRow, now: i64) -> bool {
    let expires_at = row
        .expires_at
        .unwrap_or_else(|| expiry_from(row.created_at));
    is_waiting(AttemptStatus::parse(&row.status)) && now >= expires_at
}

/// Ends an expired attempt inside the caller's write: the order abandoned,
/// the transaction withdrawn, the pending card forgotten. Returns the
/// changes; none when another writer ended the attempt first.
pub(super) async fn abandon(
    tx: &mut Tx,
    row: &mut AttemptRow,
    today: Date,
) -> AppResult<Vec<Change>> {
    let (merchant_id, mode) = (row.merchant_id.clone(), row.mode);
    let mut order = orders::find_order(&mut **tx, &merchant_id, mode, &row.order_id)
        .await?
        .ok_or_else(|| AppError::Internal(format!("attempt {} has no order", row.id)))?;
    let transaction_id = row.transaction_id.clone().unwrap_or_default();
    let mut record = transactions::find_transaction(&mut **tx, &merchant_id, mode, &transaction_id)
        .await?
        .ok_or_else(|| AppError::Internal(format!("attempt {} has no transaction", row.id)))?;
    let now = clocks::stream_now_ms(&mut **tx, &merchant_id, mode).await?;
    settle(
        &mut order,
        &mut record,
        Err(PayFailure::Abandoned),
        (today, now),
    )?;
    let from = row.status.clone();
    let mut answers: KeptAnswers = serde_json::from_str(&row.form).unwrap_or_default();
    answers.pending_card = None;
    row.form = answers_json(&answers)?;
    row.status = AttemptStatus::Failed.as_str().to_string();
    row.failure = Some(crate::store::sql::wire_name(&PayFailure::Abandoned));
    row.updated_at = now;
    if !pay_attempts::advance_attempt(tx, row, &from).await? {
        return Ok(Vec::new());
    }
    orders::update_order(tx, &merchant_id, &order).await?;
    debits::save_transaction(tx, &merchant_id, mode, &record, row.updated_at).await?;
    Ok(vec![
        Change::TransactionUpserted {
            transaction: Box::new(record.view),
        },
        Change::OrderUpserted {
            order: Box::new(order),
        },
    ])
}

/// The scheduler's round: every attempt of the stream whose step expired
/// is abandoned, in one event, so the merchant's list shows it without the
/// payer coming back. Returns the committed delta, if any.
pub async fn abandon_expired(
    db: &Db,
    clock: BusinessClock,
    key: &StreamKey,
) -> AppResult<Option<(u64, Vec<Change>)>> {
    let (merchant_id, mode) = (key.merchant_id.as_str(), key.mode);
    let offset = clocks::read_clock(&db.pool, merchant_id, mode)
        .await?
        .map_or(0, |c| c.offset_days);
    let now = clocks::on_stream_clock(mode, offset, now_ms());
    // A read first: most rounds find nothing and take no lock.
    let expired: Vec<AttemptRow> = pay_attempts::waiting_attempts(&db.pool, merchant_id, mode)
        .await?
        .into_iter()
        .filter(|row| has_expired(row, now))
        .collect();
    if expired.is_empty() {
        return Ok(None);
    }
    let today = clock.today(mode, offset);
    let cause = Cause::background(Actor::Scheduler);
    let written = stream::write(db, key, &cause, async |tx: &mut Tx, _seq| {
        let mut changes = Vec::new();
        for seen in &expired {
            // Read again under the stream's lock: the payer may have answered.
            let fresh =
                pay_attempts::find_attempt(&mut **tx, merchant_id, mode, &seen.page_id, &seen.id)
                    .await?;
            if let Some(mut row) = fresh.filter(|row| has_expired(row, now)) {
                changes.extend(abandon(tx, &mut row, today).await?);
            }
        }
        Ok(if changes.is_empty() {
            Work::Unchanged(())
        } else {
            Work::changed(changes, ())
        })
    })
    .await?;
    Ok(written.delta())
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Mode;

    fn row(status: AttemptStatus, created_at: i64, expires_at: Option<i64>) -> AttemptRow {
        AttemptRow {
            id: "att_1".into(),
            merchant_id: "mer_1".into(),
            mode: Mode::Test,
            page_id: "ppg_1".into(),
            attempt_key: "key".into(),
            method: "card".into(),
            status: status.as_str().into(),
            order_id: "ord_1".into(),
            transaction_id: Some("txn_1".into()),
            form: "{}".into(),
            failure: None,
            expires_at,
            created_at,
            updated_at: created_at,
        }
    }

    #[test]
    fn a_waiting_step_expires_thirty_minutes_on_and_no_other_attempt_does() {
        let offered = 1_772_000_000_000;
        let expires = expiry_from(offered);
        assert_eq!(expires - offered, 1_800_000);
        for status in [AttemptStatus::AwaitingThreeDs, AttemptStatus::AwaitingBank] {
            let waiting = row(status, offered, Some(expires));
            assert!(!has_expired(&waiting, offered));
            assert!(!has_expired(&waiting, expires - 1));
            assert!(has_expired(&waiting, expires));
            // A day of the test clock later.
            assert!(has_expired(
                &waiting,
                clocks::on_stream_clock(Mode::Test, 1, offered)
            ));
        }
        for status in [AttemptStatus::Succeeded, AttemptStatus::Failed] {
            assert!(!has_expired(&row(status, offered, Some(expires)), i64::MAX));
        }
    }

    #[test]
    fn an_attempt_from_before_expiries_expires_by_its_creation() {
        let made = 1_772_000_000_000;
        let old = row(AttemptStatus::AwaitingThreeDs, made, None);
        assert!(!has_expired(&old, made + PAYER_STEP_EXPIRY_MS - 1));
        assert!(has_expired(&old, made + PAYER_STEP_EXPIRY_MS));
    }
}
