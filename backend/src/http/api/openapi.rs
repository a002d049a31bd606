//! The OpenAPI 3.1 document of `/api/v1`, made from the endpoint table and
//! the protocol's own types (their JSON Schemas derived with `schemars`,
//! which OpenAPI 3.1 takes as they are). Served at `/api/v1/openapi.json`;
//! the copy in `docs/openapi.json` is checked against it by a test.

use actix_web::HttpResponse;
use paydesk::domain::machine_json;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value, json};

use super::endpoints::{Answer, Body, ENDPOINTS, Endpoint, Kind, Param};

/// The schema of a type the table names: a reference into the document's
/// components (a primitive inline).
fn schema(generator: &mut SchemaGenerator, name: &str) -> Value {
    use protocol::*;
    let schema = match name {
        "string" => return json!({"type": "string"}),
        "integer" => return json!({"type": "integer", "minimum": 0}),
        "boolean" => return json!({"type": "boolean"}),
        "ImportUpload" => {
            return json!({"type": "object", "required": ["uploadId", "chunkBytes"], "properties": {
                "uploadId": {"type": "string"}, "chunkBytes": {"type": "integer"}}});
        }
        "ImportChunkReceived" => {
            return json!({"type": "object", "required": ["received"], "properties": {
                "received": {"type": "integer"}}});
        }
        "Customer" => generator.subschema_for::<Customer>(),
        "CustomerInput" => generator.subschema_for::<CustomerInput>(),
        "CustomerStatus" => generator.subschema_for::<CustomerStatus>(),
        "BankAccount" => generator.subschema_for::<BankAccount>(),
        "BankAccountInput" => generator.subschema_for::<BankAccountInput>(),
        "Mandate" => generator.subschema_for::<Mandate>(),
        "MandateStatus" => generator.subschema_for::<MandateStatus>(),
        "MandateAction" => generator.subschema_for::<MandateAction>(),
        "PaymentMethod" => generator.subschema_for::<PaymentMethod>(),
        "SortOrder" => generator.subschema_for::<SortOrder>(),
        "Payment" => generator.subschema_for::<Payment>(),
        "PaymentInput" => generator.subschema_for::<PaymentInput>(),
        "PaymentKind" => generator.subschema_for::<PaymentKind>(),
        "PaymentStatus" => generator.subschema_for::<PaymentStatus>(),
        "PaymentAction" => generator.subschema_for::<PaymentAction>(),
        "Transaction" => generator.subschema_for::<Transaction>(),
        "TransactionStatus" => generator.subschema_for::<TransactionStatus>(),
        "PayPage" => generator.subschema_for::<PayPage>(),
        "PayPageInput" => generator.subschema_for::<PayPageInput>(),
        "Order" => generator.subschema_for::<Order>(),
        "OrderStatus" => generator.subschema_for::<OrderStatus>(),
        "OrderAction" => generator.subschema_for::<OrderAction>(),
        "Import" => generator.subschema_for::<Import>(),
        "ImportIssue" => generator.subschema_for::<ImportIssue>(),
        "ImportPreview" => generator.subschema_for::<ImportPreview>(),
        "ImportTemplate" => generator.subschema_for::<ImportTemplate>(),
        "ErrorCode" => generator.subschema_for::<ErrorCode>(),
        // The table names only the types above; a new one fails the
        // document's test until it is added here.
        other => return json!({"description": format!("unknown type {other}")}),
    };
    schema.to_value()
}

/// A record's schema with the `object` field every record answers.
fn with_object(record: Value, name: &str) -> Value {
    let object = super::reply::object_name(name);
    json!({"allOf": [record, {
        "type": "object",
        "required": ["object"],
        "properties": {"object": {"const": object, "description": "What the record is."}}
    }]})
}

fn answer_schema(generator: &mut SchemaGenerator, answer: Answer) -> Value {
    match answer {
        Answer::Page(item) => json!({
            "type": "object",
            "required": ["object", "items"],
            "properties": {
                "object": {"const": "list"},
                "items": {"type": "array", "items": with_object(schema(generator, item), item)},
                "nextCursor": {"type": "string", "description": "Pass as `cursor` for the next page; absent on the last."}
            }
        }),
        // The two upload steps answer plain objects, not records.
        Answer::One(name @ ("ImportUpload" | "ImportChunkReceived")) => schema(generator, name),
        Answer::One(name) => with_object(schema(generator, name), name),
        Answer::ListIn(field, item) => json!({
            "type": "object",
            "required": [field],
            "properties": {field: {"type": "array", "items": schema(generator, item)}}
        }),
        Answer::Committed => json!({
            "type": "object",
            "required": ["seq"],
            "properties": {
                "seq": {"type": "integer", "description": "The change's place in the merchant's event stream."},
                "id": {"type": "string", "description": "The record the change made or touched."}
            }
        }),
        Answer::Deleted => json!({
            "type": "object",
            "required": ["id", "deleted"],
            "properties": {
                "id": {"type": "string", "description": "What was discarded."},
                "deleted": {"type": "boolean", "const": true}
            }
        }),
    }
}

