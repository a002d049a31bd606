//! What the odd-input tests share: the odd values in each form a request
//! carries them (a form, a JSON string, a frame's text), bodies built
//! around them, row counts to show nothing was written, and the log check.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use crate::common::logs::Logs;
use crate::common::{Browser, TestApp};
use protocol::ErrorCode;
use serde_json::{Value, json};

pub const PLACE: &str = "@ODD@";

/// The odd values, each put in front of an ordinary one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Odd {
    Nul,
    LoneSurrogate,
    NotUtf8,
    TooLong,
}

pub const ODD: [Odd; 4] = [Odd::Nul, Odd::LoneSurrogate, Odd::NotUtf8, Odd::TooLong];

impl Odd {
    /// The error code a field holding it is refused with.
    pub fn code(self) -> ErrorCode {
        match self {
            Odd::TooLong => ErrorCode::TooLong,
            _ => ErrorCode::InvalidCharacters,
        }
    }

    pub fn wire(self) -> &'static str {
        match self {
            Odd::TooLong => "too_long",
            _ => "invalid_characters",
        }
    }

    /// What a user reads for it (`locales/en.json`).
    pub fn message(self) -> &'static str {
        match self {
            Odd::TooLong => "This is too long.",
            _ => "This contains characters that are not allowed.",
        }
    }

    /// `base` with the odd part in front, URL-encoded for a form or query.
    pub fn form(self, base: &str) -> String {
        let odd = match self {
            Odd::Nul => "%00".to_string(),
            Odd::LoneSurrogate => "%ED%A0%80".to_string(),
            Odd::NotUtf8 => "%E9".to_string(),
            Odd::TooLong => "a".repeat(10_000),
        };
        format!("{odd}{}", encode(base))
    }

    /// `base` with the odd part in front, as a JSON string's bytes.
    pub fn json(self, base: &str) -> Vec<u8> {
        let quoted = serde_json::to_string(base).unwrap();
        let odd: &[u8] = match self {
            Odd::Nul => b"\\u0000",
            Odd::LoneSurrogate => b"\\ud800",
            Odd::NotUtf8 => b"\xe9",
            Odd::TooLong => {
                return serde_json::to_vec(&format!("{}{base}", "a".repeat(10_000))).unwrap();
            }
        };
        [b"\"", odd, &quoted.as_bytes()[1..]].concat()
    }

    /// `base` with the odd part in front, as a socket frame's text; the
    /// two that are no UTF-8 cannot be one (see `raw_frame`).
    pub fn text(self, base: &str) -> Option<String> {
        match self {
            Odd::Nul => Some(format!("\0{base}")),
            Odd::TooLong => Some(format!("{}{base}", "a".repeat(10_000))),
            Odd::LoneSurrogate | Odd::NotUtf8 => None,
        }
    }
}

pub fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// A form body of `fields`, the one named `odd` holding the odd value.
pub fn form_with(fields: &[(&str, &str)], odd: &str, value: &str) -> String {
    let mut pairs: Vec<(&str, &str)> = fields.iter().filter(|(n, _)| *n != odd).copied().collect();
    pairs.push((odd, PLACE));
    serde_urlencoded::to_string(&pairs)
        .unwrap()
        .replace(&encode(PLACE), value)
}

/// A JSON body of `fields`, the one named `odd` holding the odd value.
pub fn json_with(fields: Value, odd: &str, value: &[u8]) -> Vec<u8> {
    let mut fields = fields;
    fields[odd] = PLACE.into();
    let text = fields.to_string();
    let (before, after) = text.split_once(&format!("\"{PLACE}\"")).unwrap();
    [before.as_bytes(), value, after.as_bytes()].concat()
}

pub async fn post(browser: &Browser, path: &str, kind: &str, body: Vec<u8>) -> reqwest::Response {
    browser
        .http
        .post(format!("{}{path}", browser.base))
        .header("content-type", kind)
        .body(body)
        .send()
        .await
        .unwrap()
}

pub const FORM: &str = "application/x-www-form-urlencoded";
pub const JSON: &str = "application/json";

/// Row counts of the tables a path could write.
pub struct Rows {
    db: paydesk::store::Db,
    tables: &'static [&'static str],
}

impl Rows {
    pub async fn of(app: &TestApp, tables: &'static [&'static str]) -> Rows {
        let db = paydesk::store::Db::connect(&app.database_url)
            .await
            .unwrap();
        Rows { db, tables }
    }

    pub async fn counts(&self) -> Vec<(&'static str, i64)> {
        let mut counts = Vec::new();
        for table in self.tables {
            let sql = format!("SELECT COUNT(*) FROM {table}");
            let (count,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .fetch_one(&self.db.pool)
                .await
                .unwrap();
            counts.push((*table, count));
        }
        counts
    }
}

/// What a database says of text it cannot take; none may be logged.
const FAULTS: [&str; 5] = [
    "invalid byte sequence",
    "index row size",
    "Unicode escape",
    "nul byte",
    "invalid utf-8",
];

pub fn no_database_faults(logs: &Logs) {
    let text = logs.text();
    let faults: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("ERROR") || line.contains("internal error"))
        .filter(|line| {
            FAULTS
                .iter()
                .any(|f| line.to_lowercase().contains(&f.to_lowercase()))
        })
        .collect();
    assert!(faults.is_empty(), "{faults:#?}");
}

pub async fn status_and_json(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// `{"error": {"code", "field"}}`, the auth forms' field error.
pub fn field_error(odd: Odd, field: &str) -> Value {
    json!({"error": {"code": odd.wire(), "field": field}})
}

/// The value of the hidden input `name` in a page.
pub fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..].chars().take_while(|c| *c != '"').collect()
}

pub async fn html_of(browser: &Browser, url: &str) -> String {
    let page = browser.http.get(url).send().await.unwrap();
    assert_eq!(page.status(), 200, "{url}");
    page.text().await.unwrap()
}
