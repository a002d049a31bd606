//! Cards charged on schedule. A card on file may carry a recurring charge
//! (set when a recurring card page keeps the card, or by the merchant); the
//! scheduler makes each charge on its date as an order and a transaction,
//! like a merchant's charge of the card.
//!
//! A refused charge is tried again: three tries of the same charge, on its
//! date and 3 and 7 days after it (`RETRY_AFTER_DAYS`). That stays well
//! inside what the card networks allow for a card-not-present charge, and an
//! expired card is never tried at all. When the tries run out the schedule
//! pauses: the merchant's owners are told, and the payer is mailed a link to
//! give a new card, which resumes it (`card_updates`).

use protocol::{
    CardPauseReason, CardSchedule, CardScheduleStatus, Change, ErrorCode, FieldError, PageInterval,
    PaymentKind, PaymentMethod,
};
use time::{Date, Duration};

use super::super::calendar::{add_business_days, add_months, iso_date, parse_iso_date};
use super::super::{Effect, Scope, checked_id, collection_rules as rule};
use super::acquirer;
use super::card_mails::{self, PayerMail};
use super::charges::{ChargeRequest, Source, open_charge, settle};
use crate::domain::debits;
use crate::domain::scope::stream_today;
use crate::error::{AppError, AppResult};
use crate::store::{Tx, cards as store, customers, orders};

/// Tries of one charge before the schedule pauses.
pub const MAX_TRIES: u32 = 3;
/// Days after the charge's date on which the second and third tries run.
pub const RETRY_AFTER_DAYS: [i64; 2] = [3, 7];
/// The first charge is announced this many business days ahead.
pub const FIRST_CHARGE_NOTICE_BUSINESS_DAYS: i64 = 3;

const REFERENCE_MAX: usize = 30;

/// What the merchant sets on a card on file.
pub struct Plan<'a> {
    pub amount_cents: i64,
    pub interval: PageInterval,
    pub reference: &'a str,
    pub start_date: &'a str,
}

/// The date after `date` on the schedule.
pub fn next_date(date: Date, interval: PageInterval) -> Date {
    let months = match interval {
        PageInterval::Monthly => 1,
        PageInterval::Annually => 12,
    };
    add_months(date, months).unwrap_or(date)
}

/// The schedule a recurring card page's card gets: the checkout was the
/// first charge, so the next is one interval later.
pub fn after_checkout(
    amount_cents: i64,
    interval: PageInterval,
    reference: &str,
    today: Date,
) -> CardSchedule {
    CardSchedule {
        amount_cents,
        interval,
        reference: reference.to_string(),
        status: CardScheduleStatus::Active,
        next_charge_date: iso_date(next_date(today, interval)),
        retry_date: None,
        failed_tries: 0,
        pause_reason: None,
    }
}

fn card_expired(card: &protocol::Card, day: Date) -> bool {
    (i32::from(card.expiry_year), card.expiry_month) < (day.year(), u8::from(day.month()))
}

async fn load(tx: &mut Tx, scope: &Scope, card_id: &str) -> AppResult<store::StoredCard> {
    store::find_card(
        &mut **tx,
        &scope.merchant_id,
        scope.mode,
        checked_id(card_id)?,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))
}

fn upserted(stored: &store::StoredCard) -> Change {
    Change::CardUpserted {
        card: Box::new(stored.card.clone()),
    }
}

