//! Mandates: the payer's authority to debit. Created with a payment (see
//! `payments`), then moved by the merchant's actions and by the bank.

use protocol::{
    ApprovalWindow, ClientType, ErrorCode, FieldError, Mandate, MandateFilter, MandateInput,
    MandateStatus, PaymentMethod, ReplyBody, SortOrder,
};
use time::Date;

use super::calendar::add_business_days;
use super::lifecycle::mandate::{self as life, MandateEvent, MandateState};
use super::{Scope, checked_id, collection_rules as rule};
use crate::error::{AppError, AppResult};
use crate::store::mandates as store;
use crate::store::sql::{PageRequest, from_wire_name, wire_name};
use crate::store::{Db, Tx};

fn push(errors: &mut Vec<FieldError>, field: &str, result: Result<(), ErrorCode>) {
    if let Err(code) = result {
        errors.push(FieldError {
            field: format!("mandate.{field}"),
            code,
        });
    }
}

/// What a DebiCheck mandate needs of the payer: the bank identifies them by
/// ID number and asks for approval on their cellphone.
#[derive(Clone, Copy)]
pub struct Payer<'a> {
    pub id_number: &'a str,
    pub cellphone: &'a str,
}

/// Checks a new mandate against the payment it comes with, and returns it
/// tidied (trimmed text, settings that do not apply cleared).
pub fn validate_mandate(
    input: &MandateInput,
    payer: Payer<'_>,
    amount_cents: Option<i64>,
    recurring: bool,
    errors: &mut Vec<FieldError>,
) -> MandateInput {
    let mut clean = input.clone();
    clean.contract_reference = input.contract_reference.trim().to_string();
    clean.abbreviated_name = input.abbreviated_name.trim().to_string();
    clean.adjustment_rate = input.adjustment_rate.trim().to_string();
    let method = input.method;
    if !method.is_debit_order() {
        push(errors, "method", Err(ErrorCode::InvalidInput));
        return clean;
    }
    let mandated = matches!(
        method,
        PaymentMethod::Debicheck | PaymentMethod::RegisteredMandate
    );
    if method == PaymentMethod::Debicheck {
        if input.client_type == ClientType::DomesticCompany {
            push(
                errors,
                "clientType",
                Err(ErrorCode::DebicheckIndividualsOnly),
            );
        }
        // The payer approves on their phone, identified by their ID number.
        if payer.id_number.trim().is_empty() {
            errors.push(FieldError {
                field: "customer.idNumber".into(),
                code: ErrorCode::Required,
            });
        }
        if payer.cellphone.trim().is_empty() {
            errors.push(FieldError {
                field: "customer.cellphone".into(),
                code: ErrorCode::Required,
            });
        }
        if input.approval_window.is_none() {
            push(errors, "approvalWindow", Err(ErrorCode::Required));
        }
    } else {
        clean.approval_window = None;
    }
    if mandated || !clean.contract_reference.is_empty() {
        push(
            errors,
            "contractReference",
            rule::contract_reference(&clean.contract_reference),
        );
    }
    match input.maximum_collection_cents {
        // Against the amount when there is one (a missing amount is told beside it).
        Some(maximum) => push(
            errors,
            "maximumCollectionCents",
            match amount_cents {
                Some(amount) => {
                    rule::maximum_collection(maximum, amount, method == PaymentMethod::Debicheck)
                }
                None => rule::amount(maximum),
            },
        ),
        None if mandated && recurring => {
            push(errors, "maximumCollectionCents", Err(ErrorCode::Required))
        }
        None => {}
    }
    if input.allow_tracking {
        if !mandated {
            push(errors, "allowTracking", Err(ErrorCode::TrackingNotAllowed));
        } else {
            match input.tracking_days {
                Some(days) => push(errors, "trackingDays", rule::tracking_days(days)),
                None => push(errors, "trackingDays", Err(ErrorCode::Required)),
            }
        }
    } else if input.tracking_days.is_some() {
        push(errors, "trackingDays", Err(ErrorCode::TrackingNotAllowed));
    }
    validate_adjustment(&mut clean, errors);
    push(
        errors,
        "abbreviatedName",
        rule::abbreviated_name(&clean.abbreviated_name),
    );
    clean
}

