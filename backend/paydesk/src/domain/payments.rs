//! Payments: once-off debits and recurring schedules, each under a mandate.

use protocol::{
    BankAccountChoice, Change, ErrorCode, FieldError, Interval, Mandate, MandateChoice,
    MandateStatus, Payment, PaymentAction, PaymentFilter, PaymentInput, PaymentKind, PaymentMethod,
    PaymentStatus, ReplyBody, SortOrder,
};
use time::Date;

use super::banking::validate_bank_account;
use super::calendar::{
    self, CollectionDate, Schedule, ScheduleError, action_date, iso_date,
    next_business_day_on_or_after, parse_iso_date,
};
use super::debits;
use super::lifecycle::payment::{self as life, PaymentEvent, StopReason};
use super::scope::stream_today;
use super::{Effect, Scope, checked_id, collection_rules as rule, mandates, payment_methods};
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::customers::find_customer_in_tx;
use crate::store::payments::{self as store, PaymentRecord};
use crate::store::sql::PageRequest;
use crate::store::{Db, Tx, bank_accounts, mandates as mandate_store};

pub const MANDATE_ENDED: &str = "mandate_ended";

fn field(errors: &mut Vec<FieldError>, name: &str, result: Result<(), ErrorCode>) {
    if let Err(code) = result {
        errors.push(FieldError {
            field: name.into(),
            code,
        });
    }
}

pub(crate) fn schedule_interval(interval: Interval) -> calendar::Interval {
    match interval {
        Interval::Weekly => calendar::Interval::Weekly,
        Interval::Fortnightly => calendar::Interval::Fortnightly,
        Interval::Monthly => calendar::Interval::Monthly,
        Interval::Quarterly => calendar::Interval::Quarterly,
        Interval::Biannually => calendar::Interval::Biannually,
        Interval::Annually => calendar::Interval::Annually,
    }
}

/// The schedule of a recurring payment as stored.
pub fn schedule_of(payment: &Payment) -> Option<Schedule> {
    let start = parse_iso_date(payment.start_date.as_deref()?)?;
    let end = payment.end_date.as_deref().and_then(parse_iso_date);
    Schedule::new(
        schedule_interval(payment.interval?),
        payment.day_to_process?,
        start,
        end,
    )
    .ok()
}

/// The first collection of a schedule whose debit is on or after `from`
/// and whose nominal date is after `after` (when given).
pub fn next_collection(
    schedule: &Schedule,
    allow_date_adjustment: bool,
    after: Option<Date>,
    from: Date,
) -> Option<CollectionDate> {
    schedule
        .collection_dates(allow_date_adjustment)
        .find(|c| after.is_none_or(|after| c.nominal > after) && c.action >= from)
}

/// Sets the next debit of a payment from `from` on; none left clears it.
pub fn plan_next(record: &mut PaymentRecord, allow_date_adjustment: bool, from: Date) {
    let after = record.next_nominal_date.as_deref().and_then(parse_iso_date);
    let next = match record.view.kind {
        PaymentKind::Once => None,
        PaymentKind::Recurring => schedule_of(&record.view)
            .and_then(|s| next_collection(&s, allow_date_adjustment, after, from)),
    };
    record.next_nominal_date = next.map(|c| iso_date(c.nominal));
    record.view.next_action_date = next.map(|c| iso_date(c.action));
}

fn to_life(payment: &Payment) -> life::PaymentStatus {
    match payment.status {
        PaymentStatus::Pending => life::PaymentStatus::Pending,
        PaymentStatus::Running => life::PaymentStatus::Running,
        PaymentStatus::Paused => life::PaymentStatus::Paused,
        PaymentStatus::Stopped => life::PaymentStatus::Stopped(StopReason::MandateEnded),
        PaymentStatus::Cancelled => life::PaymentStatus::Cancelled,
        PaymentStatus::Completed => life::PaymentStatus::Completed,
    }
}

