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
    serde_json::from_str(&json_text(body)).map_err(|why| Refusal::unreadable(&why))
}
