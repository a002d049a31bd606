//! Unpaid 02s presented again. A re-presentation is due on the schedule's
//! next mandated date (or the day the merchant retries a once-off debit),
//! but a payer is never debited twice on one day under one mandate: it is
//! planned on the first business day after that with no other debit of
//! the mandate, as soon as the unpaid comes back, so the merchant sees the
//! day (and the day it moved from) on the payment before it happens. The
//! scheduler checks again on the day and moves it on if another debit of
//! the mandate arrived there since.

use std::collections::BTreeSet;

use protocol::{ErrorCode, FieldError, Payment, PaymentKind, PaymentStatus};
use time::{Date, Duration};

use super::calendar::{add_business_days, is_business_day, iso_date, parse_iso_date};
use super::lifecycle::payment::PaymentEvent;
use super::payments::{self, next_collection, schedule_of};
use super::retry::{Representation, UnpaidCode, representation_day};
use super::{Scope, mandates};
use crate::error::{AppError, AppResult};
use crate::store::Tx;
use crate::store::payments::{self as payment_store, PaymentRecord};
use crate::store::transactions as transaction_store;

/// The days a payment collects on and, when one waits, re-presents on.
pub(crate) fn days_of(payment: &Payment) -> impl Iterator<Item = Date> + '_ {
    [&payment.next_action_date, &payment.representation_date]
        .into_iter()
        .filter_map(|day| day.as_deref().and_then(parse_iso_date))
}

/// The days from `from` on that `record`'s mandate already has a debit on,
/// or will: debits raised, the next debits of its open payments (this one's
/// too) and their re-presentations (this one's aside, being planned).
async fn taken_days(
    tx: &mut Tx,
    scope: &Scope,
    record: &PaymentRecord,
    from: Date,
) -> AppResult<BTreeSet<Date>> {
    let mandate_id = &record.view.mandate_id;
    let mut taken: BTreeSet<Date> = transaction_store::debit_days_of_mandate(
        tx,
        &scope.merchant_id,
        scope.mode,
        mandate_id,
        &iso_date(from),
    )
    .await?
    .iter()
    .filter_map(|day| parse_iso_date(day))
    .collect();
    for other in
        payment_store::open_payments_of_mandate(tx, &scope.merchant_id, scope.mode, mandate_id)
            .await?
    {
        if other.view.id != record.view.id {
            taken.extend(days_of(&other.view));
        }
    }
    taken.extend(
        record
            .view
            .next_action_date
            .as_deref()
            .and_then(parse_iso_date),
    );
    Ok(taken)
}

/// Forgets a waiting re-presentation (the payment ended, or it was raised).
pub(crate) fn clear(payment: &mut Payment) {
    payment.representation_cents = None;
    payment.representation_date = None;
    payment.representation_moved_from = None;
}

fn set(payment: &mut Payment, planned: Representation) {
    payment.representation_date = Some(iso_date(planned.day));
    // Moved again on the day: it still moved from the day it was first due.
    if payment.representation_moved_from.is_none() {
        payment.representation_moved_from = planned.moved_from.map(iso_date);
    }
}

/// No day is allowed: the unpaid waits for the merchant to retry it, as a
/// once-off debit's does.
fn wait_for_merchant(record: &mut PaymentRecord) -> AppResult<()> {
    record.view.representation_date = None;
    if record.view.status == PaymentStatus::Running {
        payments::apply(&mut record.view, PaymentEvent::Pause)?;
        record.view.stop_reason = Some(UnpaidCode::NotProvidedFor.code().to_string());
    }
    Ok(())
}

/// Plans the re-presentation due on `due`, before `before` when given;
/// `pending` holds the mandate's days written in memory but not yet stored.
/// Returns whether a day was found (else it waits for the merchant).
async fn plan_from(
    tx: &mut Tx,
    scope: &Scope,
    record: &mut PaymentRecord,
    due: Date,
    before: Option<Date>,
    pending: &BTreeSet<Date>,
) -> AppResult<bool> {
    let mut taken = taken_days(tx, scope, record, due).await?;
    taken.extend(pending);
    match representation_day(due, before, |day| taken.contains(&day)) {
        Some(planned) => {
            set(&mut record.view, planned);
            Ok(true)
        }
        None => {
            wait_for_merchant(record)?;
            Ok(false)
        }
    }
}

/// The schedule's debit after `next` (its next mandated debit): the day a
/// re-presentation due on `next` must come before.
fn debit_after(record: &PaymentRecord, allow_date_adjustment: bool, next: Date) -> Option<Date> {
    let after = record.next_nominal_date.as_deref().and_then(parse_iso_date);
    let schedule = schedule_of(&record.view)?;
    next_collection(
        &schedule,
        allow_date_adjustment,
        after,
        add_business_days(next, 1),
    )
    .map(|c| c.action)
}