fn operation(generator: &mut SchemaGenerator, endpoint: &Endpoint) -> Value {
    let mut parameters: Vec<Value> = endpoint
        .path
        .split('/')
        .filter_map(|part| part.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| {
            let kind = if name == "offset" {
                "integer"
            } else {
                "string"
            };
            json!({"name": name, "in": "path", "required": true, "schema": {"type": kind}})
        })
        .collect();
    for (name, kind, place) in endpoint.params {
        let described = super::query_params::documented_schema(name, kind);
        let schema = described.unwrap_or_else(|| schema(generator, kind));
        let mut parameter = json!({"name": name, "in": "query", "schema": schema});
        if *place == Param::Filter {
            parameter["description"] = json!("Filter.");
        }
        if *name == "kind" {
            parameter["required"] = json!(true);
        }
        parameters.push(parameter);
    }
    if endpoint.kind == Kind::Command {
        parameters.push(json!({"$ref": "#/components/parameters/IdempotencyKey"}));
    }
    let mut responses = Map::new();
    responses.insert(
        if endpoint.name.starts_with("Create") {
            "201"
        } else {
            "200"
        }
        .into(),
        json!({
            "description": "Done.",
            "content": {"application/json": {"schema": answer_schema(generator, endpoint.answer)}}
        }),
    );
    for (status, name, _) in REFUSALS {
        // Only writes take an Idempotency-Key, whose conflicts are 409.
        if *status == "409" && endpoint.kind != Kind::Command {
            continue;
        }
        responses.insert(
            (*status).into(),
            json!({"$ref": format!("#/components/responses/{name}")}),
        );
    }
    responses.insert(
        "default".into(),
        json!({"$ref": "#/components/responses/Error"}),
    );
    let mut op = json!({
        "operationId": endpoint.name,
        "summary": endpoint.summary,
        "tags": [endpoint.tag],
        "parameters": parameters,
        "responses": responses,
    });
    let body = match endpoint.body {
        Body::None => None,
        Body::Wrap(_, name) => {
            Some(json!({"application/json": {"schema": schema(generator, name)}}))
        }
        Body::Fields(fields) => {
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (name, kind, needed) in fields {
                properties.insert((*name).to_string(), schema(generator, kind));
                if *needed {
                    required.push(json!(name));
                }
            }
            Some(json!({"application/json": {"schema": {
                "type": "object", "properties": properties, "required": required}}}))
        }
        Body::Raw(_) => Some(json!({"application/octet-stream": {"schema": {}}})),
    };
    if let Some(content) = body {
        op["requestBody"] = json!({"required": true, "content": content});
    }
    op
}

/// The refusals every operation documents: status, component name, and
/// what it means.
const REFUSALS: &[(&str, &str, &str)] = &[
    (
        "400",
        "BadRequest",
        "The request could not be read (`invalid_input` with `detail`), or a write came without an Idempotency-Key (`idempotency_key_required`).",
    ),
    (
        "401",
        "Unauthenticated",
        "No token, or one that is not valid (`unauthenticated`); the message says whether it was revoked, expired or refused for its allow-list.",
    ),
    (
        "403",
        "Forbidden",
        "The token's permissions do not cover this, or only a person may do it (`forbidden`).",
    ),
    (
        "404",
        "NotFound",
        "No such record for this token's merchant and mode (`not_found`, `import_upload_not_found`).",
    ),
    (
        "409",
        "Conflict",
        "The Idempotency-Key was used for another body (`command_id_reused`), or its first request is still running (`idempotency_key_in_use`).",
    ),
    (
        "422",
        "Refused",
        "Read, and refused by the rules: `fields` names each field and why.",
    ),
    (
        "429",
        "RateLimited",
        "Past the token's requests per minute, or too many tokens that were not valid from this address (`rate_limited`).",
    ),
];

fn error_response(description: &str, error_schema: &Value) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": error_schema}}
    })
}

/// The whole document.
pub fn document() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.definitions_path = "/components/schemas".into();
    settings.meta_schema = None;
    let mut generator = settings.into_generator();
    let mut paths = Map::new();
    for endpoint in ENDPOINTS {
        let op = operation(&mut generator, endpoint);
        let item = paths
            .entry(endpoint.path.to_string())
            .or_insert_with(|| json!({}));
        item[endpoint.method.as_str()] = op;
    }
    let error_code = schema(&mut generator, "ErrorCode");
    let mut schemas = Value::Object(generator.take_definitions(true));
    times_as_text(&mut schemas);
    close_request_objects(&mut paths, &mut schemas);
    let error = error_schema(error_code);
    let mut responses = Map::new();
    responses.insert(
        "Error".into(),
        error_response(
            "A refusal: a stable code and a message in the language of Accept-Language (en or af).",
            &error,
        ),
    );
    for (_, name, description) in REFUSALS {
        responses.insert((*name).into(), error_response(description, &error));
    }
    responses["RateLimited"]["headers"] = json!({"Retry-After": {
        "description": "Seconds to wait before trying again; the message says the same.",
        "schema": {"type": "integer", "minimum": 1}
    }});
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Paydesk API",
            "version": "1",
            "description": "The merchant's data over HTTP: the same commands, rules and permissions as the dashboard. Authenticate with `Authorization: Bearer <token>`; a token works in its own mode (live or test). Every write takes an `Idempotency-Key`. See docs/api.md."
        },
        "servers": [{"url": "/api/v1"}],
        "security": [{"bearer": []}],
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "parameters": {"IdempotencyKey": {
                "name": "Idempotency-Key", "in": "header", "required": true,
                "description": "Up to 64 characters, unique per change. A retry with the same key gets the first answer; the same key with another body is refused (409 command_id_reused); while the first is running, 409 idempotency_key_in_use.",
                "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[!-~]+$"}
            }},
            "responses": responses,
            "schemas": schemas
        }
    })
}

