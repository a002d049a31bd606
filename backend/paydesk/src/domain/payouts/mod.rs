//! Money out of a merchant stream: the settlement account, the payout
//! schedule, manual payouts and payouts to customers. Every payout debits
//! the ledger (`payout`, `payout_fee`) in the command's own write
//! transaction, after checking the available balance there: the stream's
//! write lock (the `merchant_streams` row on PostgreSQL, the file's one
//! writer on SQLite) orders it against every other write of the stream, so
//! concurrent payouts on any node never take the balance below zero.
//! The scheduler moves payouts on (`play`).

pub mod play;
pub mod rules;
mod views;

use protocol::{
    Change, Command, ErrorCode, PayoutKind, PayoutSchedule, PayoutStatus, ReplyBody, WireError,
};

use super::banking::{AccountUse, accepted, add_bank_verification, checked_bank_account};
use super::calendar::iso_date;
use super::ledger;
use super::mail::compose_action;
use super::scope::{stream_now_ms, stream_today};
use super::{Effect, Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, now_ms};
use crate::store::bank_accounts::{
    CheckedAccount, account_type_name, bank_name, find_bank_account,
};
use crate::store::payouts::{self as store, PayoutRow, SettingsRow};
use crate::store::{Db, Tx, clocks, mail, transactions, webhooks};
use rules::{Debit, customer_debit, settlement_debit};
pub use views::{payout_view, settings_view};

pub fn is_payout_command(command: &Command) -> bool {
    matches!(
        command,
        Command::SetSettlementAccount { .. }
            | Command::SetPayoutSchedule { .. }
            | Command::RequestPayout { .. }
            | Command::PayoutToCustomer { .. }
    )
}

