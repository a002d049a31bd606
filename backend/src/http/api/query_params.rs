//! The query string of a request, checked the same way on every endpoint:
//! each parameter the endpoint takes, once, within the bounds its name
//! keeps everywhere (`limit` 1 to 100, `offset` up to 1,000,000, `cursor`
//! as a previous page's `nextCursor`, dates as real `YYYY-MM-DD` days with
//! `from` no later than `to`, enumerations by their values). What is
//! wrong is refused together, one field error per parameter, with a
//! `detail` that says why. An empty text (a search, a cursor) counts as
//! absent; an empty number, day or choice is refused.

use protocol::ErrorCode;
use serde_json::{Value, json};

use super::reply::Refusal;

/// The largest page a list gives.
pub const MAX_LIMIT: u64 = 100;
/// The furthest a page of an upload's or import's problems may start.
pub const MAX_OFFSET: u64 = 1_000_000;
/// A cursor is a previous page's `nextCursor`, never longer than this.
pub const MAX_CURSOR_LEN: usize = 200;
/// The relations `expand` may name (a payment's): each `<name>Id` of the
/// record is answered beside it as the record itself, under `<name>`.
pub const EXPANDABLE: [&str; 2] = ["customer", "mandate"];

/// The schema of the parameter `name` of type `kind` in the OpenAPI
/// document, with its bounds; none when it has no bounds of its own.
pub fn documented_schema(name: &str, kind: &str) -> Option<Value> {
    match (name, kind) {
        ("limit", _) => Some(
            json!({"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
            "description": "Items per page, 50 when absent."}),
        ),
        ("offset", _) => Some(json!({"type": "integer", "minimum": 0, "maximum": MAX_OFFSET})),
        ("cursor", _) => Some(json!({"type": "string", "maxLength": MAX_CURSOR_LEN,
            "pattern": "^[A-Za-z0-9_~.-]*$",
            "description": "The previous page's `nextCursor`."})),
        ("expand", _) => Some(
            json!({"type": "string", "pattern": "^(customer|mandate)(,(customer|mandate))*$",
            "description": "Comma-separated relations to answer whole beside their ids: `customer`, `mandate`."}),
        ),
        ("from" | "to", "string") => Some(json!({"type": "string", "format": "date",
            "description": "A day, `YYYY-MM-DD`; `from` no later than `to`."})),
        _ => None,
    }
}

/// Whether `text` is one of the values of the enumeration `kind`; none
/// when `kind` is not one.
fn enum_value_ok(kind: &str, text: &str) -> Option<bool> {
    use protocol::*;
    fn reads<T: serde::de::DeserializeOwned>(text: &str) -> bool {
        serde_json::from_value::<T>(Value::from(text)).is_ok()
    }
    Some(match kind {
        "CustomerStatus" => reads::<CustomerStatus>(text),
        "MandateStatus" => reads::<MandateStatus>(text),
        "OrderStatus" => reads::<OrderStatus>(text),
        "PaymentKind" => reads::<PaymentKind>(text),
        "PaymentMethod" => reads::<PaymentMethod>(text),
        "PaymentStatus" => reads::<PaymentStatus>(text),
        "SortOrder" => reads::<SortOrder>(text),
        "TransactionStatus" => reads::<TransactionStatus>(text),
        _ => return None,
    })
}

/// A calendar day written `YYYY-MM-DD`.
fn day_of(text: &str) -> Option<time::Date> {
    let mut parts = text.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    let digits =
        |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_some() || !digits(year, 4) || !digits(month, 2) || !digits(day, 2) {
        return None;
    }
    let month = time::Month::try_from(month.parse::<u8>().ok()?).ok()?;
    time::Date::from_calendar_date(year.parse().ok()?, month, day.parse().ok()?).ok()
}

