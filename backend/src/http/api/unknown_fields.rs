//! A body may hold only the fields its operation documents. A misspelt field
//! (`refrence`) would otherwise be dropped and the write go through without
//! it, so each unknown field is refused by its path (`refrence`,
//! `bankAccount.numbr`, `lines[2].qty`). The fields are read off the OpenAPI
//! document's own request schema: what is refused is what the document
//! leaves out.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::endpoints::Endpoint;

fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(super::openapi::document)
}

/// The path of every field of `body` that the endpoint's request schema does
/// not name, in name order.
pub fn unknown_fields(endpoint: &Endpoint, body: &Value) -> Vec<String> {
    let document = document();
    let schema = &document["paths"][endpoint.path][endpoint.method.as_str()]["requestBody"]["content"]
        ["application/json"]["schema"];
    let mut unknown = Vec::new();
    if !schema.is_null() {
        walk(document, schema, body, "", &mut unknown);
    }
    unknown
}

/// `schema` with its references followed into the document's components.
fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    let mut schema = schema;
    // A reference may name another; a document does not nest them deeply.
    for _ in 0..8 {
        let Some(name) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
        else {
            break;
        };
        schema = &document["components"]["schemas"][name];
    }
    schema
}

fn allows_type(schema: &Value, wanted: &str) -> bool {
    match schema.get("type") {
        None => true,
        Some(Value::String(kind)) => kind == wanted,
        Some(Value::Array(kinds)) => kinds.iter().any(|k| k == wanted),
        Some(_) => false,
    }
}

/// The one value a field of `schema` may hold, if it has one (an enum's tag).
fn constant(schema: &Value) -> Option<&Value> {
    schema.get("const").or_else(|| match schema.get("enum") {
        Some(Value::Array(values)) if values.len() == 1 => values.first(),
        _ => None,
    })
}

/// Whether `value` may be of the branch: an object branch whose constant
/// fields (the tag of a tagged enum) agree with the value's.
fn agrees(document: &Value, branch: &Value, value: &Map<String, Value>) -> bool {
    let branch = resolve(document, branch);
    if !allows_type(branch, "object") {
        return false;
    }
    let Some(properties) = branch.get("properties").and_then(Value::as_object) else {
        return true;
    };
    properties.iter().all(|(name, property)| {
        match (constant(resolve(document, property)), value.get(name)) {
            (Some(wanted), Some(given)) => wanted == given,
            _ => true,
        }
    })
}

/// The object schemas a value of `schema` is checked against: the schema,
/// the parts of an `allOf`, and the branches of a `oneOf` or `anyOf` the
/// value agrees with.
fn object_parts<'a>(
    document: &'a Value,
    schema: &'a Value,
    value: &Map<String, Value>,
    parts: &mut Vec<&'a Value>,
) {
    let schema = resolve(document, schema);
    if schema.get("properties").is_some() || schema.get("additionalProperties").is_some() {
        parts.push(schema);
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for part in all {
            object_parts(document, part, value, parts);
        }
    }
    for choice in ["oneOf", "anyOf"] {
        for branch in schema
            .get(choice)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if agrees(document, branch, value) {
                object_parts(document, branch, value, parts);
            }
        }
    }
}

/// The schema of an array's items, under `schema` or one of its branches.
fn items_of<'a>(document: &'a Value, schema: &'a Value) -> Option<&'a Value> {
    let schema = resolve(document, schema);
    if let Some(items) = schema.get("items") {
        return Some(items);
    }
    ["oneOf", "anyOf", "allOf"]
        .iter()
        .filter_map(|choice| schema.get(*choice)?.as_array())
        .flatten()
        .find_map(|branch| items_of(document, branch))
}

fn walk(document: &Value, schema: &Value, value: &Value, path: &str, unknown: &mut Vec<String>) {
    match value {
        Value::Object(fields) => {
            let mut parts = Vec::new();
            object_parts(document, schema, fields, &mut parts);
            // A schema that names no fields is free-form.
            if parts.is_empty() {
                return;
            }
            let extra = parts.iter().find_map(|part| {
                part.get("additionalProperties")
                    .filter(|extra| **extra != Value::Bool(false))
            });
            for (name, field) in fields {
                let field_path = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                let named = parts
                    .iter()
                    .find_map(|part| part.get("properties")?.get(name));
                match named.or(extra) {
                    Some(field_schema) => walk(document, field_schema, field, &field_path, unknown),
                    None => unknown.push(field_path),
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = items_of(document, schema) {
                for (n, item) in items.iter().enumerate() {
                    walk(
                        document,
                        item_schema,
                        item,
                        &format!("{path}[{n}]"),
                        unknown,
                    );
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::http::api::endpoints::ENDPOINTS;
    use serde_json::json;

    fn endpoint(name: &str) -> &'static Endpoint {
        ENDPOINTS.iter().find(|e| e.name == name).unwrap()
    }

    #[test]
    fn documented_fields_pass_and_others_are_named_by_path() {
        let create = endpoint("CreateCustomer");
        let known = json!({"name": "Sipho Dlamini", "email": "sipho@example.co.za"});
        assert!(unknown_fields(create, &known).is_empty());
        let misspelt = json!({"name": "Sipho Dlamini", "refrence": "INV-1", "emial": "x"});
        assert_eq!(unknown_fields(create, &misspelt), ["emial", "refrence"]);
    }

    #[test]
    fn fields_of_a_command_body_are_its_own() {
        let action = endpoint("ActOnPayment");
        assert!(unknown_fields(action, &json!({"action": "pause"})).is_empty());
        assert_eq!(
            unknown_fields(action, &json!({"action": "pause", "paymentId": "pay_1"})),
            ["paymentId"]
        );
    }
}
