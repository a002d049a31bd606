//! Auth endpoints accept form-encoded bodies (what NextAuth clients send) and
//! JSON; both become a flat map of strings.

use std::collections::HashMap;

use actix_web::HttpRequest;
use actix_web::http::header::CONTENT_TYPE;

/// Bodies larger than this are not sign-in forms.
pub const MAX_AUTH_BODY: usize = 16 * 1024;

pub struct Fields(HashMap<String, String>);

impl Fields {
    pub fn parse(req: &HttpRequest, body: &[u8]) -> Fields {
        let is_json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let map = if is_json {
            serde_json::from_slice::<HashMap<String, serde_json::Value>>(body)
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
}
