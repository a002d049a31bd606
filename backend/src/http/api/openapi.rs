//! The OpenAPI 3.1 document of `/api/v1`, made from the endpoint table and
//! the protocol's own types (their JSON Schemas derived with `schemars`,
//! which OpenAPI 3.1 takes as they are). Served at `/api/v1/openapi.json`;
//! the copy in `docs/openapi.json` is checked against it by a test.

use actix_web::HttpResponse;
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

fn answer_schema(generator: &mut SchemaGenerator, answer: Answer) -> Value {
    match answer {
        Answer::Page(item) => json!({
            "type": "object",
            "required": ["items"],
            "properties": {
                "items": {"type": "array", "items": schema(generator, item)},
                "nextCursor": {"type": "string", "description": "Pass as `cursor` for the next page; absent on the last."}
            }
        }),
        Answer::One(name) => schema(generator, name),
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
        let mut parameter = json!({"name": name, "in": "query", "schema": schema(generator, kind)});
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
    let mut op = json!({
        "operationId": endpoint.name,
        "summary": endpoint.summary,
        "tags": [endpoint.tag],
        "parameters": parameters,
        "responses": {
            if endpoint.name.starts_with("Create") { "201" } else { "200" }: {
                "description": "Done.",
                "content": {"application/json": {"schema": answer_schema(generator, endpoint.answer)}}
            },
            "default": {"$ref": "#/components/responses/Error"}
        }
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
    let schemas = generator.take_definitions(true);
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
                "schema": {"type": "string", "maxLength": 64}
            }},
            "responses": {"Error": {
                "description": "A refusal: a stable code and a message in the language of Accept-Language (en or af).",
                "content": {"application/json": {"schema": {
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
                            }
                        }
                    }}
                }}}
            }},
            "schemas": schemas
        }
    })
}

pub async fn serve() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "public, max-age=300"))
        .json(document())
}
