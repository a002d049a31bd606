//! Turns a request into the JSON of the socket's `Command` or `Query`: the
//! variant's tag, the path parameters, the query string (checked by
//! `query_params`; numbers where the field is one, list filters into
//! `filter`) and the body.

use std::fmt;

use protocol::{ErrorCode, FieldError, WireError};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::endpoints::{Body, Endpoint, Param};
use super::query_params;
use super::reply::Refusal;
use super::unknown_fields::unknown_fields;
use crate::http::body::json_text;

fn field_error(field: &str) -> WireError {
    WireError {
        code: ErrorCode::InvalidInput,
        fields: vec![FieldError {
            field: field.to_string(),
            code: ErrorCode::InvalidInput,
        }],
        conflict: None,
    }
}

fn number(field: &str, text: &str) -> Result<Value, WireError> {
    text.parse::<u64>()
        .map(Value::from)
        .map_err(|_| field_error(field))
}

pub fn value_of(
    endpoint: &Endpoint,
    params: &[(&'static str, String)],
    query_string: &str,
    body: &[u8],
) -> Result<Value, Refusal> {
    let mut out = Map::new();
    out.insert("t".into(), Value::from(endpoint.name));
    for (name, value) in params {
        let value = if *name == "offset" {
            number(name, value)?
        } else {
            Value::from(value.as_str())
        };
        out.insert((*name).to_string(), value);
    }
    let mut filter = Map::new();
    for (name, place, value) in query_params::checked(endpoint.params, query_string)? {
        match place {
            Param::Top => out.insert(name.to_string(), value),
            Param::Filter => filter.insert(name.to_string(), value),
        };
    }
    if endpoint.params.iter().any(|(_, _, p)| *p == Param::Filter) {
        out.insert("filter".into(), Value::Object(filter));
    }
    match endpoint.body {
        Body::None => {}
        Body::Raw(field) => {
            out.insert(field.into(), Value::from(body.to_vec()));
        }
        Body::Wrap(field, _) => {
            out.insert(field.into(), parse(endpoint, body)?);
        }
        Body::Fields(_) => {
            let Value::Object(fields) = parse(endpoint, body)? else {
                return Err(WireError::new(ErrorCode::InvalidInput).into());
            };
            for (name, value) in fields {
                // Path parameters name the record; the body cannot change them.
                out.entry(name).or_insert(value);
            }
        }
    }
    Ok(Value::Object(out))
}

/// Bytes that are not text, and lone surrogates, read as U+FFFD: the
/// command's field that holds one is refused by name (`input_text`). A key
/// given twice in one object is refused (400), where a plain read would
/// keep the last; a field the endpoint does not document is refused by its
/// path (422).
fn parse(endpoint: &Endpoint, body: &[u8]) -> Result<Value, Refusal> {
    let Strict(mut value) =
        serde_json::from_str(&json_text(body)).map_err(|why| Refusal::unreadable(&why))?;
    whole_numbers(&mut value);
    let unknown = unknown_fields(endpoint, &value);
    if unknown.is_empty() {
        return Ok(value);
    }
    let problems = unknown
        .into_iter()
        .map(|path| {
            let why = format!("unknown field `{path}`");
            (path, why)
        })
        .collect();
    Err(Refusal::invalid_fields(problems))
}

/// A JSON value read so that an object naming a key twice is an error.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if fields.contains_key(&key) {
                return Err(de::Error::custom(format!("duplicate field `{key}`")));
            }
            let Strict(value) = map.next_value()?;
            fields.insert(key, value);
        }
        Ok(Value::Object(fields))
    }
}

/// `21585.0` is the integer JSON Schema says it is: a number with no
/// fraction, within what a double holds exactly, reads as an integer
/// field (a fraction is still refused by the field's type).
fn whole_numbers(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && f.abs() < 9_007_199_254_740_992.0
            {
                *value = Value::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn whole_floats_read_as_integers_and_fractions_stay() {
        let mut value = serde_json::json!({"a": 21585.0, "b": [0.0, -3.0], "c": 1.5, "d": 7});
        whole_numbers(&mut value);
        assert_eq!(
            value,
            serde_json::json!({"a": 21585, "b": [0, -3], "c": 1.5, "d": 7})
        );
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        let read = |text: &str| serde_json::from_str::<Strict>(text).map(|Strict(v)| v);
        assert_eq!(
            read(r#"{"a": [1, {"b": null}], "c": "d"}"#).unwrap(),
            serde_json::json!({"a": [1, {"b": null}], "c": "d"})
        );
        let twice = read(r#"{"a": 1, "a": 2}"#).unwrap_err().to_string();
        assert!(twice.contains("duplicate field `a`"), "{twice}");
        assert!(read(r#"{"x": {"b": 1, "b": 1}}"#).is_err());
    }
}