fn from_life(status: life::PaymentStatus) -> (PaymentStatus, Option<String>) {
    match status {
        life::PaymentStatus::Pending => (PaymentStatus::Pending, None),
        life::PaymentStatus::Running => (PaymentStatus::Running, None),
        life::PaymentStatus::Paused => (PaymentStatus::Paused, None),
        life::PaymentStatus::Stopped(StopReason::Unpaid(code)) => {
            (PaymentStatus::Stopped, Some(code.code().to_string()))
        }
        life::PaymentStatus::Stopped(StopReason::MandateEnded) => {
            (PaymentStatus::Stopped, Some(MANDATE_ENDED.to_string()))
        }
        life::PaymentStatus::Cancelled => (PaymentStatus::Cancelled, None),
        life::PaymentStatus::Completed => (PaymentStatus::Completed, None),
    }
}

/// Applies a lifecycle event in memory; a refused one is `action_not_allowed`.
pub fn apply(payment: &mut Payment, event: PaymentEvent) -> AppResult<()> {
    let next = life::transition(to_life(payment), event)
        .map_err(|_| AppError::Code(ErrorCode::ActionNotAllowed))?;
    let (status, reason) = from_life(next);
    payment.status = status;
    payment.stop_reason = reason;
    if is_ended(payment.status) {
        payment.next_action_date = None;
        super::representations::clear(payment);
    }
    Ok(())
}

/// Stopped, cancelled and completed payments raise no more debits.
pub fn is_ended(status: PaymentStatus) -> bool {
    matches!(
        status,
        PaymentStatus::Stopped | PaymentStatus::Cancelled | PaymentStatus::Completed
    )
}

pub async fn load(tx: &mut Tx, scope: &Scope, payment_id: &str) -> AppResult<PaymentRecord> {
    store::find_payment(&mut **tx, &scope.merchant_id, scope.mode, payment_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))
}

/// Writes the payment and returns its delta.
pub async fn save(tx: &mut Tx, scope: &Scope, record: &PaymentRecord) -> AppResult<Change> {
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    store::update_payment(tx, &scope.merchant_id, scope.mode, record, now).await?;
    let fresh = load(tx, scope, &record.view.id).await?;
    Ok(Change::PaymentUpserted {
        payment: Box::new(fresh.view),
    })
}

/// Stops every open payment of a mandate that ended.
pub async fn stop_payments_of_mandate(
    tx: &mut Tx,
    scope: &Scope,
    mandate_id: &str,
) -> AppResult<Vec<Change>> {
    let open =
        store::open_payments_of_mandate(tx, &scope.merchant_id, scope.mode, mandate_id).await?;
    let mut changes = Vec::new();
    for mut record in open {
        apply(
            &mut record.view,
            PaymentEvent::Stop(StopReason::MandateEnded),
        )?;
        super::representations::clear(&mut record.view);
        changes.push(save(tx, scope, &record).await?);
    }
    Ok(changes)
}

/// The payment's own fields, checked against the stream's `today`.
pub(crate) struct Plan {
    pub first: Option<CollectionDate>,
}