/// Runs a payout command. `confirmed` is the member's password or code for
/// `SetSettlementAccount`, checked before the command was queued (a slow
/// hash must not hold the stream's write lock).
pub async fn run_payout_command(
    tx: &mut Tx,
    scope: &Scope,
    command: &Command,
    confirmed: Option<&Result<(), WireError>>,
) -> AppResult<Effect> {
    match command {
        Command::SetSettlementAccount { input, .. } => {
            // The form's own mistakes, the bank's word on the number and a
            // wrong password are told together, not one after the other.
            let (clean, mut fields) = checked_bank_account(input);
            match confirmed {
                Some(Ok(())) => {
                    // The bank is asked for a confirmed member only.
                    add_bank_verification(&clean, AccountUse::Payouts, &mut fields);
                    if !fields.is_empty() {
                        return Err(AppError::Invalid(fields));
                    }
                }
                Some(Err(refused)) if refused.fields.is_empty() || fields.is_empty() => {
                    return Err(AppError::Refused(refused.clone()));
                }
                Some(Err(refused)) => {
                    fields.extend(refused.fields.iter().cloned());
                    return Err(AppError::Invalid(fields));
                }
                None => return Err(AppError::field("confirmation", ErrorCode::WrongPassword)),
            }
            set_settlement_account(tx, scope, &accepted(clean, fields)?).await
        }
        Command::SetPayoutSchedule { schedule } => set_schedule(tx, scope, schedule).await,
        Command::RequestPayout { amount_cents } => request_payout(tx, scope, *amount_cents).await,
        Command::PayoutToCustomer {
            customer_id,
            bank_account_id,
            amount_cents,
            reason,
            transaction_id,
        } => {
            let to = CustomerPayout {
                customer_id,
                bank_account_id,
                amount_cents: *amount_cents,
                reason,
                transaction_id: transaction_id.as_deref(),
            };
            payout_to_customer(tx, scope, &to).await
        }
        _ => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}

fn default_settings() -> SettingsRow {
    SettingsRow {
        schedule_interval: "off".into(),
        ..SettingsRow::default()
    }
}

async fn settings_changed(tx: &mut Tx, scope: &Scope) -> AppResult<Change> {
    let row = store::read_settings(&mut **tx, &scope.merchant_id, scope.mode)
        .await?
        .unwrap_or_else(default_settings);
    let ahead = clocks::stream_clock_ahead_ms(&mut **tx, &scope.merchant_id, scope.mode).await?;
    Ok(Change::PayoutSettingsUpdated {
        settings: Box::new(settings_view(&row, ahead)?),
    })
}

/// Stores an account checked by the form's rules and the bank.
async fn set_settlement_account(
    tx: &mut Tx,
    scope: &Scope,
    clean: &CheckedAccount,
) -> AppResult<Effect> {
    let stream_now = stream_now_ms(&mut **tx, scope).await?;
    let mut row = store::read_settings(&mut **tx, &scope.merchant_id, scope.mode)
        .await?
        .unwrap_or_else(default_settings);
    row.bank = Some(bank_name(clean.bank));
    row.branch_code = Some(clean.branch_code.clone());
    row.account_type = Some(account_type_name(clean.account_type));
    row.holder_name = Some(clean.holder_name.clone());
    row.account_number = Some(clean.account_number.clone());
    row.verified_at = Some(stream_now);
    row.held_until = Some(stream_now.saturating_add(rules::ACCOUNT_HOLD_MS));
    store::write_settings(tx, &scope.merchant_id, scope.mode, &row, stream_now).await?;
    // The mail tells the owners when, by the wall clock: a changed
    // settlement account is a security event, not a test record.
    mail_owners(tx, scope, &clean.account_number, now_ms()).await?;
    Ok(Effect {
        changes: vec![settings_changed(tx, scope).await?],
        id: None,
    })
}

/// Every owner hears of a new settlement account, in their language.
async fn mail_owners(tx: &mut Tx, scope: &Scope, account_number: &str, now: i64) -> AppResult<()> {
    let last4 = views::last4(account_number);
    let when = super::mail::mail_time(now);
    let link = format!("{}/account/payouts", scope.origin.trim_end_matches('/'));
    for owner in webhooks::owner_recipients(tx, &scope.merchant_id).await? {
        let message = compose_action(
            "settlement_account_changed",
            owner.language,
            &owner.email,
            &[
                ("name", owner.name.as_str()),
                ("last4", last4.as_str()),
                ("when", when.as_str()),
            ],
            &link,
        );
        mail::enqueue(tx, &message).await?;
    }
    Ok(())
}

async fn set_schedule(tx: &mut Tx, scope: &Scope, schedule: &PayoutSchedule) -> AppResult<Effect> {
    let clean = rules::check_schedule(schedule)
        .map_err(|field| AppError::field(field, ErrorCode::InvalidChoice))?;
    let mut row = store::read_settings(&mut **tx, &scope.merchant_id, scope.mode)
        .await?
        .unwrap_or_else(default_settings);
    row.schedule_interval = crate::store::sql::wire_name(&clean.interval);
    row.schedule_weekday = i64::from(clean.weekday);
    row.schedule_day = i64::from(clean.day_of_month);
    row.minimum_cents = clean.minimum_cents;
    let now = stream_now_ms(&mut **tx, scope).await?;
    store::write_settings(tx, &scope.merchant_id, scope.mode, &row, now).await?;
    Ok(Effect {
        changes: vec![settings_changed(tx, scope).await?],
        id: None,
    })
}

/// Where a new payout goes, and why.
pub(crate) struct Destination {
    pub kind: PayoutKind,
    pub holder_name: String,
    pub account_number: String,
    pub customer_id: Option<String>,
    pub bank_account_id: Option<String>,
    pub transaction_id: Option<String>,
    pub reason: Option<String>,
    /// The schedule's business day, for an automatic payout.
    pub schedule_day: Option<String>,
}

async fn request_payout(tx: &mut Tx, scope: &Scope, amount_cents: i64) -> AppResult<Effect> {
    let debit = settlement_debit(amount_cents)
        .ok_or_else(|| AppError::field("amountCents", ErrorCode::PayoutBelowFee))?;
    let settings = store::read_settings(&mut **tx, &scope.merchant_id, scope.mode).await?;
    let Some(to) = settings.as_ref().and_then(settlement_destination) else {
        return Err(AppError::Code(ErrorCode::NoSettlementAccount));
    };
    let today = stream_today(tx, scope).await?;
    let payout = create_payout(tx, scope, to, debit, today).await?;
    Ok(Effect {
        id: Some(payout.id.clone()),
        changes: vec![Change::PayoutUpserted {
            payout: Box::new(payout_view(&payout)?),
        }],
    })
}

pub(crate) fn settlement_destination(row: &SettingsRow) -> Option<Destination> {
    Some(Destination {
        kind: PayoutKind::Settlement,
        holder_name: row.holder_name.clone()?,
        account_number: row.account_number.clone()?,
        customer_id: None,
        bank_account_id: None,
        transaction_id: None,
        reason: None,
        schedule_day: None,
    })
}

struct CustomerPayout<'a> {
    customer_id: &'a str,
    bank_account_id: &'a str,
    amount_cents: i64,
    reason: &'a str,
    transaction_id: Option<&'a str>,
}

async fn payout_to_customer(
    tx: &mut Tx,
    scope: &Scope,
    to: &CustomerPayout<'_>,
) -> AppResult<Effect> {
    let customer_id = checked_id(to.customer_id)?;
    let account_id = checked_id(to.bank_account_id)?;
    let debit = customer_debit(to.amount_cents)
        .filter(|_| to.amount_cents <= 100_000_000_000)
        .ok_or_else(|| AppError::field("amountCents", ErrorCode::InvalidAmount))?;
    let reason = to.reason.trim();
    if reason.is_empty() {
        return Err(AppError::field("reason", ErrorCode::Required));
    }
    if reason.chars().count() > 140 {
        return Err(AppError::field("reason", ErrorCode::TooLong));
    }
    let account = find_bank_account(tx, &scope.merchant_id, scope.mode, account_id)
        .await?
        .filter(|a| a.customer_id == customer_id)
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let transaction_id = match to.transaction_id {
        Some(id) => {
            let found = transactions::find_transaction(
                &mut **tx,
                &scope.merchant_id,
                scope.mode,
                checked_id(id)?,
            )
            .await?
            .filter(|t| t.view.customer_id.as_deref() == Some(customer_id))
            .ok_or(AppError::Code(ErrorCode::NotFound))?;
            Some(found.view.id)
        }
        None => None,
    };
    let today = stream_today(tx, scope).await?;
    let destination = Destination {
        kind: PayoutKind::Customer,
        holder_name: account.holder_name,
        account_number: account.account_number,
        customer_id: Some(customer_id.to_string()),
        bank_account_id: Some(account.id),
        transaction_id,
        reason: Some(reason.to_string()),
        schedule_day: None,
    };
    let payout = create_payout(tx, scope, destination, debit, today).await?;
    Ok(Effect {
        id: Some(payout.id.clone()),
        changes: vec![Change::PayoutUpserted {
            payout: Box::new(payout_view(&payout)?),
        }],
    })
}