/// Marks every object a request body may hold `additionalProperties: false`:
/// the API refuses a field its operation does not declare
/// (`unknown_fields`), and the document says so, for clients and their
/// generators alike. Responses are left open, so that a field added later
/// breaks no client.
fn close_request_objects(paths: &mut Map<String, Value>, schemas: &mut Value) {
    let mut named = std::collections::BTreeSet::new();
    for item in paths.values_mut() {
        let Value::Object(operations) = item else {
            continue;
        };
        for operation in operations.values_mut() {
            if let Some(body) =
                operation.pointer_mut("/requestBody/content/application~1json/schema")
            {
                close(body, &mut named);
            }
        }
    }
    // The named schemas they refer to, and those these refer to in turn.
    let mut done = std::collections::BTreeSet::new();
    while let Some(name) = named.iter().find(|n| !done.contains(*n)).cloned() {
        done.insert(name.clone());
        if let Some(schema) = schemas.get_mut(&name) {
            close(schema, &mut named);
        }
    }
}

/// Closes the objects of one schema, noting the named schemas it refers to.
fn close(schema: &mut Value, named: &mut std::collections::BTreeSet<String>) {
    let Value::Object(fields) = schema else {
        return;
    };
    if let Some(Value::String(target)) = fields.get("$ref")
        && let Some(name) = target.strip_prefix("#/components/schemas/")
    {
        named.insert(name.to_string());
    }
    if fields.contains_key("properties") && !fields.contains_key("additionalProperties") {
        fields.insert("additionalProperties".into(), Value::Bool(false));
    }
    for (key, value) in fields.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                properties.values_mut().for_each(|p| close(p, named));
            }
            // Not the parts of an `allOf`: closed one by one, each would
            // refuse the others' fields (none is used by a request today).
            ("oneOf" | "anyOf" | "prefixItems", Value::Array(parts)) => {
                parts.iter_mut().for_each(|p| close(p, named));
            }
            ("items", part) => close(part, named),
            _ => {}
        }
    }
}

/// The records' times as the API answers them (`machine_json`): RFC 3339
/// texts, where the protocol's types hold integer milliseconds.
fn times_as_text(schema: &mut Value) {
    let Value::Object(fields) = schema else {
        if let Value::Array(items) = schema {
            items.iter_mut().for_each(times_as_text);
        }
        return;
    };
    if let Some(Value::Object(properties)) = fields.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            let kind = property.get("type").cloned();
            let nullable =
                matches!(&kind, Some(Value::Array(kinds)) if kinds.iter().any(|k| k == "null"));
            let integer = match &kind {
                Some(Value::String(k)) => k == "integer",
                Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "integer"),
                _ => false,
            };
            if integer && machine_json::is_time_field(name) {
                let mut text = json!({
                    "type": if nullable { json!(["string", "null"]) } else { json!("string") },
                    "format": "date-time",
                    "examples": ["2026-03-02T08:00:00.000Z"],
                });
                if let Some(description) = property.get("description") {
                    text["description"] = description.clone();
                }
                *property = text;
            }
        }
    }
    fields.values_mut().for_each(times_as_text);
}

fn error_schema(error_code: Value) -> Value {
    json!({
                    "type": "object", "required": ["error"],
                    "properties": {"error": {
                        "type": "object", "required": ["code", "message"],
                        "properties": {
                            "code": error_code.clone(),
                            "message": {"type": "string"},
                            "fields": {"type": "array", "items": {
                                "type": "object", "required": ["field", "code", "message"],
                                "properties": {"field": {"type": "string"}, "code": error_code, "message": {"type": "string"}}
                            }},
                            "detail": {
                                "type": "string",
                                "description": "For a request that could not be read (400 invalid_input): what is wrong with it, in English, e.g. `missing field `reference``."
                            },
                            "requestId": {
                                "type": "string",
                                "description": "This request's id, as in the `Request-Id` header and the server's access log: quote it when asking about the request."
                            }
                        }
                    }}
    })
}

pub async fn serve() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=300"))
        .json(document())
}