/// An unpaid 02 to present again (`representation_cents` set): a recurring
/// schedule's on its next mandated date, moved off any day of the mandate's
/// other debits and before the date after; a once-off debit's, or one with
/// no date left, waits for the merchant.
pub(crate) async fn plan_after_unpaid(
    tx: &mut Tx,
    scope: &Scope,
    record: &mut PaymentRecord,
    pending: &BTreeSet<Date>,
) -> AppResult<()> {
    let due = match record.view.kind {
        PaymentKind::Recurring => record
            .view
            .next_action_date
            .as_deref()
            .and_then(parse_iso_date),
        PaymentKind::Once => None,
    };
    let Some(due) = due else {
        return wait_for_merchant(record);
    };
    let mandate = mandates::load(tx, scope, &record.view.mandate_id).await?;
    let before = debit_after(record, mandate.allow_date_adjustment, due);
    record.view.representation_moved_from = None;
    plan_from(tx, scope, record, due, before, pending).await?;
    Ok(())
}

/// The merchant's retry of a paused unpaid: from `today`, on the first day
/// the mandate has no other debit. Returns whether a day was found.
pub(crate) async fn plan_retry(
    tx: &mut Tx,
    scope: &Scope,
    record: &mut PaymentRecord,
    today: Date,
) -> AppResult<bool> {
    record.view.representation_moved_from = None;
    plan_from(tx, scope, record, today, None, &BTreeSet::new()).await
}

/// A merchant chooses the day of a waiting re-presentation: within this
/// many days from today when the payment has no later debit to bound it.
const CHOSEN_DAY_WITHIN_DAYS: i64 = 30;

/// The merchant's own day for a waiting re-presentation: a business day
/// from today, free of the mandate's other debits, and before the
/// payment's debit after its next one (the bound of the day planned after
/// the unpaid); a once-off debit's within 30 days. A payment paused to wait
/// for the merchant runs again.
pub(crate) async fn represent_on(
    tx: &mut Tx,
    scope: &Scope,
    record: &mut PaymentRecord,
    day: Date,
    today: Date,
) -> AppResult<()> {
    let refuse = |code| {
        Err(AppError::Invalid(vec![FieldError {
            field: "date".into(),
            code,
        }]))
    };
    if day < today {
        return refuse(ErrorCode::DateInPast);
    }
    if !is_business_day(day) {
        return refuse(ErrorCode::NotBusinessDay);
    }
    let mandate = mandates::load(tx, scope, &record.view.mandate_id).await?;
    if record.view.status == PaymentStatus::Paused {
        payments::apply(&mut record.view, PaymentEvent::Resume)?;
        payments::catch_up_schedule(record, mandate.allow_date_adjustment, today);
    }
    let next = match record.view.kind {
        PaymentKind::Recurring => record
            .view
            .next_action_date
            .as_deref()
            .and_then(parse_iso_date),
        PaymentKind::Once => None,
    };
    let latest = next
        .and_then(|next| debit_after(record, mandate.allow_date_adjustment, next))
        .unwrap_or(today + Duration::days(CHOSEN_DAY_WITHIN_DAYS + 1));
    if day >= latest {
        return refuse(ErrorCode::RepresentationTooLate);
    }
    if taken_days(tx, scope, record, today).await?.contains(&day) {
        return refuse(ErrorCode::DayTaken);
    }
    record.view.representation_date = Some(iso_date(day));
    record.view.representation_moved_from = None;
    Ok(())
}

/// Whether the mandate has a debit today besides this re-presentation:
/// one raised already, or a running payment's (this one's too) due today
/// or overdue, which the day raises after it.
async fn busy_today(
    tx: &mut Tx,
    scope: &Scope,
    record: &PaymentRecord,
    day: Date,
) -> AppResult<bool> {
    let today = iso_date(day);
    let mandate_id = &record.view.mandate_id;
    let raised = transaction_store::debit_days_of_mandate(
        tx,
        &scope.merchant_id,
        scope.mode,
        mandate_id,
        &today,
    )
    .await?;
    if raised.contains(&today) {
        return Ok(true);
    }
    let open =
        payment_store::open_payments_of_mandate(tx, &scope.merchant_id, scope.mode, mandate_id)
            .await?;
    Ok(open.iter().any(|p| {
        p.view.status == PaymentStatus::Running
            && p.view
                .next_action_date
                .as_deref()
                .and_then(parse_iso_date)
                .is_some_and(|next| next <= day)
    }))
}

/// On its day: whether the re-presentation may go to the bank today. When
/// the mandate has another debit today (one that arrived since it was
/// planned) it moves on to the next free day, still before the payment's
/// next debit.
pub(crate) async fn clear_to_raise(
    tx: &mut Tx,
    scope: &Scope,
    record: &mut PaymentRecord,
    day: Date,
) -> AppResult<bool> {
    if !busy_today(tx, scope, record, day).await? {
        return Ok(true);
    }
    if record.view.representation_moved_from.is_none() {
        record.view.representation_moved_from = record.view.representation_date.clone();
    }
    let before = record
        .view
        .next_action_date
        .as_deref()
        .and_then(parse_iso_date)
        .filter(|next| *next > day);
    let mut taken = BTreeSet::new();
    taken.insert(day);
    plan_from(tx, scope, record, day, before, &taken).await?;
    Ok(false)
}