/// Sets (or replaces) the recurring charge of a card on file.
pub async fn schedule_card(
    tx: &mut Tx,
    scope: &Scope,
    card_id: &str,
    plan: Plan<'_>,
) -> AppResult<Effect> {
    let mut stored = load(tx, scope, card_id).await?;
    let today = stream_today(tx, scope).await?;
    let reference = plan.reference.trim();
    let mut errors = Vec::new();
    let mut field = |name: &str, code| {
        errors.push(FieldError {
            field: name.into(),
            code,
        })
    };
    if let Err(code) = rule::amount(plan.amount_cents) {
        field("amountCents", code);
    }
    if let Err(code) = rule::reference(reference, REFERENCE_MAX) {
        field("reference", code);
    }
    let start = parse_iso_date(plan.start_date.trim());
    match start {
        None => field("startDate", ErrorCode::InvalidDate),
        Some(start) if start < today => field("startDate", ErrorCode::DateInPast),
        Some(_) => {}
    }
    if !errors.is_empty() {
        return Err(AppError::Invalid(errors));
    }
    if card_expired(&stored.card, today) {
        return Err(AppError::Code(ErrorCode::CardExpired));
    }
    let start = start.unwrap_or(today);
    if stored.payer.email.is_none() {
        // A card kept before schedules existed: the customer's address.
        let customer = customers::find_customer_in_tx(
            tx,
            &scope.merchant_id,
            scope.mode,
            &stored.card.customer_id,
        )
        .await?;
        stored.payer.email = customer.map(|c| c.email).filter(|e| !e.is_empty());
    }
    stored.card.schedule = Some(CardSchedule {
        amount_cents: plan.amount_cents,
        interval: plan.interval,
        reference: reference.to_string(),
        status: CardScheduleStatus::Active,
        next_charge_date: iso_date(start),
        retry_date: None,
        failed_tries: 0,
        pause_reason: None,
    });
    stored.payer.scheduled_charges = 0;
    stored.payer.first_reminder_sent = false;
    store::save_card(tx, &scope.merchant_id, &stored).await?;
    Ok(Effect {
        changes: vec![upserted(&stored)],
        id: Some(stored.card.id),
    })
}

/// Stops a card's recurring charge; the card stays on file.
pub async fn stop_schedule(tx: &mut Tx, scope: &Scope, card_id: &str) -> AppResult<Effect> {
    let mut stored = load(tx, scope, card_id).await?;
    let Some(schedule) = stored.card.schedule.as_mut() else {
        return Err(AppError::Code(ErrorCode::NotFound));
    };
    schedule.status = CardScheduleStatus::Stopped;
    schedule.retry_date = None;
    store::save_card(tx, &scope.merchant_id, &stored).await?;
    Ok(Effect {
        changes: vec![upserted(&stored)],
        id: Some(stored.card.id),
    })
}

/// The date a schedule's charge (or its retry) is due.
fn due_on(schedule: &CardSchedule) -> Option<Date> {
    parse_iso_date(
        schedule
            .retry_date
            .as_ref()
            .unwrap_or(&schedule.next_charge_date),
    )
}

/// Active schedules with a charge due on or before `day`.
pub async fn due_cards(tx: &mut Tx, scope: &Scope, day: Date) -> AppResult<Vec<String>> {
    Ok(store::scheduled_cards(tx, &scope.merchant_id, scope.mode)
        .await?
        .into_iter()
        .filter(|s| {
            s.card
                .schedule
                .as_ref()
                .and_then(due_on)
                .is_some_and(|due| due <= day)
        })
        .map(|s| s.card.id)
        .collect())
}

