//! Payouts and payout settings as the wire shows them.

use protocol::{
    Payout, PayoutInterval, PayoutSchedule, PayoutSettings, PayoutStatus, PayoutStep,
    SettlementAccount,
};

use super::rules::payout_fee_cents;
use crate::error::{AppError, AppResult};
use crate::store::payouts::{PayoutRow, SettingsRow};
use crate::store::sql::stored;

/// The last four digits: the only part of an account number shown again.
pub(crate) fn last4(number: &str) -> String {
    let digits: Vec<char> = number.chars().collect();
    digits[digits.len().saturating_sub(4)..].iter().collect()
}

/// The history JSON with one more step.
pub(crate) fn push_step(
    history: &str,
    status: PayoutStatus,
    day: &str,
    at: i64,
) -> AppResult<String> {
    let mut steps: Vec<PayoutStep> = serde_json::from_str(history)
        .map_err(|e| AppError::Internal(format!("payout history: {e}")))?;
    steps.push(PayoutStep {
        status,
        date: day.to_string(),
        at,
    });
    serde_json::to_string(&steps).map_err(|e| AppError::Internal(format!("payout history: {e}")))
}

pub fn payout_view(row: &PayoutRow) -> AppResult<Payout> {
    Ok(Payout {
        id: row.id.clone(),
        kind: stored(&row.kind, "payout kind")?,
        status: stored(&row.status, "payout status")?,
        amount_cents: row.amount_cents,
        fee_cents: row.fee_cents,
        net_cents: row.net_cents,
        automatic: row.automatic,
        holder_name: row.holder_name.clone(),
        account_last4: last4(&row.account_number),
        customer_id: row.customer_id.clone(),
        bank_account_id: row.bank_account_id.clone(),
        transaction_id: row.transaction_id.clone(),
        reason: row.reason.clone(),
        failure: row.failure.clone(),
        requested_on: row.requested_on.clone(),
        history: serde_json::from_str(&row.history)
            .map_err(|e| AppError::Internal(format!("payout history: {e}")))?,
        created_at: row.created_at,
        updated_at: row.updated_at,
    })
}

pub fn schedule_of(row: &SettingsRow) -> AppResult<PayoutSchedule> {
    let interval: PayoutInterval = stored(&row.schedule_interval, "payout interval")?;
    Ok(PayoutSchedule {
        interval,
        weekday: u8::try_from(row.schedule_weekday).unwrap_or(0),
        day_of_month: u8::try_from(row.schedule_day).unwrap_or(0),
        minimum_cents: row.minimum_cents,
    })
}

/// `clock_ahead_ms` is how far the stream's clock runs ahead of the wall
/// clock: a hold shows only while it lasts, on the stream's clock.
pub fn settings_view(row: &SettingsRow, clock_ahead_ms: i64) -> AppResult<PayoutSettings> {
    let stream_now = crate::ids::now_ms().saturating_add(clock_ahead_ms);
    let account = match (
        &row.bank,
        &row.branch_code,
        &row.account_type,
        &row.holder_name,
        &row.account_number,
    ) {
        (Some(bank), Some(branch), Some(kind), Some(holder), Some(number)) => {
            Some(SettlementAccount {
                bank: stored(bank, "bank")?,
                branch_code: branch.clone(),
                account_type: stored(kind, "account type")?,
                holder_name: holder.clone(),
                account_last4: last4(number),
                verified_at: row.verified_at.unwrap_or_default(),
            })
        }
        _ => None,
    };
    Ok(PayoutSettings {
        account,
        schedule: schedule_of(row)?,
        held_until: row.held_until.filter(|until| *until > stream_now),
        clock_ahead_ms,
        fee_cents: payout_fee_cents(),
    })
}