pub(crate) fn validate_payment(
    input: &PaymentInput,
    today: Date,
    errors: &mut Vec<FieldError>,
) -> Plan {
    match input.amount_cents {
        Some(amount) => field(errors, "amountCents", rule::amount(amount)),
        None => field(errors, "amountCents", Err(ErrorCode::Required)),
    }
    match input.kind {
        PaymentKind::Once => {
            let reference = input.transaction_reference.trim();
            if !reference.is_empty() {
                field(
                    errors,
                    "transactionReference",
                    rule::reference(reference, 30),
                );
            }
            match rule::future_date(input.date_to_process.as_deref(), today) {
                Ok(date) => Plan {
                    first: Some(CollectionDate {
                        nominal: date,
                        action: date,
                    }),
                },
                Err(code) => {
                    field(errors, "dateToProcess", Err(code));
                    Plan { first: None }
                }
            }
        }
        PaymentKind::Recurring => {
            if let Some(first) = input.first_collection_cents {
                field(errors, "firstCollectionCents", rule::amount(first));
            }
            let start = rule::future_date(input.start_date.as_deref(), today)
                .map_err(|code| field(errors, "startDate", Err(code)))
                .ok();
            let end = match input
                .end_date
                .as_deref()
                .map(str::trim)
                .filter(|e| !e.is_empty())
            {
                None => None,
                Some(end) => {
                    let parsed = parse_iso_date(end);
                    if parsed.is_none() {
                        field(errors, "endDate", Err(ErrorCode::InvalidDate));
                    }
                    parsed
                }
            };
            let Some(interval) = input.interval else {
                field(errors, "interval", Err(ErrorCode::Required));
                return Plan { first: None };
            };
            let Some(day) = input.day_to_process else {
                field(errors, "dayToProcess", Err(ErrorCode::Required));
                return Plan { first: None };
            };
            let Some(start) = start else {
                return Plan { first: None };
            };
            match Schedule::new(schedule_interval(interval), day, start, end) {
                Ok(_) => Plan { first: None },
                Err(ScheduleError::DayToProcessOutOfRange { .. }) => {
                    field(
                        errors,
                        "dayToProcess",
                        Err(ErrorCode::DayToProcessOutOfRange),
                    );
                    Plan { first: None }
                }
                Err(ScheduleError::EndNotAfterStart) => {
                    field(errors, "endDate", Err(ErrorCode::EndNotAfterStart));
                    Plan { first: None }
                }
            }
        }
    }
}

/// A new payment under its mandate, as the form and the import make it.
pub(crate) struct NewPayment<'a> {
    pub input: &'a PaymentInput,
    pub mode: protocol::Mode,
    pub customer_id: &'a str,
    pub customer_name: &'a str,
    pub mandate_id: String,
    pub method: PaymentMethod,
    pub allow_date_adjustment: bool,
    pub mandate_status: MandateStatus,
    /// The amount, as checked.
    pub amount_cents: i64,
    /// A once-off payment's date, as checked.
    pub first: Option<CollectionDate>,
    pub today: Date,
    pub now: i64,
}

/// The payment's status and first debit: a DebiCheck payment waits for the
/// payer's approval, an EFT debit order for the merchant unless told to run.
pub(crate) fn new_payment_record(new: &NewPayment<'_>) -> PaymentRecord {
    let input = new.input;
    let recurring = input.kind == PaymentKind::Recurring;
    let status = match (new.mandate_status, new.method) {
        (MandateStatus::PendingAuthentication, _) => PaymentStatus::Pending,
        (_, PaymentMethod::EftDebitOrder) if !input.start_running => PaymentStatus::Pending,
        _ => PaymentStatus::Running,
    };
    let mut record = PaymentRecord {
        view: Payment {
            id: new_id("pay"),
            mode: new.mode,
            kind: input.kind,
            customer_id: new.customer_id.to_string(),
            customer_name: new.customer_name.to_string(),
            mandate_id: new.mandate_id.clone(),
            method: new.method,
            status,
            stop_reason: None,
            amount_cents: new.amount_cents,
            first_collection_cents: input.first_collection_cents.filter(|_| recurring),
            date_to_process: new.first.map(|c| iso_date(c.nominal)),
            transaction_reference: input.transaction_reference.trim().to_string(),
            start_date: input.start_date.clone().filter(|_| recurring),
            end_date: input
                .end_date
                .clone()
                .filter(|e| recurring && !e.trim().is_empty()),
            interval: input.interval.filter(|_| recurring),
            day_to_process: input.day_to_process.filter(|_| recurring),
            next_action_date: None,
            representation_date: None,
            representation_cents: None,
            representation_moved_from: None,
            collected_cents: 0,
            attempts: 0,
            consecutive_unpaids: 0,
            import_id: None,
            import_row: None,
            created_at: new.now,
            updated_at: new.now,
        },
        next_nominal_date: None,
    };
    match new.first {
        Some(first) => {
            let action = action_date(first.nominal, new.allow_date_adjustment).max(new.today);
            record.next_nominal_date = Some(iso_date(first.nominal));
            record.view.next_action_date = Some(iso_date(next_business_day_on_or_after(action)));
        }
        None => plan_next(&mut record, new.allow_date_adjustment, new.today),
    }
    record
}

