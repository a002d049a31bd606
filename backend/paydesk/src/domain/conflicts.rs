//! Version-checked saves. A record's `version` is the seq of the event that
//! last changed it (stamped by `store::versions` in that event's
//! transaction); an edit names the version it started from. When the record
//! has moved on, the save is refused with `edit_conflict`, naming the fields
//! changed since that version with their values now, so the user chooses
//! instead of silently overwriting a teammate.

use protocol::{
    Change, Customer, CustomerInput, EditConflict, ErrorCode, FieldConflict, WireError, decode,
};
use sqlx::Row;

use super::Scope;
use crate::error::{AppError, AppResult};
use crate::store::Tx;

/// A customer's editable fields by wire name, as text.
fn customer_fields(customer: &Customer) -> Vec<(&'static str, String)> {
    let input = CustomerInput {
        name: customer.name.clone(),
        email: customer.email.clone(),
        cellphone: customer.cellphone.clone(),
        id_type: customer.id_type,
        id_number: customer.id_number.clone(),
        address_line1: customer.address_line1.clone(),
        address_line2: customer.address_line2.clone(),
        city: customer.city.clone(),
        postal_code: customer.postal_code.clone(),
        reference: customer.reference.clone(),
    };
    input_fields(&input)
}

fn input_fields(input: &CustomerInput) -> Vec<(&'static str, String)> {
    let id_type = input
        .id_type
        .and_then(|t| serde_json::to_value(t).ok())
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    vec![
        ("name", input.name.clone()),
        ("email", input.email.clone()),
        ("cellphone", input.cellphone.clone()),
        ("idType", id_type),
        ("idNumber", input.id_number.clone()),
        ("addressLine1", input.address_line1.clone()),
        ("addressLine2", input.address_line2.clone()),
        ("city", input.city.clone()),
        ("postalCode", input.postal_code.clone()),
        ("reference", input.reference.clone()),
    ]
}

/// The customer as the event at `seq` left it, if that event is in the log
/// and wrote it.
async fn customer_at(
    tx: &mut Tx,
    scope: &Scope,
    seq: u64,
    id: &str,
) -> AppResult<Option<Customer>> {
    let Ok(seq) = i64::try_from(seq) else {
        return Ok(None);
    };
    let row =
        sqlx::query("SELECT changes FROM events WHERE merchant_id = $1 AND mode = $2 AND seq = $3")
            .bind(&scope.merchant_id)
            .bind(scope.mode.as_str())
            .bind(seq)
            .fetch_optional(&mut **tx)
            .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let changes: Vec<Change> = decode(&row.get::<Vec<u8>, _>("changes"))?;
    Ok(changes.into_iter().find_map(|change| match change {
        Change::CustomerUpserted { customer } if customer.id == id => Some(*customer),
        _ => None,
    }))
}

/// Refuses the save when `current` is no longer at `base`. The fields named
/// are those changed since `base`; when the log no longer holds that
/// version, those where the record now differs from what is being saved.
pub async fn refuse_if_moved_on(
    tx: &mut Tx,
    scope: &Scope,
    base: u64,
    current: &Customer,
    saving: &CustomerInput,
) -> AppResult<()> {
    if current.version == base {
        return Ok(());
    }
    let now = customer_fields(current);
    let compared = match customer_at(tx, scope, base, &current.id).await? {
        Some(then) => customer_fields(&then),
        None => input_fields(saving),
    };
    let fields = now
        .into_iter()
        .zip(compared)
        .filter(|((_, theirs), (_, other))| theirs != other)
        .map(|((field, theirs), _)| FieldConflict {
            field: field.into(),
            theirs,
        })
        .collect();
    Err(AppError::Refused(WireError {
        code: ErrorCode::EditConflict,
        fields: Vec::new(),
        conflict: Some(EditConflict {
            version: current.version,
            fields,
        }),
    }))
}
