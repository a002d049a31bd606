//! The scheduler's business day: on each date the payer's bank answers
//! DebiCheck requests, reports on debits already sent, and due collections
//! are raised and sent. Everything here runs inside one write transaction
//! of the merchant stream and returns the changes for its delta.

use std::collections::{BTreeMap, BTreeSet};

use protocol::{
    Change, Mandate, MandateStatus, PaymentKind, PaymentMethod, PaymentStatus, Transaction,
    TransactionStatus, TransactionStep,
};
use time::Date;

use super::bank::{Authentication, Bank, ScriptedEvent, SimulatedBank};
use super::calendar::{add_business_days, iso_date, parse_iso_date};
use super::debits::{insert_transaction, save_transaction, step, transaction_change};
use super::lifecycle::mandate::MandateEvent;
use super::lifecycle::payment::{PaymentEvent, StopReason};
use super::lifecycle::transaction::TransactionEvent;
use super::payments::catch_up_schedule;
use super::retry::{RetryDecision, UnpaidCode, decide_after_unpaid, needs_new_mandate};
use super::scope::clock_row;
use super::{Scope, mandates, payments, representations};
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::Tx;
use crate::store::clocks::{self};
use crate::store::customers as customer_store;
use crate::store::mandates as mandate_store;
use crate::store::payments::{self as payment_store, PaymentRecord, Scheduled};
use crate::store::transactions::{self as store, TransactionRecord};