pub async fn create_payment(tx: &mut Tx, scope: &Scope, input: &PaymentInput) -> AppResult<Effect> {
    let customer_id = checked_id(&input.customer_id)?;
    let customer = find_customer_in_tx(tx, &scope.merchant_id, scope.mode, customer_id)
        .await?
        .filter(|c| !c.archived)
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let today = stream_today(tx, scope).await?;
    let settings = payment_methods::settings_in_tx(tx, scope).await?;
    let mut errors = Vec::new();
    let plan = validate_payment(input, today, &mut errors);
    let recurring = input.kind == PaymentKind::Recurring;
    let mut changes = Vec::new();
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;

    // The mandate: an existing one of this customer, or a new one.
    let (mandate_id, method, allow_date_adjustment, mandate_status) = match &input.mandate {
        // Told with the payment's own mistakes, not before them.
        None => {
            field(&mut errors, "mandate", Err(ErrorCode::Required));
            return Err(AppError::Invalid(errors));
        }
        Some(MandateChoice::Existing { mandate_id }) => {
            let mandate_id = checked_id(mandate_id)?;
            match usable_mandate(tx, scope, &customer.id, mandate_id).await? {
                Some(mandate) => {
                    if !settings.enabled.contains(&mandate.method) {
                        field(&mut errors, "mandate", Err(ErrorCode::MethodNotEnabled));
                    }
                    if let (Some(amount), Some(max)) =
                        (input.amount_cents, mandate.maximum_collection_cents)
                        && amount > max
                    {
                        field(
                            &mut errors,
                            "amountCents",
                            Err(ErrorCode::MaximumBelowAmount),
                        );
                    }
                    if !errors.is_empty() {
                        return Err(AppError::Invalid(errors));
                    }
                    (
                        mandate.id,
                        mandate.method,
                        mandate.allow_date_adjustment,
                        mandate.status,
                    )
                }
                // Told with the payment's own mistakes, not before them.
                None => {
                    field(&mut errors, "mandate", Err(ErrorCode::MandateNotUsable));
                    return Err(AppError::Invalid(errors));
                }
            }
        }
        Some(MandateChoice::New {
            input: mandate_input,
        }) => {
            if !settings.enabled.contains(&mandate_input.method) {
                field(
                    &mut errors,
                    "mandate.method",
                    Err(ErrorCode::MethodNotEnabled),
                );
            }
            let clean = mandates::validate_mandate(
                mandate_input,
                mandates::Payer {
                    id_number: &customer.id_number,
                    cellphone: &customer.cellphone,
                },
                input.amount_cents,
                recurring,
                &mut errors,
            );
            let bank_account_id = match &clean.bank_account {
                BankAccountChoice::Existing { bank_account_id } => {
                    let account = bank_accounts::find_bank_account(
                        tx,
                        &scope.merchant_id,
                        scope.mode,
                        checked_id(bank_account_id)?,
                    )
                    .await?
                    .filter(|a| a.customer_id == customer.id);
                    match account {
                        Some(account) => Some(account.id),
                        None => {
                            field(&mut errors, "mandate.bankAccount", Err(ErrorCode::NotFound));
                            None
                        }
                    }
                }
                BankAccountChoice::New { input: account } => match validate_bank_account(account) {
                    Ok(account) => {
                        if errors.is_empty() {
                            let effect = super::banking::insert_checked_bank_account(
                                tx,
                                scope,
                                &customer.id,
                                &account,
                            )
                            .await
                            .map_err(|e| prefix_fields(e, "mandate.bankAccount."))?;
                            changes.extend(effect.changes);
                            effect.id
                        } else {
                            // An account the customer already has is told with the
                            // form's other mistakes, not after they are put right.
                            if bank_accounts::account_exists(
                                tx,
                                &scope.merchant_id,
                                scope.mode,
                                &customer.id,
                                account.bank,
                                &account.account_number,
                            )
                            .await?
                            {
                                field(
                                    &mut errors,
                                    "mandate.bankAccount.accountNumber",
                                    Err(ErrorCode::DuplicateBankAccount),
                                );
                            }
                            None
                        }
                    }
                    Err(err) => {
                        if let AppError::Invalid(fields) =
                            prefix_fields(err, "mandate.bankAccount.")
                        {
                            errors.extend(fields);
                        }
                        None
                    }
                },
            };
            if !errors.is_empty() {
                return Err(AppError::Invalid(errors));
            }
            let bank_account_id =
                bank_account_id.ok_or_else(|| AppError::Internal("bank account".into()))?;
            let status = mandates::initial_status(clean.method);
            let pending = status == MandateStatus::PendingAuthentication;
            let id = new_id("man");
            mandate_store::insert_mandate(
                tx,
                &scope.merchant_id,
                scope.mode,
                &mandate_store::NewMandate {
                    id: &id,
                    customer_id: &customer.id,
                    bank_account_id: &bank_account_id,
                    input: &clean,
                    amount_cents: checked_amount(input)?,
                    status,
                    authentication_requests: u32::from(pending),
                    authentication_due: pending.then(|| {
                        iso_date(mandates::authentication_due(clean.approval_window, today))
                    }),
                    end_date: input.end_date.clone().filter(|e| !e.trim().is_empty()),
                    now,
                },
            )
            .await?;
            let mandate = mandates::load(tx, scope, &id).await?;
            changes.push(Change::MandateUpserted {
                mandate: Box::new(mandate),
            });
            (id, clean.method, clean.allow_date_adjustment, status)
        }
    };
    if !errors.is_empty() {
        return Err(AppError::Invalid(errors));
    }

    let record = new_payment_record(&NewPayment {
        input,
        mode: scope.mode,
        customer_id: &customer.id,
        customer_name: &customer.name,
        mandate_id,
        method,
        allow_date_adjustment,
        mandate_status,
        amount_cents: checked_amount(input)?,
        first: plan.first,
        today,
        now,
    });
    store::insert_payment(tx, &scope.merchant_id, scope.mode, &record).await?;
    let payment = load(tx, scope, &record.view.id).await?;
    changes.push(Change::PaymentUpserted {
        payment: Box::new(payment.view),
    });
    Ok(Effect {
        changes,
        id: Some(record.view.id),
    })
}

