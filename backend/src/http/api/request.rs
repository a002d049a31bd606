//! Turns a request into the JSON of the socket's `Command` or `Query`: the
//! variant's tag, the path parameters, the query string (checked by
//! `query_params`; numbers where the field is one, list filters into
//! `filter`) and the body.

use protocol::{ErrorCode, FieldError, WireError};
use serde_json::{Map, Value};

use super::endpoints::{Body, Endpoint, Param};
use super::query_params;
use super::reply::Refusal;
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
            out.insert(field.into(), parse(body)?);
        }
        Body::Fields(_) => {
            let Value::Object(fields) = parse(body)? else {
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
/// command's field that holds one is refused by name (`input_text`).
fn parse(body: &[u8]) -> Result<Value, Refusal> {
    let mut value =
        serde_json::from_str(&json_text(body)).map_err(|why| Refusal::unreadable(&why))?;
    whole_numbers(&mut value);
    Ok(value)
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
}