/// The bank's reports as stored: `day:event` pairs.
fn encode_script(script: &[ScriptedEvent]) -> String {
    script
        .iter()
        .map(|step| {
            let event = match step.event {
                TransactionEvent::Send => "send".to_string(),
                TransactionEvent::Accept => "accept".to_string(),
                TransactionEvent::RejectByBank => "reject".to_string(),
                TransactionEvent::Track => "track".to_string(),
                TransactionEvent::Pay => "pay".to_string(),
                TransactionEvent::ReturnUnpaid(code) => format!("unpaid{}", code.code()),
                TransactionEvent::Dispute => "dispute".to_string(),
                TransactionEvent::Reverse => "reverse".to_string(),
                TransactionEvent::Cancel => "cancel".to_string(),
            };
            format!("{}:{event}", step.day)
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn decode_script(text: &str) -> AppResult<Vec<ScriptedEvent>> {
    text.split(',')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let bad = || AppError::Internal(format!("bank script: {part}"));
            let (day, event) = part.split_once(':').ok_or_else(bad)?;
            let event = match event {
                "send" => TransactionEvent::Send,
                "accept" => TransactionEvent::Accept,
                "reject" => TransactionEvent::RejectByBank,
                "track" => TransactionEvent::Track,
                "pay" => TransactionEvent::Pay,
                "dispute" => TransactionEvent::Dispute,
                "reverse" => TransactionEvent::Reverse,
                "cancel" => TransactionEvent::Cancel,
                other => TransactionEvent::ReturnUnpaid(
                    other
                        .strip_prefix("unpaid")
                        .and_then(UnpaidCode::parse)
                        .ok_or_else(bad)?,
                ),
            };
            Ok(ScriptedEvent {
                day: day.parse().map_err(|_| bad())?,
                event,
            })
        })
        .collect()
}

/// A debit the payer's bank tracks is retried for at most the mandate's
/// tracking days; without tracking (EFT, or switched off) the shortfall is
/// an unpaid 02 straight away.
pub fn limit_tracking(script: Vec<ScriptedEvent>, tracking_days: Option<u8>) -> Vec<ScriptedEvent> {
    let Some(track_at) = script
        .iter()
        .position(|s| s.event == TransactionEvent::Track)
    else {
        return script;
    };
    let start = script[track_at].day;
    let unpaid = TransactionEvent::ReturnUnpaid(UnpaidCode::NotProvidedFor);
    match tracking_days {
        None | Some(0) => {
            let mut cut: Vec<_> = script[..track_at].to_vec();
            cut.push(ScriptedEvent {
                day: start,
                event: unpaid,
            });
            cut
        }
        Some(days) => {
            let limit = start.saturating_add(days);
            let paid_in_time = script[track_at + 1..].iter().all(|s| s.day <= limit);
            if paid_in_time {
                script
            } else {
                let mut cut: Vec<_> = script[..=track_at].to_vec();
                cut.push(ScriptedEvent {
                    day: limit,
                    event: unpaid,
                });
                cut
            }
        }
    }
}

/// Payments touched during one business day, written once at the end of
/// each phase so later phases read them back as changed.
#[derive(Default)]
struct Touched {
    payments: BTreeMap<String, PaymentRecord>,
}

impl Touched {
    async fn payment(
        &mut self,
        tx: &mut Tx,
        scope: &Scope,
        id: &str,
    ) -> AppResult<&mut PaymentRecord> {
        if !self.payments.contains_key(id) {
            let record = payments::load(tx, scope, id).await?;
            self.payments.insert(id.to_string(), record);
        }
        self.payments
            .get_mut(id)
            .ok_or_else(|| AppError::Internal("payment".into()))
    }

    /// The days the mandate's other payments touched today collect on.
    fn days_of_mandate(&self, mandate_id: &str, except: &str) -> BTreeSet<Date> {
        self.payments
            .values()
            .filter(|p| p.view.mandate_id == mandate_id && p.view.id != except)
            .flat_map(|p| representations::days_of(&p.view))
            .collect()
    }

    async fn flush(
        &mut self,
        tx: &mut Tx,
        scope: &Scope,
        changes: &mut Vec<Change>,
    ) -> AppResult<()> {
        for (_, record) in std::mem::take(&mut self.payments) {
            changes.push(payments::save(tx, scope, &record).await?);
        }
        Ok(())
    }
}

/// Plays out one business date and returns what changed.
pub async fn run_business_day(tx: &mut Tx, scope: &Scope, day: Date) -> AppResult<Vec<Change>> {
    let mut changes = Vec::new();
    answer_authentications(tx, scope, day, &mut changes).await?;
    complete_ended_mandates(tx, scope, day, &mut changes).await?;
    raise_due_representations(tx, scope, day, &mut changes).await?;
    play_bank_reports(tx, scope, day, &mut changes).await?;
    raise_due_collections(tx, scope, day, &mut changes).await?;
    complete_finished_payments(tx, scope, &mut changes).await?;
    // Scheduled card charges were each their own event before this one
    // (`charge_next_due_card`); the day mails their reminders.
    changes.extend(super::commerce::card_schedules::send_reminders(tx, scope, day).await?);
    Ok(changes)
}

async fn answer_authentications(
    tx: &mut Tx,
    scope: &Scope,
    day: Date,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let today = iso_date(day);
    for id in mandate_store::due_authentications(tx, &scope.merchant_id, scope.mode, &today).await?
    {
        let account =
            mandate_store::mandate_account_number(tx, &scope.merchant_id, scope.mode, &id)
                .await?
                .unwrap_or_default();
        let answer = SimulatedBank.authenticate_mandate(&account);
        settle_authentication(tx, scope, &id, answer, day, changes).await?;
    }
    Ok(())
}

/// The bank's answer to a mandate's authentication: an approved mandate's
/// pending payments start, a rejected one's stop. Shared by the scheduler's
/// due answers and the payer's signing pages, where the payer answers.
pub(crate) async fn settle_authentication(
    tx: &mut Tx,
    scope: &Scope,
    id: &str,
    answer: Authentication,
    day: Date,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let mut mandate = mandates::load(tx, scope, id).await?;
    mandates::apply(&mut mandate, answer.mandate_event())?;
    mandate.authentication_due = None;
    let mandate = mandates::save(tx, scope, &mandate).await?;
    let status = mandate.status;
    let allow_adjustment = mandate.allow_date_adjustment;
    changes.push(Change::MandateUpserted {
        mandate: Box::new(mandate),
    });
    match status {
        MandateStatus::Active => {
            for mut record in
                payment_store::open_payments_of_mandate(tx, &scope.merchant_id, scope.mode, id)
                    .await?
            {
                if record.view.status == PaymentStatus::Pending
                    && (record.view.method != PaymentMethod::EftDebitOrder)
                {
                    payments::apply(&mut record.view, PaymentEvent::Start)?;
                    catch_up_schedule(&mut record, allow_adjustment, day);
                    changes.push(payments::save(tx, scope, &record).await?);
                }
            }
        }
        MandateStatus::Rejected => {
            changes.extend(payments::stop_payments_of_mandate(tx, scope, id).await?);
        }
        _ => {}
    }
    Ok(())
}

async fn complete_ended_mandates(
    tx: &mut Tx,
    scope: &Scope,
    day: Date,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let today = iso_date(day);
    for id in mandate_store::ended_mandates(tx, &scope.merchant_id, scope.mode, &today).await? {
        let mut mandate = mandates::load(tx, scope, &id).await?;
        mandates::apply(&mut mandate, MandateEvent::Complete)?;
        let mandate = mandates::save(tx, scope, &mandate).await?;
        changes.push(Change::MandateUpserted {
            mandate: Box::new(mandate),
        });
    }
    Ok(())
}

async fn play_bank_reports(
    tx: &mut Tx,
    scope: &Scope,
    day: Date,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let mut touched = Touched::default();
    for mut record in store::open_transactions(tx, &scope.merchant_id, scope.mode).await? {
        let script = decode_script(&record.script)?;
        let Some(action) = parse_iso_date(&record.view.action_date) else {
            continue;
        };
        let before = record.script_step;
        while let Some(report) = script.get(record.script_step as usize) {
            let due = add_business_days(action, i64::from(report.day));
            if due > day {
                break;
            }
            step(&mut record, report.event, due)?;
            record.script_step += 1;
            settle(tx, scope, &mut touched, &record, report.event, changes).await?;
        }
        if record.script_step != before {
            let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
            save_transaction(tx, &scope.merchant_id, scope.mode, &record, now).await?;
            changes.push(transaction_change(tx, scope, &record.view.id).await?);
        }
    }
    touched.flush(tx, scope, changes).await
}

/// What a bank report means for the payment (and, for some codes, the mandate).
async fn settle(
    tx: &mut Tx,
    scope: &Scope,
    touched: &mut Touched,
    record: &TransactionRecord,
    event: TransactionEvent,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let amount = record.view.amount_cents;
    // Only debit orders have a schedule whose totals move with the bank's reports.
    let Some(payment_id) = record.view.payment_id.clone() else {
        return Ok(());
    };
    match event {
        TransactionEvent::Pay => {
            let payment = touched.payment(tx, scope, &payment_id).await?;
            payment.view.collected_cents += amount;
            payment.view.consecutive_unpaids = 0;
        }
        TransactionEvent::Reverse => {
            let payment = touched.payment(tx, scope, &payment_id).await?;
            payment.view.collected_cents -= amount;
        }
        TransactionEvent::ReturnUnpaid(code) => {
            let was_paid = record
                .view
                .history
                .iter()
                .rev()
                .nth(1)
                .is_some_and(|s| s.status == TransactionStatus::Paid);
            let payment = touched.payment(tx, scope, &payment_id).await?;
            if was_paid {
                payment.view.collected_cents -= amount;
            }
            if payments::is_ended(payment.view.status) {
                return Ok(());
            }
            match decide_after_unpaid(code, payment.view.consecutive_unpaids) {
                RetryDecision::RetryOnNextDate => {
                    payment.view.consecutive_unpaids += 1;
                    payment.view.representation_cents = Some(amount);
                    // Days of the mandate's other payments this day already moved.
                    let mandate_id = payment.view.mandate_id.clone();
                    let pending = touched.days_of_mandate(&mandate_id, &payment_id);
                    let payment = touched.payment(tx, scope, &payment_id).await?;
                    representations::plan_after_unpaid(tx, scope, payment, &pending).await?;
                }
                RetryDecision::StopPayment { reason } => {
                    if code == UnpaidCode::NotProvidedFor {
                        payment.view.consecutive_unpaids += 1;
                    }
                    representations::clear(&mut payment.view);
                    payments::apply(
                        &mut payment.view,
                        PaymentEvent::Stop(StopReason::Unpaid(reason)),
                    )?;
                    if needs_new_mandate(reason) {
                        let mandate_id = payment.view.mandate_id.clone();
                        touched.flush(tx, scope, changes).await?;
                        disable_mandate(tx, scope, &mandate_id, changes).await?;
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// A return that needs a new mandate ends the old one and its payments.
async fn disable_mandate(
    tx: &mut Tx,
    scope: &Scope,
    mandate_id: &str,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let mut mandate = mandates::load(tx, scope, mandate_id).await?;
    if mandates::apply(&mut mandate, MandateEvent::Disable).is_err() {
        return Ok(());
    }
    let mandate = mandates::save(tx, scope, &mandate).await?;
    changes.push(Change::MandateUpserted {
        mandate: Box::new(mandate),
    });
    changes.extend(payments::stop_payments_of_mandate(tx, scope, mandate_id).await?);
    Ok(())
}

/// What a debit is known by on the payer's bank statement and in the
/// merchant's books: the payment's own reference, else its mandate's
/// contract reference, else the customer's reference (the number the
/// merchant knows the payer by, which an EFT debit order entered without
/// references still has). Only a payment with none of these goes by its id.
async fn bank_reference(
    tx: &mut Tx,
    scope: &Scope,
    record: &PaymentRecord,
    mandate: &Mandate,
) -> AppResult<String> {
    for own in [
        &record.view.transaction_reference,
        &mandate.contract_reference,
    ] {
        if !own.is_empty() {
            return Ok(own.clone());
        }
    }
    let customer = customer_store::find_customer_in_tx(
        tx,
        &scope.merchant_id,
        scope.mode,
        &record.view.customer_id,
    )
    .await?;
    Ok(customer
        .map(|customer| customer.reference)
        .filter(|reference| !reference.is_empty())
        .unwrap_or_else(|| record.view.id.clone()))
}

/// The mandate a due payment collects under, when it may collect today: a
/// suspended mandate's recurring schedule skips the date (a once-off debit
/// waits until it is resumed), and a payment of an ended mandate stops.
async fn collecting_mandate(
    tx: &mut Tx,
    scope: &Scope,
    record: &mut PaymentRecord,
    day: Date,
    changes: &mut Vec<Change>,
) -> AppResult<Option<Mandate>> {
    let mandate = mandates::load(tx, scope, &record.view.mandate_id).await?;
    match mandate.status {
        MandateStatus::Active => return Ok(Some(mandate)),
        MandateStatus::Suspended => {
            if record.view.kind == PaymentKind::Recurring {
                payments::plan_next(
                    record,
                    mandate.allow_date_adjustment,
                    add_business_days(day, 1),
                );
                changes.push(payments::save(tx, scope, record).await?);
            }
        }
        // Any other mandate has ended: nothing more may be debited.
        _ => {
            payments::apply(
                &mut record.view,
                PaymentEvent::Stop(StopReason::MandateEnded),
            )?;
            changes.push(payments::save(tx, scope, record).await?);
        }
    }
    Ok(None)
}

/// Raises one debit of `record` under `mandate` on `day` and sends it.
async fn raise_debit(
    tx: &mut Tx,
    scope: &Scope,
    record: &mut PaymentRecord,
    mandate: &Mandate,
    (amount, attempt): (i64, u32),
    day: Date,
) -> AppResult<()> {
    let today = iso_date(day);
    let account =
        mandate_store::mandate_account_number(tx, &scope.merchant_id, scope.mode, &mandate.id)
            .await?
            .unwrap_or_default();
    let tracking = match mandate.method {
        PaymentMethod::EftDebitOrder => None,
        _ if mandate.allow_tracking => mandate.tracking_days,
        _ => None,
    };
    let reference = bank_reference(tx, scope, record, mandate).await?;
    let script = limit_tracking(SimulatedBank.submit_collection(&account), tracking);
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let mut txn = TransactionRecord {
        view: super::ledger::priced(Transaction {
            id: new_id("txn"),
            mode: scope.mode,
            payment_id: Some(record.view.id.clone()),
            payment_kind: record.view.kind,
            mandate_id: Some(mandate.id.clone()),
            order_id: None,
            customer_id: Some(record.view.customer_id.clone()),
            customer_name: record.view.customer_name.clone(),
            method: record.view.method,
            bank: Some(mandate.bank),
            card_brand: None,
            account_last_digits: mandate.account_last_digits.clone(),
            failure: None,
            reference,
            amount_cents: amount,
            action_date: today.clone(),
            status: TransactionStatus::Pending,
            unpaid_code: None,
            attempt,
            history: vec![TransactionStep {
                status: TransactionStatus::Pending,
                date: today,
                unpaid_code: None,
            }],
            fee_cents: 0,
            net_cents: 0,
            follow_ups: Vec::new(),
            created_at: now,
            updated_at: now,
        }),
        script: encode_script(&script),
        script_step: 0,
        settled_on: None,
    };
    step(&mut txn, TransactionEvent::Send, day)?;
    insert_transaction(tx, &scope.merchant_id, scope.mode, &txn).await?;
    record.view.attempts += 1;
    Ok(())
}

async fn raise_due_collections(
    tx: &mut Tx,
    scope: &Scope,
    day: Date,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let today = iso_date(day);
    for mut record in payment_store::due(
        tx,
        &scope.merchant_id,
        scope.mode,
        Scheduled::Regular,
        &today,
    )
    .await?
    {
        let Some(mandate) = collecting_mandate(tx, scope, &mut record, day, changes).await? else {
            continue;
        };
        // A once-off payment raises its debit once; a retry is a re-presentation.
        if record.view.kind == PaymentKind::Recurring || record.view.attempts == 0 {
            let first = record.view.attempts == 0;
            let amount = match record.view.first_collection_cents {
                Some(first_amount) if first => first_amount,
                _ => record.view.amount_cents,
            };
            raise_debit(tx, scope, &mut record, &mandate, (amount, 1), day).await?;
        }
        // A once-off payment has no date after this one.
        payments::plan_next(
            &mut record,
            mandate.allow_date_adjustment,
            add_business_days(day, 1),
        );
        changes.push(payments::save(tx, scope, &record).await?);
    }
    // The bank reports on the action date itself (every script starts on
    // day 0), which also announces the new debits.
    play_bank_reports(tx, scope, day, changes).await
}

/// Unpaid 02s presented again today. They go first thing, before the
/// bank's reports: an unpaid returned today would otherwise replace one
/// still waiting to go. Never beside another debit of the mandate today,
/// raised or still to be raised: then it moves on to the next free day.
async fn raise_due_representations(
    tx: &mut Tx,
    scope: &Scope,
    day: Date,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let today = iso_date(day);
    for mut record in payment_store::due(
        tx,
        &scope.merchant_id,
        scope.mode,
        Scheduled::Representation,
        &today,
    )
    .await?
    {
        let mandate = mandates::load(tx, scope, &record.view.mandate_id).await?;
        let clear = match mandate.status {
            MandateStatus::Active => {
                representations::clear_to_raise(tx, scope, &mut record, day).await?
            }
            // It waits until the mandate is resumed, and is checked again then.
            MandateStatus::Suspended => continue,
            _ => {
                payments::apply(
                    &mut record.view,
                    PaymentEvent::Stop(StopReason::MandateEnded),
                )?;
                false
            }
        };
        if clear && let Some(amount) = record.view.representation_cents {
            let attempt = record.view.consecutive_unpaids + 1;
            raise_debit(tx, scope, &mut record, &mandate, (amount, attempt), day).await?;
            representations::clear(&mut record.view);
        }
        changes.push(payments::save(tx, scope, &record).await?);
    }
    Ok(())
}

async fn complete_finished_payments(
    tx: &mut Tx,
    scope: &Scope,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    for mut record in payment_store::exhausted_payments(tx, &scope.merchant_id, scope.mode).await? {
        let unsettled =
            store::unsettled_of_payment(tx, &scope.merchant_id, scope.mode, &record.view.id)
                .await?;
        if unsettled.is_empty() {
            payments::apply(&mut record.view, PaymentEvent::Complete)?;
            changes.push(payments::save(tx, scope, &record).await?);
        }
    }
    Ok(())
}

/// Test mode only: moves the stream's clock ahead. The scheduler then plays
/// the span out a day at a time, so the merchant watches it happen.
pub async fn advance_test_clock(
    tx: &mut Tx,
    scope: &Scope,
    step: protocol::ClockStep,
) -> AppResult<super::Effect> {
    if scope.mode != protocol::Mode::Test {
        return Err(AppError::Code(protocol::ErrorCode::TestModeOnly));
    }
    let mut row = clock_row(tx, scope, scope.clock).await?;
    let today = scope.clock.today(scope.mode, row.offset_days);
    row.offset_days += super::clock::step_days(today, step);
    clocks::write_clock(tx, &scope.merchant_id, scope.mode, &row).await?;
    Ok(super::Effect {
        changes: Vec::new(),
        id: None,
    })
}

/// Today, the last date played, and the date the next step plays.
fn next_day_of(scope: &Scope, row: &clocks::ClockRow) -> (Date, Date, Date) {
    let today = scope.clock.today(scope.mode, row.offset_days);
    let played = parse_iso_date(&row.processed_through).unwrap_or(today);
    let day = if played < today {
        played.next_day().unwrap_or(today)
    } else {
        today
    };
    (today, played, day)
}

/// Makes one scheduled card charge due on the date the next step plays, as
/// its own event: what it changed, or nothing when no charge is due.
pub async fn charge_next_due_card(tx: &mut Tx, scope: &Scope) -> AppResult<Vec<Change>> {
    use super::commerce::card_schedules;
    let row = clock_row(tx, scope, scope.clock).await?;
    let (_, _, day) = next_day_of(scope, &row);
    for card_id in card_schedules::due_cards(tx, scope, day).await? {
        let changes = card_schedules::charge_due_card(tx, scope, &card_id, day).await?;
        if !changes.is_empty() {
            return Ok(changes);
        }
    }
    Ok(Vec::new())
}

/// Where one scheduler step got to.
pub struct DayStep {
    pub changes: Vec<Change>,
    /// Days remain before the stream's today.
    pub more: bool,
}

/// The next date to play (the day after the last one played, or today
/// again for work that became due since), played inside `tx`.
pub async fn play_next_day(tx: &mut Tx, scope: &Scope) -> AppResult<DayStep> {
    let mut row = clock_row(tx, scope, scope.clock).await?;
    let (today, played, day) = next_day_of(scope, &row);
    let mut changes = run_business_day(tx, scope, day).await?;
    changes.extend(super::payouts::play::play_day(tx, scope, day).await?);
    if day > played {
        row.processed_through = iso_date(day);
        clocks::write_clock(tx, &scope.merchant_id, scope.mode, &row).await?;
        changes.push(Change::ClockAdvanced {
            today: iso_date(day),
        });
    }
    Ok(DayStep {
        changes,
        more: day < today,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::bank::Outcome;

    #[test]
    fn scripts_survive_storage() {
        for outcome in [
            Outcome::Paid,
            Outcome::Unpaid(UnpaidCode::AccountClosed),
            Outcome::RejectedByBank,
            Outcome::TrackedThenPaid,
            Outcome::Disputed,
            Outcome::Reversed,
        ] {
            let script = outcome.script();
            assert_eq!(decode_script(&encode_script(&script)).ok(), Some(script));
        }
        assert!(decode_script("1:explode").is_err());
    }

    #[test]
    fn tracking_is_cut_at_the_mandates_limit() {
        let tracked = Outcome::TrackedThenPaid.script();
        assert_eq!(limit_tracking(tracked.clone(), Some(10)), tracked);
        let unpaid = TransactionEvent::ReturnUnpaid(UnpaidCode::NotProvidedFor);
        let cut = limit_tracking(tracked.clone(), Some(1));
        assert_eq!(cut.last().map(|s| (s.day, s.event)), Some((2, unpaid)));
        let none = limit_tracking(tracked, None);
        assert_eq!(none.last().map(|s| (s.day, s.event)), Some((1, unpaid)));
        assert!(!none.iter().any(|s| s.event == TransactionEvent::Track));
    }
}