/// The amount of a payment found without mistakes.
fn checked_amount(input: &PaymentInput) -> AppResult<i64> {
    input
        .amount_cents
        .ok_or_else(|| AppError::Internal("payment amount unchecked".into()))
}

/// One of the customer's mandates that can collect: approved or awaiting the
/// payer's approval, and not archived.
async fn usable_mandate(
    tx: &mut Tx,
    scope: &Scope,
    customer_id: &str,
    mandate_id: &str,
) -> AppResult<Option<Mandate>> {
    let found =
        mandate_store::find_mandate(&mut **tx, &scope.merchant_id, scope.mode, mandate_id).await?;
    Ok(found.filter(|m| {
        m.customer_id == customer_id
            && !m.archived
            && matches!(
                m.status,
                MandateStatus::Active | MandateStatus::PendingAuthentication
            )
    }))
}

/// Field errors of a nested record, named from the form's root.
fn prefix_fields(err: AppError, prefix: &str) -> AppError {
    match err {
        AppError::Invalid(fields) => AppError::Invalid(
            fields
                .into_iter()
                .map(|f| FieldError {
                    field: format!("{prefix}{}", f.field),
                    code: f.code,
                })
                .collect(),
        ),
        other => other,
    }
}

pub async fn act_on_payment(
    tx: &mut Tx,
    scope: &Scope,
    payment_id: &str,
    action: PaymentAction,
) -> AppResult<Effect> {
    let id = checked_id(payment_id)?;
    let mut record = load(tx, scope, id).await?;
    let mut changes = Vec::new();
    match action {
        PaymentAction::Start => {
            let mandate = mandates::load(tx, scope, &record.view.mandate_id).await?;
            if mandate.status != MandateStatus::Active {
                return Err(AppError::Code(ErrorCode::MandateNotUsable));
            }
            apply(&mut record.view, PaymentEvent::Start)?;
            let today = stream_today(tx, scope).await?;
            catch_up_schedule(&mut record, mandate.allow_date_adjustment, today);
        }
        PaymentAction::Pause => apply(&mut record.view, PaymentEvent::Pause)?,
        PaymentAction::Resume => {
            apply(&mut record.view, PaymentEvent::Resume)?;
            let mandate = mandates::load(tx, scope, &record.view.mandate_id).await?;
            let today = stream_today(tx, scope).await?;
            catch_up_schedule(&mut record, mandate.allow_date_adjustment, today);
        }
        PaymentAction::Cancel => {
            apply(&mut record.view, PaymentEvent::Cancel)?;
            // Debits not yet with the bank are withdrawn with the payment.
            changes.extend(debits::cancel_unsent(tx, scope, &record.view.id).await?);
        }
        PaymentAction::Retry => {
            // Only an insufficient-funds unpaid waiting for the merchant.
            if record.view.representation_cents.is_none()
                || record.view.status != PaymentStatus::Paused
            {
                return Err(AppError::Code(ErrorCode::RetryNotAllowed));
            }
            apply(&mut record.view, PaymentEvent::Resume)?;
            let today = stream_today(tx, scope).await?;
            // On a day with no other debit of the mandate: the payment shows it.
            if !super::representations::plan_retry(tx, scope, &mut record, today).await? {
                return Err(AppError::Code(ErrorCode::RetryNotAllowed));
            }
        }
    }
    changes.insert(0, save(tx, scope, &record).await?);
    Ok(Effect {
        changes,
        id: Some(id.to_string()),
    })
}