/// One parameter's value as the command's field takes it, or why not.
fn value_of(name: &str, kind: &str, text: &str) -> Result<Value, String> {
    if kind == "integer" {
        let (least, most) = match name {
            "limit" => (1, MAX_LIMIT),
            "offset" => (0, MAX_OFFSET),
            _ => (0, u64::from(u32::MAX)),
        };
        return match text.parse::<u64>() {
            Ok(n) if (least..=most).contains(&n) => Ok(Value::from(n)),
            _ => Err(format!("`{name}` is a whole number from {least} to {most}")),
        };
    }
    if name == "cursor" {
        let well_formed = text.len() <= MAX_CURSOR_LEN
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_~.-".contains(&b));
        return if well_formed {
            Ok(Value::from(text))
        } else {
            Err("`cursor` is a previous page's `nextCursor`".into())
        };
    }
    if kind == "expand" {
        let names: Vec<&str> = text.split(',').map(str::trim).collect();
        return if names.iter().all(|n| EXPANDABLE.contains(n)) {
            Ok(Value::from(names))
        } else {
            Err(format!("`{name}` names only {}", EXPANDABLE.join(", ")))
        };
    }
    if matches!(name, "from" | "to") && kind == "string" {
        return match day_of(text) {
            Some(_) => Ok(Value::from(text)),
            None => Err(format!("`{name}` is a day, `YYYY-MM-DD`")),
        };
    }
    match enum_value_ok(kind, text) {
        Some(false) => Err(format!("`{name}` is not one of the values of {kind}")),
        _ => Ok(Value::from(text)),
    }
}

/// The endpoint's parameters found in `query_string`, by name and place,
/// each checked; or every problem, as field errors.
pub fn checked<'a, P: Copy>(
    params: &'a [(&'static str, &'static str, P)],
    query_string: &str,
) -> Result<Vec<(&'a str, P, Value)>, Refusal> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query_string).map_err(|_| {
        Refusal::detailed(
            ErrorCode::InvalidInput,
            "the query string is not URL-encoded".into(),
        )
    })?;
    let mut found: Vec<(&'a str, P, Value)> = Vec::new();
    let mut problems: Vec<(String, String)> = Vec::new();
    for (name, text) in pairs {
        let Some((known, kind, place)) = params.iter().find(|(n, _, _)| *n == name) else {
            problems.push((name.clone(), format!("unknown query parameter `{name}`")));
            continue;
        };
        if found.iter().any(|(n, _, _)| n == known) {
            problems.push((name.clone(), format!("`{name}` is given more than once")));
            continue;
        }
        // An empty text or search is absent; an empty number, day or
        // choice is no value of its type.
        if text.is_empty()
            && matches!(*kind, "string" | "cursor")
            && !matches!(*known, "from" | "to")
        {
            continue;
        }
        match value_of(known, kind, &text) {
            Ok(value) => found.push((known, *place, value)),
            Err(why) => problems.push((name, why)),
        }
    }
    let day = |wanted: &str| {
        found
            .iter()
            .find(|(n, _, _)| *n == wanted)
            .and_then(|(_, _, v)| v.as_str().and_then(day_of))
    };
    if let (Some(from), Some(to)) = (day("from"), day("to"))
        && from > to
    {
        problems.push(("to".into(), "`to` is before `from`".into()));
    }
    if problems.is_empty() {
        return Ok(found);
    }
    Err(Refusal::invalid_fields(problems))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const PARAMS: &[(&str, &str, u8)] = &[
        ("limit", "integer", 0),
        ("cursor", "string", 0),
        ("from", "string", 1),
        ("to", "string", 1),
        ("status", "PaymentStatus", 1),
        ("expand", "expand", 0),
    ];

    fn fields(query: &str) -> Vec<String> {
        match checked(PARAMS, query) {
            Ok(_) => Vec::new(),
            Err(refusal) => refusal.wire.fields.into_iter().map(|f| f.field).collect(),
        }
    }

    #[test]
    fn every_parameter_is_checked_by_its_name() {
        assert!(
            fields("limit=100&cursor=1772000000000~pay_1&from=2026-02-28&to=2026-03-01").is_empty()
        );
        assert!(fields("cursor=").is_empty(), "an empty cursor is absent");
        assert_eq!(fields("limit="), ["limit"]);
        assert_eq!(fields("to=&status="), ["to", "status"]);
        assert_eq!(fields("limit=0"), ["limit"]);
        assert_eq!(fields("limit=101"), ["limit"]);
        assert_eq!(fields("limit=-1"), ["limit"]);
        assert_eq!(fields("cursor=%C3%A9"), ["cursor"]);
        assert_eq!(fields("from=2026-13-45"), ["from"]);
        assert_eq!(fields("from=2026-02-29"), ["from"], "not a leap year");
        assert_eq!(fields("from=2026-03-02&to=2026-03-01"), ["to"]);
        assert_eq!(fields("status=nonsense"), ["status"]);
        assert_eq!(fields("refrence=INV-1"), ["refrence"]);
        assert_eq!(fields("limit=5&limit=6"), ["limit"]);
        assert_eq!(fields("limit=0&refrence=x"), ["limit", "refrence"]);
        assert!(fields("expand=customer,mandate").is_empty());
        assert_eq!(fields("expand=customer,bank"), ["expand"]);
    }
}
