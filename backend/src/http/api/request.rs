//! Turns a request into the JSON of the socket's `Command` or `Query`: the
//! variant's tag, the path parameters, the query string (numbers where the
//! field is one, list filters into `filter`) and the body.

use protocol::{ErrorCode, FieldError, WireError};
use serde_json::{Map, Value};

use super::endpoints::{Body, Endpoint, Param};
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
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query_string)
        .map_err(|_| Refusal::from(WireError::new(ErrorCode::InvalidInput)))?;
    let mut filter = Map::new();
    for (name, text) in pairs {
        // Parameters the endpoint does not take are ignored, like unknown
        // JSON fields.
        let Some((_, schema, place)) = endpoint.params.iter().find(|(n, _, _)| *n == name) else {
            continue;
        };
        let value = if *schema == "integer" {
            number(&name, &text)?
        } else {
            Value::from(text)
        };
        match place {
            Param::Top => out.insert(name, value),
            Param::Filter => filter.insert(name, value),
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