/// Makes the charge due on `day` of one card: its order and transaction,
/// and the schedule moved on (next date, a retry, or paused). Nothing when
/// the charge is no longer due (another node made it first).
pub async fn charge_due_card(
    tx: &mut Tx,
    scope: &Scope,
    card_id: &str,
    day: Date,
) -> AppResult<Vec<Change>> {
    let mut stored = load(tx, scope, card_id).await?;
    let Some(mut schedule) = stored.card.schedule.clone() else {
        return Ok(Vec::new());
    };
    let due = due_on(&schedule);
    if schedule.status != CardScheduleStatus::Active || due.is_none_or(|due| due > day) {
        return Ok(Vec::new());
    }
    let nominal = parse_iso_date(&schedule.next_charge_date).unwrap_or(day);
    let mut changes = Vec::new();
    if card_expired(&stored.card, day) {
        // No network lets an expired card be charged: pause at once.
        pause(
            tx,
            scope,
            &mut stored,
            &mut schedule,
            CardPauseReason::CardExpired,
        )
        .await?;
        store::save_card(tx, &scope.merchant_id, &stored).await?;
        changes.push(upserted(&stored));
        return Ok(changes);
    }
    let try_number = schedule.failed_tries + 1;
    let today = iso_date(day);
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let card = &stored.card;
    let request = ChargeRequest {
        mode: scope.mode,
        page_id: card.page_id.as_deref(),
        description: &schedule.reference,
        amount_cents: schedule.amount_cents,
        reference: &schedule.reference,
        payer_name: &card.customer_name,
        payer_email: stored.payer.email.as_deref(),
        customer_id: Some(&card.customer_id),
        kind: PaymentKind::Recurring,
        method: PaymentMethod::Card,
        source: Source::Card {
            brand: card.brand,
            last_four: card.last_four.clone(),
        },
        today: &today,
        now,
    };
    let (mut order, mut record) = open_charge(&request);
    record.view.attempt = try_number;
    let result = acquirer::charge_on_file(&stored.token, try_number);
    settle(&mut order, &mut record, result, (day, now))?;
    orders::insert_order(tx, &scope.merchant_id, &order).await?;
    debits::insert_transaction(tx, &scope.merchant_id, scope.mode, &record).await?;
    changes.push(Change::TransactionUpserted {
        transaction: Box::new(record.view),
    });
    changes.push(Change::OrderUpserted {
        order: Box::new(order),
    });
    match result {
        Ok(()) => {
            schedule.failed_tries = 0;
            schedule.retry_date = None;
            // A stream that was behind charges once, then keeps to its dates.
            let mut next = next_date(nominal, schedule.interval);
            while next <= day {
                next = next_date(next, schedule.interval);
            }
            schedule.next_charge_date = iso_date(next);
            stored.payer.scheduled_charges += 1;
        }
        Err(_) if try_number < MAX_TRIES => {
            schedule.failed_tries = try_number;
            let offset = RETRY_AFTER_DAYS
                .get(try_number as usize - 1)
                .copied()
                .unwrap_or(7);
            let retry = (nominal + Duration::days(offset)).max(day.next_day().unwrap_or(day));
            schedule.retry_date = Some(iso_date(retry));
        }
        Err(_) => {
            schedule.failed_tries = try_number;
            pause(
                tx,
                scope,
                &mut stored,
                &mut schedule,
                CardPauseReason::RetriesExhausted,
            )
            .await?;
        }
    }
    stored.card.schedule = Some(schedule);
    store::save_card(tx, &scope.merchant_id, &stored).await?;
    changes.push(upserted(&stored));
    Ok(changes)
}

/// Pauses a schedule, tells the merchant's owners and mails the payer a
/// link to give a new card.
async fn pause(
    tx: &mut Tx,
    scope: &Scope,
    stored: &mut store::StoredCard,
    schedule: &mut CardSchedule,
    reason: CardPauseReason,
) -> AppResult<()> {
    schedule.status = CardScheduleStatus::Paused;
    schedule.retry_date = None;
    schedule.pause_reason = Some(reason);
    stored.card.schedule = Some(schedule.clone());
    card_mails::tell_owners(tx, scope, stored, reason).await?;
    let mail = match reason {
        CardPauseReason::RetriesExhausted => PayerMail::Refused,
        CardPauseReason::CardExpired => PayerMail::Expired,
    };
    card_mails::mail_payer(tx, scope, stored, mail).await
}