/// Writes a pending payout, its ledger debits and the lines it settles,
/// after checking the available balance in this transaction: the caller
/// holds the stream's write lock, so no other payout can pass the same
/// check before this one commits.
pub(crate) async fn create_payout(
    tx: &mut Tx,
    scope: &Scope,
    to: Destination,
    debit: Debit,
    today: time::Date,
) -> AppResult<PayoutRow> {
    let balance = ledger::balance(&mut **tx, &scope.merchant_id, scope.mode, today).await?;
    if debit.total_cents > balance.available_cents {
        return Err(AppError::Code(ErrorCode::InsufficientBalance));
    }
    let day = iso_date(today);
    let open = store::open_entries(tx, &scope.merchant_id, scope.mode, &day).await?;
    let lines = rules::allocate(&open, debit.total_cents).ok_or_else(|| {
        AppError::Internal("the open ledger entries do not cover the available balance".into())
    })?;
    let now = stream_now_ms(&mut **tx, scope).await?;
    let automatic = to.schedule_day.is_some();
    let row = PayoutRow {
        id: new_id("po"),
        merchant_id: scope.merchant_id.clone(),
        mode: scope.mode,
        kind: crate::store::sql::wire_name(&to.kind),
        status: crate::store::sql::wire_name(&PayoutStatus::Pending),
        amount_cents: debit.total_cents,
        fee_cents: debit.fee_cents,
        net_cents: debit.net_cents,
        automatic,
        holder_name: to.holder_name,
        account_number: to.account_number,
        customer_id: to.customer_id,
        bank_account_id: to.bank_account_id,
        transaction_id: to.transaction_id,
        reason: to.reason,
        failure: None,
        requested_on: day.clone(),
        submitted_on: None,
        history: views::push_step("[]", PayoutStatus::Pending, &day, now)?,
        schedule_day: to.schedule_day,
        created_at: now,
        updated_at: now,
    };
    store::insert_payout(tx, &row).await?;
    let sent = debit.total_cents - debit.fee_cents;
    store::insert_payout_entry(tx, &row, "payout", -sent, &day, now).await?;
    store::insert_payout_entry(tx, &row, "payout_fee", -debit.fee_cents, &day, now).await?;
    for (entry_id, amount) in lines {
        store::insert_line(tx, &row, &entry_id, amount).await?;
    }
    Ok(row)
}

pub async fn get_settings(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let row = store::read_settings(&db.pool, &scope.merchant_id, scope.mode)
        .await?
        .unwrap_or_else(default_settings);
    let ahead = clocks::stream_clock_ahead_ms(&db.pool, &scope.merchant_id, scope.mode).await?;
    Ok(ReplyBody::PayoutSettings {
        settings: Box::new(settings_view(&row, ahead)?),
    })
}

pub async fn list_payouts(
    db: &Db,
    scope: &Scope,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let limit = i64::from(limit.unwrap_or(50).clamp(1, 100));
    let after = cursor.map(checked_id).transpose()?;
    let rows =
        store::list_payouts(&db.pool, &scope.merchant_id, scope.mode, after, limit + 1).await?;
    let more = rows.len() as i64 > limit;
    let payouts = rows
        .iter()
        .take(limit as usize)
        .map(payout_view)
        .collect::<AppResult<Vec<_>>>()?;
    let next_cursor = if more {
        payouts.last().map(|p| p.id.clone())
    } else {
        None
    };
    Ok(ReplyBody::Payouts {
        payouts,
        next_cursor,
    })
}

pub async fn get_payout(db: &Db, scope: &Scope, payout_id: &str) -> AppResult<ReplyBody> {
    let id = checked_id(payout_id)?;
    let row = store::find_payout(&db.pool, &scope.merchant_id, scope.mode, id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let lines = store::lines_of(&db.pool, &scope.merchant_id, scope.mode, id).await?;
    Ok(ReplyBody::Payout {
        detail: Box::new(protocol::PayoutDetail {
            payout: payout_view(&row)?,
            lines,
        }),
    })
}

#[cfg(test)]
mod tests;
