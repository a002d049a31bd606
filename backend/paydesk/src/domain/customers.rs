//! Customers: create, edit, archive, restore, list and read.

use protocol::{Change, CustomerInput, CustomerStatus, ErrorCode, FieldError, IdType, ReplyBody};

use super::conflicts;
use super::rules;
use super::{Effect, Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::ids::{is_well_formed_id, new_id};
use crate::store::customers::{self as store, CustomerFilter};
use crate::store::{Db, Tx};

const PAGE_SIZE: u32 = 50;
const MAX_PAGE_SIZE: u32 = 200;

/// Trims every field, checks every rule, and reports all bad fields at once.
pub fn validate_customer(input: &CustomerInput) -> Result<CustomerInput, AppError> {
    let clean = CustomerInput {
        name: input.name.trim().to_string(),
        email: input.email.trim().to_lowercase(),
        cellphone: rules::normalise_cellphone(&input.cellphone),
        id_type: input.id_type,
        id_number: input.id_number.trim().to_string(),
        address_line1: input.address_line1.trim().to_string(),
        address_line2: input.address_line2.trim().to_string(),
        city: input.city.trim().to_string(),
        postal_code: input.postal_code.trim().to_string(),
        reference: input.reference.trim().to_string(),
    };
    let mut errors = Vec::new();
    let mut check = |field: &str, result: Result<(), ErrorCode>| {
        if let Err(code) = result {
            errors.push(FieldError {
                field: field.into(),
                code,
            });
        }
    };
    check("name", rules::name(&clean.name, 64));
    check("email", rules::email(&clean.email));
    if !clean.cellphone.is_empty() {
        check("cellphone", rules::cellphone(&clean.cellphone));
    }
    if clean.id_type.is_some() || !clean.id_number.is_empty() {
        check("idNumber", rules::id_number(&clean.id_number));
    }
    if clean.id_type == Some(IdType::SouthAfricanId) && rules::id_number(&clean.id_number).is_ok() {
        check("idNumber", rules::sa_id_number(&clean.id_number));
    }
    check("addressLine1", rules::address_line(&clean.address_line1));
    check("addressLine2", rules::address_line(&clean.address_line2));
    check("city", rules::town(&clean.city));
    if !clean.postal_code.is_empty() {
        check("postalCode", rules::postal_code(&clean.postal_code));
    }
    if !clean.reference.is_empty() {
        check("reference", rules::customer_reference(&clean.reference));
    }
    if errors.is_empty() {
        Ok(clean)
    } else {
        Err(AppError::Invalid(errors))
    }
}

async fn ensure_reference_free(
    tx: &mut Tx,
    scope: &Scope,
    input: &CustomerInput,
    except_id: Option<&str>,
) -> AppResult<()> {
    if !input.reference.is_empty()
        && store::reference_taken(
            tx,
            &scope.merchant_id,
            scope.mode,
            &input.reference,
            except_id,
        )
        .await?
    {
        return Err(AppError::field("reference", ErrorCode::DuplicateReference));
    }
    Ok(())
}

fn upserted(customer: protocol::Customer) -> Effect {
    let id = Some(customer.id.clone());
    Effect {
        changes: vec![Change::CustomerUpserted {
            customer: Box::new(customer),
        }],
        id,
    }
}

pub async fn create_customer(
    tx: &mut Tx,
    scope: &Scope,
    input: &CustomerInput,
) -> AppResult<Effect> {
    let input = validate_customer(input)?;
    ensure_reference_free(tx, scope, &input, None).await?;
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let customer = store::insert_customer(
        tx,
        &scope.merchant_id,
        scope.mode,
        &new_id("cus"),
        &input,
        now,
    )
    .await?;
    Ok(upserted(customer))
}

pub async fn update_customer(
    tx: &mut Tx,
    scope: &Scope,
    customer_id: &str,
    input: &CustomerInput,
    base_version: Option<u64>,
) -> AppResult<Effect> {
    let customer_id = checked_id(customer_id)?;
    let input = validate_customer(input)?;
    if let Some(base) = base_version {
        let current = store::find_customer_in_tx(tx, &scope.merchant_id, scope.mode, customer_id)
            .await?
            .ok_or(AppError::Code(ErrorCode::NotFound))?;
        let then = conflicts::recorded_at(tx, scope, base, |change| match change {
            Change::CustomerUpserted { customer } if customer.id == current.id => Some(*customer),
            _ => None,
        })
        .await?;
        conflicts::refuse_if_moved_on(
            base,
            conflicts::Saving {
                version: current.version,
                current: &current,
                then,
                input: &input,
                fields: conflicts::CUSTOMER_FIELDS,
            },
        )?;
    }
    ensure_reference_free(tx, scope, &input, Some(customer_id)).await?;
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let customer =
        store::update_customer(tx, &scope.merchant_id, scope.mode, customer_id, &input, now)
            .await?
            .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(upserted(customer))
}

pub async fn archive_customer(tx: &mut Tx, scope: &Scope, customer_id: &str) -> AppResult<Effect> {
    let customer_id = checked_id(customer_id)?;
    let current = store::find_customer_in_tx(tx, &scope.merchant_id, scope.mode, customer_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    if current.archived {
        return Err(AppError::Code(ErrorCode::AlreadyArchived));
    }
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let customer = store::set_customer_archived(
        tx,
        &scope.merchant_id,
        scope.mode,
        customer_id,
        Some(now),
        now,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(upserted(customer))
}

pub async fn restore_customer(tx: &mut Tx, scope: &Scope, customer_id: &str) -> AppResult<Effect> {
    let customer_id = checked_id(customer_id)?;
    let current = store::find_customer_in_tx(tx, &scope.merchant_id, scope.mode, customer_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    if !current.archived {
        return Err(AppError::Code(ErrorCode::NotArchived));
    }
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let customer =
        store::set_customer_archived(tx, &scope.merchant_id, scope.mode, customer_id, None, now)
            .await?
            .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(upserted(customer))
}

pub async fn list_customers(
    db: &Db,
    scope: &Scope,
    search: Option<&str>,
    status: CustomerStatus,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let search = search.map(str::trim).filter(|s| !s.is_empty());
    if search.is_some_and(|s| s.chars().count() > 128) {
        return Err(AppError::field("search", ErrorCode::TooLong));
    }
    let cursor = cursor.filter(|c| !c.is_empty());
    // A page starts after the last customer of the one before it: a cursor
    // that names none of this stream's customers is not one this list made.
    if let Some(cursor) = cursor {
        let issued = is_well_formed_id(cursor)
            && store::find_customer(db, &scope.merchant_id, scope.mode, cursor)
                .await?
                .is_some();
        if !issued {
            return Err(AppError::field("cursor", ErrorCode::InvalidInput));
        }
    }
    let limit = limit.unwrap_or(PAGE_SIZE).clamp(1, MAX_PAGE_SIZE);
    let filter = CustomerFilter {
        search,
        status,
        before_id: cursor,
        limit,
    };
    let (items, more) = store::list_customers(db, &scope.merchant_id, scope.mode, &filter).await?;
    let next_cursor = if more {
        items.last().map(|c| c.id.clone())
    } else {
        None
    };
    Ok(ReplyBody::CustomerPage { items, next_cursor })
}

/// Fails `not_found` unless the customer is the stream's: lists of a
/// customer's records (bank accounts, cards) answer another merchant's id
/// as not found, never as merely empty.
pub async fn require_customer(db: &Db, scope: &Scope, customer_id: &str) -> AppResult<()> {
    let customer_id = checked_id(customer_id)?;
    store::find_customer(db, &scope.merchant_id, scope.mode, customer_id)
        .await?
        .map(|_| ())
        .ok_or(AppError::Code(ErrorCode::NotFound))
}

pub async fn get_customer(db: &Db, scope: &Scope, customer_id: &str) -> AppResult<ReplyBody> {
    let customer_id = checked_id(customer_id)?;
    let customer = store::find_customer(db, &scope.merchant_id, scope.mode, customer_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::Customer {
        customer: Box::new(customer),
    })
}
