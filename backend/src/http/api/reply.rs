//! The machine API's answers: the socket's reply bodies as plain JSON, and
//! one error shape with the socket's stable codes and a translated message.

use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, HttpResponseBuilder};
use paydesk::domain::api_tokens::authenticate::Refusal as TokenRefusal;
use paydesk::domain::machine_json;
use protocol::{ErrorCode, FieldError, Language, ReplyBody, WireError};
use serde_json::{Value, json};

use super::guards::whole_seconds;
use crate::http::pay::words::Words;

/// A reply body without its tag; a body that is one record (`{customer:
/// {...}}`) is that record. Records say what they are in `object`
/// (`customer`, `bank_account`), as do the items of a page, which is an
/// `object: "list"`. Times are RFC 3339 texts (`machine_json`).
pub fn body_json(reply: &ReplyBody) -> Value {
    let mut body = untagged(reply);
    machine_json::times_as_rfc3339(&mut body);
    body
}

fn untagged(reply: &ReplyBody) -> Value {
    let Ok(Value::Object(mut fields)) = serde_json::to_value(reply) else {
        return Value::Null;
    };
    let tag = fields
        .remove("t")
        .and_then(|t| t.as_str().map(str::to_string))
        .unwrap_or_default();
    if fields.len() == 1
        && let Some((_, Value::Object(record))) = fields.iter().next()
    {
        let mut record = record.clone();
        record.insert("object".into(), Value::from(object_name(&tag)));
        return Value::Object(record);
    }
    // `CustomerPage`'s items are customers, `PayPageList`'s pay pages.
    let item = tag
        .strip_suffix("List")
        .or_else(|| tag.strip_suffix("Page"))
        .unwrap_or(&tag);
    if let Some(Value::Array(items)) = fields.get_mut("items") {
        for entry in items.iter_mut() {
            if let Value::Object(entry) = entry {
                entry.insert("object".into(), Value::from(object_name(item)));
            }
        }
        fields.insert("object".into(), Value::from("list"));
    }
    Value::Object(fields)
}

/// A reply's tag as an `object` name: `BankAccount` is `bank_account`.
pub fn object_name(tag: &str) -> String {
    let mut name = String::with_capacity(tag.len() + 4);
    for (n, c) in tag.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if n > 0 {
                name.push('_');
            }
            name.push(c.to_ascii_lowercase());
        } else {
            name.push(c);
        }
    }
    name
}

