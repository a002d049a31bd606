//! Auth endpoints accept form-encoded bodies (what NextAuth clients send) and
//! JSON; both become a flat map of strings.
//!
//! Bytes that are not text never fail a whole body: they decode to U+FFFD
//! (forms by the URL-encoding rules, JSON by `json_text`), which
//! `rules::storable` then refuses by the field's name, as it does a NUL.

use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;

use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use actix_web::{FromRequest, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::StreamExt;
use futures_util::future::LocalBoxFuture;
use paydesk::domain::rules;
use protocol::ErrorCode;
use serde_json::json;

/// Bodies larger than this are not sign-in forms.
pub const MAX_AUTH_BODY: usize = 16 * 1024;

/// An auth endpoint's body, at most `MAX_AUTH_BODY` bytes. A longer one is
/// refused with 413 in the endpoints' own error shape (`{"error": {"code":
/// "payload_too_large"}}`), as soon as its declared length or its bytes
/// pass the limit, so nothing past it is read.
pub struct AuthBody(web::Bytes);

impl Deref for AuthBody {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

#[derive(Debug)]
pub struct BodyTooLarge;

impl fmt::Display for BodyTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an auth body past {MAX_AUTH_BODY} bytes")
    }
}

impl ResponseError for BodyTooLarge {
    fn status_code(&self) -> StatusCode {
        StatusCode::PAYLOAD_TOO_LARGE
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status_code())
            .insert_header(("Cache-Control", "no-store"))
            .json(json!({"error": {"code": ErrorCode::PayloadTooLarge}}))
    }
}

impl FromRequest for AuthBody {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<AuthBody, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let declared = req
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        let mut payload = payload.take();
        Box::pin(async move {
            if declared.is_some_and(|n| n > MAX_AUTH_BODY) {
                return Err(BodyTooLarge.into());
            }
            let mut body = web::BytesMut::new();
            while let Some(chunk) = payload.next().await {
                let chunk = chunk?;
                if body.len() + chunk.len() > MAX_AUTH_BODY {
                    return Err(BodyTooLarge.into());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(AuthBody(body.freeze()))
        })
    }
}

pub struct Fields(HashMap<String, String>);

impl Fields {
    pub fn parse(req: &HttpRequest, body: &[u8]) -> Fields {
        let is_json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let map = if is_json {
            serde_json::from_str::<HashMap<String, serde_json::Value>>(&json_text(body))
                .unwrap_or_default()
                .into_iter()
                .filter_map(|(k, v)| match v {
                    serde_json::Value::String(s) => Some((k, s)),
                    serde_json::Value::Bool(b) => Some((k, b.to_string())),
                    _ => None,
                })
                .collect()
        } else {
            serde_urlencoded::from_bytes::<Vec<(String, String)>>(body)
                .unwrap_or_default()
                .into_iter()
                .collect()
        };
        Fields(map)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Trimmed value, empty when absent.
    pub fn text(&self, name: &str) -> String {
        self.get(name).unwrap_or_default().trim().to_string()
    }

    /// The first of `names` whose text no record could hold, and why
    /// (`rules::storable`). Each field's own rules come after.
    pub fn unstorable(&self, names: &[&'static str]) -> Option<(&'static str, ErrorCode)> {
        names.iter().find_map(|name| {
            let value = self.get(name)?;
            let code = rules::storable(value, rules::LONGEST_TEXT).err()?;
            Some((*name, code))
        })
    }
}

/// A JSON body as text `serde_json` reads whole: bytes that are not UTF-8
/// become U+FFFD, and so does a `\u` escape of a lone surrogate (which
/// `serde_json` refuses, failing the whole body), so the field that held
/// it is refused by name instead.
pub fn json_text(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    if !text.contains("\\u") {
        return text.into_owned();
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut copied = 0;
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        let Some(unit) = escaped_unit(bytes, at) else {
            // Any other escape is two bytes long (`\"`, `\\`, `\n`, ...).
            at += 2;
            continue;
        };
        let paired = (0xD800..0xDC00).contains(&unit)
            && escaped_unit(bytes, at + 6).is_some_and(|next| (0xDC00..0xE000).contains(&next));
        if paired {
            at += 12;
        } else if (0xD800..0xE000).contains(&unit) {
            out.push_str(&text[copied..at]);
            out.push_str("\\ufffd");
            at += 6;
            copied = at;
        } else {
            at += 6;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The UTF-16 unit of a `\uXXXX` escape starting at `at`, if there is one.
fn escaped_unit(bytes: &[u8], at: usize) -> Option<u32> {
    let escape = bytes.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u32::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::json_text;

    fn read(body: &[u8]) -> serde_json::Value {
        serde_json::from_str(&json_text(body)).unwrap_or_default()
    }

    #[test]
    fn lone_surrogates_and_bad_bytes_become_the_replacement_character() {
        assert_eq!(read(br#"{"a":"x\ud800y"}"#)["a"], "x\u{fffd}y");
        assert_eq!(read(br#"{"a":"\udc00"}"#)["a"], "\u{fffd}");
        assert_eq!(read(b"{\"a\":\"caf\xe9\"}")["a"], "caf\u{fffd}");
        assert_eq!(
            read(br#"{"a":"\ud83d\ude00 \u00e9"}"#)["a"],
            "\u{1f600} \u{e9}"
        );
        assert_eq!(read(br#"{"a":"\\ud800"}"#)["a"], "\\ud800");
        assert_eq!(json_text(b"{\"a\":1}"), "{\"a\":1}");
    }
}
