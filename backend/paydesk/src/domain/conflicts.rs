//! Version-checked saves. A record's `version` is the seq of the event that
//! last changed it (stamped by `store::versions` in that event's
//! transaction; business info, shared by both modes, keeps a counter of its
//! own); an edit names the version it started from. When the record has
//! moved on, the save is refused with `edit_conflict`, naming the fields
//! changed since that version with their values now, so the user chooses
//! instead of silently overwriting a teammate.

use protocol::{Change, EditConflict, ErrorCode, FieldConflict, WireError, decode};
use serde::Serialize;
use serde_json::Value;
use sqlx::Row;

use super::Scope;
use crate::error::{AppError, AppResult};
use crate::store::Tx;

/// The editable fields of a customer, by wire name.
pub const CUSTOMER_FIELDS: &[&str] = &[
    "name",
    "email",
    "cellphone",
    "idType",
    "idNumber",
    "addressLine1",
    "addressLine2",
    "city",
    "postalCode",
    "reference",
];

/// The editable fields of a pay page, by wire name.
pub const PAY_PAGE_FIELDS: &[&str] = &[
    "title",
    "description",
    "amountMode",
    "amountCents",
    "minCents",
    "maxCents",
    "kind",
    "interval",
    "methods",
    "expiresOn",
    "maxUses",
    "reference",
    "successUrl",
    "colour",
];

/// The payment-method settings, by wire name.
pub const PAYMENT_METHOD_FIELDS: &[&str] = &[
    "enabled",
    "debicheckApprovalWindow",
    "debicheckAllowTracking",
    "debicheckTrackingDays",
    "debicheckAllowDateAdjustment",
    "debicheckAbbreviatedName",
];

/// The business details, by wire name.
pub const BUSINESS_INFO_FIELDS: &[&str] = &[
    "legalName",
    "tradingName",
    "registrationNumber",
    "vatNumber",
    "industry",
    "physicalAddress",
    "contactPerson",
    "supportEmail",
    "supportPhone",
    "statementName",
];

/// A field's value as the conflict shows it: text as it is, blank for
/// none, anything else (numbers, lists) as its JSON.
fn as_text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}

/// `record`'s `fields` by wire name, as text.
fn fields_of<T: Serialize>(record: &T, fields: &[&'static str]) -> Vec<(&'static str, String)> {
    let value = serde_json::to_value(record).unwrap_or(Value::Null);
    fields
        .iter()
        .map(|field| (*field, as_text(value.get(field))))
        .collect()
}

/// What the event at `seq` wrote of a record, picked from its changes, if
/// that event is still in the log.
pub async fn recorded_at<T>(
    tx: &mut Tx,
    scope: &Scope,
    seq: u64,
    pick: impl Fn(Change) -> Option<T>,
) -> AppResult<Option<T>> {
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
    Ok(changes.into_iter().find_map(pick))
}

/// One record's side of a version-checked save.
pub struct Saving<'a, R, I> {
    /// The record's version now.
    pub version: u64,
    pub current: &'a R,
    /// The record as it was at the base version, when that is known.
    pub then: Option<R>,
    /// What is being saved.
    pub input: &'a I,
    pub fields: &'static [&'static str],
}

/// Refuses the save when the record is no longer at `base`. The fields
/// named are those changed since `base`; when that version is not known,
/// those where the record now differs from what is being saved. A newer
/// version that changed none of the editable fields (a customer archived)
/// is refused too, naming none: the form shows a record that is gone.
pub fn refuse_if_moved_on<R: Serialize, I: Serialize>(
    base: u64,
    saving: Saving<'_, R, I>,
) -> AppResult<()> {
    if saving.version == base {
        return Ok(());
    }
    let now = fields_of(saving.current, saving.fields);
    let compared = match &saving.then {
        Some(then) => fields_of(then, saving.fields),
        None => fields_of(saving.input, saving.fields),
    };
    let fields: Vec<FieldConflict> = now
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
            version: saving.version,
            fields,
        }),
    }))
}