/// Exactly one of a rate or an amount, matching the type, when the amount
/// is adjusted at all.
fn validate_adjustment(input: &mut MandateInput, errors: &mut Vec<FieldError>) {
    use protocol::{AdjustmentCategory, AdjustmentType};
    if input.adjustment_category == AdjustmentCategory::Never {
        input.adjustment_type = None;
        input.adjustment_rate.clear();
        input.adjustment_amount_cents = None;
        return;
    }
    let has_rate = !input.adjustment_rate.is_empty();
    let has_amount = input.adjustment_amount_cents.is_some();
    match input.adjustment_type {
        None => push(
            errors,
            "adjustmentType",
            Err(ErrorCode::AdjustmentTypeRequired),
        ),
        Some(AdjustmentType::Rate) if has_rate && !has_amount => push(
            errors,
            "adjustmentRate",
            rule::adjustment_rate(&input.adjustment_rate),
        ),
        Some(AdjustmentType::Amount) if has_amount && !has_rate => push(
            errors,
            "adjustmentAmountCents",
            input.adjustment_amount_cents.map_or(Ok(()), rule::amount),
        ),
        Some(AdjustmentType::Rate) => push(
            errors,
            "adjustmentRate",
            Err(ErrorCode::AdjustmentValueRequired),
        ),
        Some(AdjustmentType::Amount) => push(
            errors,
            "adjustmentAmountCents",
            Err(ErrorCode::AdjustmentValueRequired),
        ),
    }
}

/// When the payer's bank answers a DebiCheck request sent on `today`:
/// real-time within 120 s and delayed by 20:30 both fall on the same
/// business date; batch by the second business day.
pub fn authentication_due(window: Option<ApprovalWindow>, today: Date) -> Date {
    match window {
        Some(ApprovalWindow::Tt2Batch) => add_business_days(today, 2),
        _ => today,
    }
}

/// The status a new mandate starts in: DebiCheck waits for the payer; a
/// registered mandate and an EFT mandate are held already.
pub fn initial_status(method: PaymentMethod) -> MandateStatus {
    match method {
        PaymentMethod::Debicheck => MandateStatus::PendingAuthentication,
        _ => MandateStatus::Active,
    }
}

pub fn to_state(mandate: &Mandate) -> AppResult<MandateState> {
    let status = life::MandateStatus::ALL
        .into_iter()
        .find(|s| s.as_str() == wire_name(&mandate.status))
        .ok_or_else(|| AppError::Internal("mandate status".into()))?;
    Ok(MandateState {
        status,
        archived: mandate.archived,
    })
}

/// Applies a lifecycle event to the mandate in memory; refused events are
/// `action_not_allowed`.
pub fn apply(mandate: &mut Mandate, event: MandateEvent) -> AppResult<()> {
    let next = life::transition(to_state(mandate)?, event)
        .map_err(|_| AppError::Code(ErrorCode::ActionNotAllowed))?;
    mandate.status = from_wire_name(next.status.as_str())
        .ok_or_else(|| AppError::Internal("mandate status".into()))?;
    mandate.archived = next.archived;
    Ok(())
}

pub async fn load(tx: &mut Tx, scope: &Scope, mandate_id: &str) -> AppResult<Mandate> {
    store::find_mandate(&mut **tx, &scope.merchant_id, scope.mode, mandate_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))
}

/// Writes the mandate and returns it as it now reads.
pub async fn save(tx: &mut Tx, scope: &Scope, mandate: &Mandate) -> AppResult<Mandate> {
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    store::update_mandate_state(tx, &scope.merchant_id, scope.mode, mandate, now).await?;
    load(tx, scope, &mandate.id).await
}

pub async fn list_mandates(
    db: &Db,
    scope: &Scope,
    filter: &MandateFilter,
    sort: SortOrder,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let page = PageRequest::new(sort, cursor, limit)?;
    let items = store::list_mandates(db, &scope.merchant_id, scope.mode, filter, &page).await?;
    let (items, next_cursor) = page.finish(items, |m| (m.created_at, m.amount_cents, &m.id));
    Ok(ReplyBody::MandatePage { items, next_cursor })
}

pub async fn get_mandate(db: &Db, scope: &Scope, mandate_id: &str) -> AppResult<ReplyBody> {
    let id = checked_id(mandate_id)?;
    let mandate = store::find_mandate(&db.pool, &scope.merchant_id, scope.mode, id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::Mandate {
        mandate: Box::new(mandate),
    })
}