/// The reminders of the day, each mailed once in the payer's language: a
/// schedule's first charge a few business days ahead, and a card that
/// expires before its next charge, from the month before it expires.
pub async fn send_reminders(tx: &mut Tx, scope: &Scope, day: Date) -> AppResult<Vec<Change>> {
    let mut changes = Vec::new();
    for mut stored in store::scheduled_cards(tx, &scope.merchant_id, scope.mode).await? {
        let Some(schedule) = stored.card.schedule.clone() else {
            continue;
        };
        if stored.payer.email.is_none() {
            continue;
        }
        let Some(next) = parse_iso_date(&schedule.next_charge_date) else {
            continue;
        };
        let mut reminded = false;
        let first_soon = stored.payer.scheduled_charges == 0
            && schedule.failed_tries == 0
            && day < next
            && add_business_days(day, FIRST_CHARGE_NOTICE_BUSINESS_DAYS) >= next;
        if first_soon && !stored.payer.first_reminder_sent {
            card_mails::mail_payer(tx, scope, &stored, PayerMail::FirstCharge).await?;
            stored.payer.first_reminder_sent = true;
            reminded = true;
        }
        if !stored.payer.expiry_reminder_sent && expires_soon(&stored.card, day, next) {
            card_mails::mail_payer(tx, scope, &stored, PayerMail::Expiring).await?;
            stored.payer.expiry_reminder_sent = true;
            reminded = true;
        }
        if reminded {
            store::save_card(tx, &scope.merchant_id, &stored).await?;
            changes.push(upserted(&stored));
        }
    }
    Ok(changes)
}

/// From the first day of the month before the card's expiry month, when the
/// schedule still has a charge after the card stops working.
fn expires_soon(card: &protocol::Card, day: Date, next_charge: Date) -> bool {
    let month_index = |year: i32, month: u8| year * 12 + i32::from(month) - 1;
    let expiry = month_index(i32::from(card.expiry_year), card.expiry_month);
    let today = month_index(day.year(), u8::from(day.month()));
    let next = month_index(next_charge.year(), u8::from(next_charge.month()));
    today >= expiry - 1 && today <= expiry && next >= expiry
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use time::macros::date;

    use super::*;

    fn card(month: u8, year: u16) -> protocol::Card {
        protocol::Card {
            id: "card_1".into(),
            mode: protocol::Mode::Test,
            customer_id: "cus_1".into(),
            customer_name: "Lerato".into(),
            brand: protocol::CardBrand::Visa,
            last_four: "4242".into(),
            expiry_month: month,
            expiry_year: year,
            page_id: None,
            schedule: None,
            created_at: 0,
        }
    }

    #[test]
    fn schedules_step_by_their_interval() {
        let start = date!(2026 - 03 - 02);
        assert_eq!(
            next_date(start, PageInterval::Monthly),
            date!(2026 - 04 - 02)
        );
        assert_eq!(
            next_date(start, PageInterval::Annually),
            date!(2027 - 03 - 02)
        );
        let schedule = after_checkout(15_000, PageInterval::Monthly, "YOGA", start);
        assert_eq!(schedule.next_charge_date, "2026-04-02");
        assert_eq!(schedule.status, CardScheduleStatus::Active);
    }

    #[test]
    fn tries_stay_within_the_networks_limits() {
        // Three tries in eight days; Visa allows up to 15 retries in 30 days.
        assert_eq!(MAX_TRIES, 3);
        assert_eq!(RETRY_AFTER_DAYS.len() as u32, MAX_TRIES - 1);
        assert!(RETRY_AFTER_DAYS.windows(2).all(|w| w[0] < w[1]));
        assert!(RETRY_AFTER_DAYS.iter().all(|d| *d <= 30));
    }

    #[test]
    fn expiry_is_announced_from_the_month_before() {
        let next = date!(2026 - 04 - 02);
        assert!(expires_soon(&card(3, 2026), date!(2026 - 03 - 02), next));
        assert!(expires_soon(&card(4, 2026), date!(2026 - 03 - 02), next));
        assert!(!expires_soon(&card(5, 2026), date!(2026 - 03 - 02), next));
        // The next charge is before the card expires: nothing to say yet.
        assert!(!expires_soon(
            &card(4, 2026),
            date!(2026 - 03 - 02),
            date!(2026 - 03 - 20)
        ));
        assert!(card_expired(&card(2, 2026), date!(2026 - 03 - 02)));
        assert!(!card_expired(&card(3, 2026), date!(2026 - 03 - 31)));
    }
}
