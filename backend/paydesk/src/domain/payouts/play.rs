//! The payout lifecycle, played by the scheduler on each business day of a
//! stream: payouts submitted on an earlier business day are paid or fail
//! (the simulated bank decides from the account number; a failed payout's
//! money comes back as a `payout_return` entry), the schedule makes its
//! automatic payout, and pending payouts are submitted. Each step is
//! guarded by the payout's status, so replaying a day changes nothing.

use protocol::{Change, PayoutKind, PayoutStatus};
use time::Date;

use super::rules::{self, settlement_debit};
use super::views::{payout_view, push_step, schedule_of};
use super::{create_payout, settlement_destination};
use crate::domain::Scope;
use crate::domain::bank::{PayoutOutcome, SimulatedBank};
use crate::domain::calendar::{is_business_day, iso_date};
use crate::domain::ledger;
use crate::domain::lifecycle::payout::{PayoutEvent, transition};
use crate::domain::scope::stream_now_ms;
use crate::error::{AppError, AppResult};
use crate::store::Tx;
use crate::store::payouts::{self as store, PayoutRow};
use crate::store::sql::wire_name;

pub async fn play_day(tx: &mut Tx, scope: &Scope, day: Date) -> AppResult<Vec<Change>> {
    if !is_business_day(day) {
        return Ok(Vec::new());
    }
    let iso = iso_date(day);
    let mut moved = settle_submitted(tx, scope, &iso).await?;
    if let Some(payout) = automatic_payout(tx, scope, day).await? {
        moved.push(payout);
    }
    moved.extend(submit_pending(tx, scope, &iso).await?);
    // A payout made and submitted in the same step is sent once, as it ends.
    let mut last: Vec<PayoutRow> = Vec::new();
    for row in moved {
        last.retain(|seen| seen.id != row.id);
        last.push(row);
    }
    last.iter()
        .map(|row| {
            Ok(Change::PayoutUpserted {
                payout: Box::new(payout_view(row)?),
            })
        })
        .collect()
}

fn status_name(status: PayoutStatus) -> String {
    wire_name(&status)
}

/// The payout's move by its table; the scheduler asks only for moves the
/// status it read allows, so a refusal is a defect.
fn step(from: PayoutStatus, event: PayoutEvent) -> AppResult<PayoutStatus> {
    transition(from, event).map_err(|e| AppError::Internal(format!("payout: {e}")))
}

/// Submitted on an earlier business day: the bank's answer arrives.
async fn settle_submitted(tx: &mut Tx, scope: &Scope, day: &str) -> AppResult<Vec<PayoutRow>> {
    let submitted = status_name(PayoutStatus::Submitted);
    let mut moved = Vec::new();
    for mut row in store::payouts_in_status(tx, &scope.merchant_id, scope.mode, &submitted).await? {
        if row.submitted_on.as_deref().is_none_or(|on| on >= day) {
            continue;
        }
        let now = stream_now_ms(&mut **tx, scope).await?;
        let outcome = SimulatedBank::payout_outcome(&row.account_number);
        let status = step(
            PayoutStatus::Submitted,
            match outcome {
                PayoutOutcome::Paid => PayoutEvent::Pay,
                PayoutOutcome::Failed(_) => PayoutEvent::Fail,
            },
        )?;
        if let PayoutOutcome::Failed(reason) = outcome {
            row.failure = Some(reason.to_string());
        }
        row.status = status_name(status);
        row.history = push_step(&row.history, status, day, now)?;
        row.updated_at = now;
        if !store::update_payout(tx, &row, &submitted).await? {
            continue;
        }
        if outcome != PayoutOutcome::Paid {
            store::insert_payout_entry(tx, &row, "payout_return", row.amount_cents, day, now)
                .await?;
        }
        moved.push(row);
    }
    Ok(moved)
}

/// The schedule's payout of the day, once: the whole available balance
/// when it reaches the schedule's minimum.
async fn automatic_payout(tx: &mut Tx, scope: &Scope, day: Date) -> AppResult<Option<PayoutRow>> {
    let Some(settings) = store::read_settings(&mut **tx, &scope.merchant_id, scope.mode).await?
    else {
        return Ok(None);
    };
    let schedule = schedule_of(&settings)?;
    if !rules::schedule_due(&schedule, day) {
        return Ok(None);
    }
    let iso = iso_date(day);
    if store::has_schedule_payout(tx, &scope.merchant_id, scope.mode, &iso).await? {
        return Ok(None);
    }
    let Some(mut to) = settlement_destination(&settings) else {
        return Ok(None);
    };
    let available = ledger::balance(&mut **tx, &scope.merchant_id, scope.mode, day)
        .await?
        .available_cents;
    if available < schedule.minimum_cents {
        return Ok(None);
    }
    let Some(debit) = settlement_debit(available) else {
        return Ok(None);
    };
    to.schedule_day = Some(iso);
    Ok(Some(create_payout(tx, scope, to, debit, day).await?))
}

/// Pending payouts whose day has come go to the bank, with the bank's
/// instruction written in this same transaction. Payouts to the
/// settlement account wait out a hold after the account changed.
async fn submit_pending(tx: &mut Tx, scope: &Scope, day: &str) -> AppResult<Vec<PayoutRow>> {
    let pending = status_name(PayoutStatus::Pending);
    let held_until = store::read_settings(&mut **tx, &scope.merchant_id, scope.mode)
        .await?
        .and_then(|s| s.held_until);
    let held = match held_until {
        Some(until) => stream_now_ms(&mut **tx, scope).await? < until,
        None => false,
    };
    let settlement = wire_name(&PayoutKind::Settlement);
    let mut moved = Vec::new();
    for mut row in store::payouts_in_status(tx, &scope.merchant_id, scope.mode, &pending).await? {
        if row.requested_on.as_str() > day || (held && row.kind == settlement) {
            continue;
        }
        let now = stream_now_ms(&mut **tx, scope).await?;
        let status = step(PayoutStatus::Pending, PayoutEvent::Submit)?;
        row.status = status_name(status);
        row.submitted_on = Some(day.to_string());
        row.history = push_step(&row.history, status, day, now)?;
        row.updated_at = now;
        // Written over the status it was read in: a payout another node
        // submitted first is not sent to the bank twice.
        if !store::update_payout(tx, &row, &pending).await? {
            continue;
        }
        store::record_submission(tx, &row, day, now).await?;
        moved.push(row);
    }
    Ok(moved)
}