pub fn status_of(error: &WireError) -> StatusCode {
    if !error.fields.is_empty() {
        return StatusCode::UNPROCESSABLE_ENTITY;
    }
    match error.code {
        ErrorCode::Unauthenticated => StatusCode::UNAUTHORIZED,
        ErrorCode::Forbidden | ErrorCode::OwnersOnly => StatusCode::FORBIDDEN,
        ErrorCode::NotFound | ErrorCode::ImportUploadNotFound => StatusCode::NOT_FOUND,
        ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::IdempotencyKeyInUse | ErrorCode::CommandIdReused => StatusCode::CONFLICT,
        ErrorCode::IdempotencyKeyRequired | ErrorCode::BadFrame | ErrorCode::InvalidInput => {
            StatusCode::BAD_REQUEST
        }
        ErrorCode::Busy => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        // The request was understood and the product's rules refused it.
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// Why a request was refused: the socket's error, and for a request the API
/// could not read, what was wrong with it (`detail`, for the developer).
pub struct Refusal {
    pub wire: WireError,
    pub detail: Option<String>,
}

impl From<WireError> for Refusal {
    fn from(wire: WireError) -> Refusal {
        Refusal { wire, detail: None }
    }
}

impl Refusal {
    /// A body or parameters that do not read as the endpoint's input. The
    /// parser's words name the field and what it expected ("missing field
    /// `reference`", "expected value at line 1 column 1"); they quote only
    /// what the caller sent.
    pub fn unreadable(why: &serde_json::Error) -> Refusal {
        Refusal::detailed(ErrorCode::InvalidInput, why.to_string())
    }

    /// Fields of the input refused as `invalid_input`, each with what was
    /// wrong with it; `detail` says them all, in order.
    pub fn invalid_fields(problems: Vec<(String, String)>) -> Refusal {
        let detail = problems
            .iter()
            .map(|(_, why)| why.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        let fields = problems
            .into_iter()
            .map(|(field, _)| FieldError {
                field,
                code: ErrorCode::InvalidInput,
            })
            .collect();
        Refusal {
            wire: WireError {
                code: ErrorCode::InvalidInput,
                fields,
                conflict: None,
            },
            detail: Some(detail),
        }
    }

    /// A refusal whose `detail` says, for a developer, what was wrong.
    pub fn detailed(code: ErrorCode, detail: String) -> Refusal {
        Refusal {
            wire: WireError::new(code),
            detail: Some(detail),
        }
    }
}

/// `{"error": {"code", "message", "fields": [{"field", "code", "message"}]}}`.
pub fn error(language: Language, error: &WireError) -> HttpResponse {
    refusal(language, &Refusal::from(error.clone()))
}

/// As `error`, with `detail` beside the message when there is one.
pub fn refusal(language: Language, refusal: &Refusal) -> HttpResponse {
    refusal_saying(language, refusal, None)
}

/// `429 rate_limited` with `Retry-After`, and a message that says the same
/// wait (`key` names the limit that was reached).
pub fn rate_limited(language: Language, wait: Duration, key: &str) -> HttpResponse {
    let seconds = whole_seconds(wait).to_string();
    let message = Words::of(language).fill(key, &[("seconds", &seconds)]);
    let mut response = refusal_saying(
        language,
        &Refusal::from(WireError::new(ErrorCode::RateLimited)),
        Some(message),
    );
    if let Ok(value) = HeaderValue::from_str(&seconds) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// `401 unauthenticated` for a token that was refused, saying why when the
/// caller holds the real secret (revoked, expired, not from this address):
/// only a secret that matched no token gets the one message that tells
/// nothing, so the answer reveals no token to someone guessing.
pub fn unauthenticated(language: Language, why: Option<TokenRefusal>) -> HttpResponse {
    let key = match why {
        Some(TokenRefusal::AddressNotAllowed) => "machineApi.addressNotAllowed",
        Some(TokenRefusal::Expired) => "machineApi.expired",
        Some(TokenRefusal::Revoked) => "machineApi.revoked",
        Some(TokenRefusal::Unknown) | None => "machineApi.unauthenticated",
    };
    let message = Words::of(language).t(key).to_string();
    let mut response = refusal_saying(
        language,
        &Refusal::from(WireError::new(ErrorCode::Unauthenticated)),
        Some(message),
    );
    // RFC 6750: which scheme, and that the token presented was not good.
    let challenge = match why {
        Some(_) => "Bearer error=\"invalid_token\"",
        None => "Bearer",
    };
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    response
}

fn refusal_saying(language: Language, refusal: &Refusal, message: Option<String>) -> HttpResponse {
    let words = Words::of(language);
    let error = &refusal.wire;
    let fields: Vec<Value> = error
        .fields
        .iter()
        .map(|f| json!({"field": f.field, "code": f.code, "message": words.error(f.code)}))
        .collect();
    let message = message.unwrap_or_else(|| match (error.code, &refusal.detail) {
        // A token is not a person: there is no signing in to do.
        (ErrorCode::Unauthenticated, _) => words.t("machineApi.unauthenticated").to_string(),
        (ErrorCode::InvalidInput, Some(_)) => words.t("machineApi.unreadable").to_string(),
        // A token is refused for its matrix, or for what only people do.
        (ErrorCode::Forbidden, _) => words.t("machineApi.forbidden").to_string(),
        // A server has no page to reload: its key named another request.
        (ErrorCode::CommandIdReused, _) => words.t("machineApi.keyReused").to_string(),
        (code, _) => words.error(code),
    });
    let mut body = json!({"error": {"code": error.code, "message": message}});
    if !fields.is_empty() {
        body["error"]["fields"] = Value::Array(fields);
    }
    if let Some(detail) = &refusal.detail {
        body["error"]["detail"] = Value::from(detail.as_str());
    }
    // The id the answer's `Request-Id` header and the access log carry.
    if let Some(id) = crate::http::access_log::request_id() {
        body["error"]["requestId"] = Value::from(id);
    }
    builder(status_of(error), language).json(body)
}

pub fn code(language: Language, code: ErrorCode) -> HttpResponse {
    error(language, &WireError::new(code))
}

pub fn builder(status: StatusCode, language: Language) -> HttpResponseBuilder {
    let mut response = HttpResponse::build(status);
    response
        .insert_header(("Cache-Control", "no-store"))
        .insert_header(("Content-Language", language.tag()));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_record_body_is_that_record_and_pages_keep_their_shape() {
        let committed = ReplyBody::Committed {
            seq: 3,
            id: Some("pay_1".into()),
        };
        assert_eq!(body_json(&committed), json!({"seq": 3, "id": "pay_1"}));
        let page = ReplyBody::CustomerPage {
            items: Vec::new(),
            next_cursor: None,
        };
        let pages = ReplyBody::PayPageList {
            items: Vec::new(),
            next_cursor: None,
        };
        assert_eq!(body_json(&pages), json!({"object": "list", "items": []}));
        assert_eq!(body_json(&page), json!({"object": "list", "items": []}));
        assert_eq!(object_name("ImportIssue"), "import_issue");
        assert_eq!(object_name("Customer"), "customer");
    }
}
