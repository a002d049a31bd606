//! Records as merchants' servers read them, in the machine API's answers and
//! in webhook events: every time is an RFC 3339 text in UTC with
//! milliseconds (`2026-03-02T08:00:00.000Z`), where the socket carries the
//! web app's integer milliseconds. The rule is by name: a field whose name
//! ends in `At` (`createdAt`, `expiresAt`) holding an integer is a time.

use serde_json::Value;
use time::OffsetDateTime;

/// `at_ms` (milliseconds since 1970-01-01 UTC) as RFC 3339 in UTC, always
/// with three digits of milliseconds so every time has one length.
pub fn rfc3339(at_ms: i64) -> String {
    let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(at_ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        at.millisecond()
    )
}

/// Whether a field of this name holds a time (`createdAt`, not `at` alone
/// nor `format`).
pub fn is_time_field(name: &str) -> bool {
    name.len() > 2 && name.ends_with("At")
}

/// Every time field in `value`, at any depth, turned into RFC 3339.
pub fn times_as_rfc3339(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (name, field) in fields.iter_mut() {
                match field.as_i64() {
                    Some(at_ms) if is_time_field(name) => *field = Value::from(rfc3339(at_ms)),
                    _ => times_as_rfc3339(field),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(times_as_rfc3339),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn times_read_as_rfc3339_with_milliseconds() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_772_438_400_123), "2026-03-02T08:00:00.123Z");
        assert_eq!(rfc3339(1_772_438_400_000), "2026-03-02T08:00:00.000Z");
    }

    #[test]
    fn only_integer_fields_named_at_change() {
        let mut value = json!({
            "createdAt": 1_772_438_400_000_i64,
            "revokedAt": null,
            "at": 5,
            "amountCents": 100,
            "collectOn": "2026-03-02",
            "items": [{"updatedAt": 0, "format": 3}],
            "customer": {"lastUsedAt": 1_772_438_400_000_i64},
        });
        times_as_rfc3339(&mut value);
        assert_eq!(
            value,
            json!({
                "createdAt": "2026-03-02T08:00:00.000Z",
                "revokedAt": null,
                "at": 5,
                "amountCents": 100,
                "collectOn": "2026-03-02",
                "items": [{"updatedAt": "1970-01-01T00:00:00.000Z", "format": 3}],
                "customer": {"lastUsedAt": "2026-03-02T08:00:00.000Z"},
            })
        );
    }
}