pub async fn list_payments(
    db: &Db,
    scope: &Scope,
    kind: PaymentKind,
    filter: &PaymentFilter,
    sort: SortOrder,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let page = PageRequest::new(sort, cursor, limit)?;
    let items =
        store::list_payments(db, &scope.merchant_id, scope.mode, kind, filter, &page).await?;
    let (items, next_cursor) = page.finish(items, |p| (p.created_at, p.amount_cents, &p.id));
    Ok(ReplyBody::PaymentPage { items, next_cursor })
}

pub async fn get_payment(db: &Db, scope: &Scope, payment_id: &str) -> AppResult<ReplyBody> {
    let id = checked_id(payment_id)?;
    let record = store::find_payment(&db.pool, &scope.merchant_id, scope.mode, id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::Payment {
        payment: Box::new(record.view),
    })
}

/// A schedule that waited (paused, or not started) skips the dates that
/// passed meanwhile rather than debiting them all at once.
pub fn catch_up_schedule(record: &mut PaymentRecord, allow_date_adjustment: bool, today: Date) {
    let due = record
        .view
        .next_action_date
        .as_deref()
        .and_then(parse_iso_date);
    match record.view.kind {
        PaymentKind::Once => {
            if due.is_some_and(|d| d < today) {
                record.view.next_action_date = Some(iso_date(next_business_day_on_or_after(today)));
            }
        }
        PaymentKind::Recurring => {
            if due.is_none_or(|d| d < today) {
                plan_next(record, allow_date_adjustment, today);
            }
        }
    }
}
