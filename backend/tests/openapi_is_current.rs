//! The machine API's OpenAPI document is generated from the endpoint table
//! and the protocol's types. This test fails when `docs/openapi.json` is
//! stale (run it with UPDATE_OPENAPI=1 to rewrite it), when the document
//! names a type it cannot describe, and when the served copy differs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use backend::http::api::endpoints::ENDPOINTS;
use backend::http::api::openapi::document;
use common::{Database, TestApp, repo_root};

fn rendered() -> String {
    let mut text = serde_json::to_string_pretty(&document()).unwrap();
    text.push('\n');
    text
}

#[test]
fn the_committed_document_is_current() {
    let path = repo_root().join("docs/openapi.json");
    let generated = rendered();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/openapi.json is stale: run `UPDATE_OPENAPI=1 cargo test -p backend --test openapi_is_current` and commit it"
    );
}

#[test]
fn every_route_is_described_with_known_types() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    let text = doc.to_string();
    assert!(
        !text.contains("unknown type"),
        "a type the document cannot describe"
    );
    for endpoint in ENDPOINTS {
        let op = &doc["paths"][endpoint.path][endpoint.method.as_str()];
        assert_eq!(op["operationId"], endpoint.name, "{}", endpoint.path);
    }
    // Every reference points at a schema the document has.
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for part in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
        let name = part.split('"').next().unwrap();
        assert!(schemas.contains_key(name), "missing schema {name}");
    }
}

#[actix_web::test]
async fn the_document_is_served() {
    let app = TestApp::start(Database::Sqlite).await;
    let served: serde_json::Value = reqwest::get(app.url("/api/v1/openapi.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(served, document());
}
