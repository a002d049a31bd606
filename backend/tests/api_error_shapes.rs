//! Every answer of `/api/v1` that is not a success is the documented JSON
//! error, through the real server: a body past 256 KiB (413), a method the
//! path does not take (405 with `Allow`), a JSON body not sent as JSON
//! (415), an unknown upload (404); HEAD answers as GET without a body, on
//! the API and the health probes; discarding an upload answers what the
//! document says. Every answer carries a request id (`Request-Id`), which
//! an error's body quotes and the access log line carries.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support::{Api, grants, make_token};
use crate::common::{Database, TestApp, logs};
use protocol::*;
use serde_json::{Value, json};

const OWNER: &str = "owner@example.co.za";

async fn error_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let media = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(media.starts_with("application/json"), "{status}: {media}");
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    (status, body)
}

async fn every_refusal_is_the_documented_json(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let writes = grants(&[
        (Section::Customers, Access::Write),
        (Section::Payments, Access::Write),
    ]);
    let (_, secret) = make_token(&mut socket, "server", Mode::Test, writes).await;
    let api = Api::new(&app, &secret);
    let http = reqwest::Client::new();
    let url = |path: &str| app.url(&format!("/api/v1{path}"));

    let huge = format!("{{\"name\": \"{}\"}}", "x".repeat(300 * 1024));
    let too_large = http
        .post(url("/customers"))
        .bearer_auth(&secret)
        .header("idempotency-key", "big")
        .header("content-type", "application/json")
        .body(huge)
        .send()
        .await
        .unwrap();
    let (status, body) = error_of(too_large).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (413, Some("payload_too_large"))
    );

    let patched = http
        .patch(url("/customers"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(patched.headers()["allow"], "GET, HEAD, POST");
    let id = patched.headers()["request-id"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(id.starts_with("req_"), "{id}");
    let (status, body) = error_of(patched).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (405, Some("method_not_allowed"))
    );
    assert_eq!(body["error"]["requestId"], id.as_str());
    let request = format!("request={id}");
    let line = logs.line_with(&["PATCH /api/v1/customers", &request]).await;
    assert!(line.contains(" 405 "), "{line}");
    // Successes carry one too, each its own.
    let health = http.get(app.url("/healthz")).send().await.unwrap();
    let other = health.headers()["request-id"].to_str().unwrap();
    assert!(other.starts_with("req_") && other != id, "{other}");
    let deleted = http
        .delete(url("/customers"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(deleted).await.0, 405);
    let nowhere = http
        .get(url("/nothing-here"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(nowhere).await.1["error"]["code"], "not_found");

    let as_text = http
        .post(url("/customers"))
        .bearer_auth(&secret)
        .header("idempotency-key", "text")
        .header("content-type", "text/plain")
        .body(json!({"name": "Thandi Nkosi", "email": "t@example.co.za"}).to_string())
        .send()
        .await
        .unwrap();
    let (status, body) = error_of(as_text).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (415, Some("unsupported_media_type"))
    );
    let listed = api.get("/customers").await;
    assert!(
        listed.json["items"].as_array().unwrap().is_empty(),
        "nothing was made"
    );

    // HEAD is GET without the body, here and on the probes.
    let head = http
        .head(url("/customers"))
        .bearer_auth(&secret)
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 200);
    assert!(head.bytes().await.unwrap().is_empty());
    for probe in ["/healthz", "/readyz"] {
        let head = http.head(app.url(probe)).send().await.unwrap();
        assert_eq!(head.status(), 200, "{probe}");
    }

    // An unknown upload is not found; a discarded one answers its document.
    let imports = grants(&[(Section::Imports, Access::Write)]);
    let (_, importer) = make_token(&mut socket, "importer", Mode::Test, imports).await;
    let importer = Api::new(&app, &importer);
    let unknown = importer.get("/imports/uploads/upl_nothing/preview").await;
    assert_eq!(
        (unknown.status, unknown.code()),
        (404, "import_upload_not_found")
    );
    let gone = http
        .delete(url("/imports/uploads/upl_nothing"))
        .bearer_auth(&importer.secret)
        .header("idempotency-key", "d0")
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(gone).await.0, 404);
    let begun = importer
        .post(
            "/imports/uploads",
            "b1",
            &json!({"kind": "once", "template": "eft_debit_order", "fileName": "a.xlsx", "size": 10}),
        )
        .await;
    assert_eq!(begun.status, 200, "{}", begun.json);
    let upload_id = begun.json["uploadId"].as_str().unwrap().to_string();
    let discard = |key: &'static str| {
        importer
            .http
            .delete(url(&format!("/imports/uploads/{upload_id}")))
            .bearer_auth(&importer.secret)
            .header("idempotency-key", key)
            .send()
    };
    let discarded = discard("d1").await.unwrap();
    assert_eq!(discarded.status(), 200);
    let body: Value = discarded.json().await.unwrap();
    assert_eq!(body, json!({"id": upload_id, "deleted": true}));
    assert_eq!(error_of(discard("d2").await.unwrap()).await.0, 404);
}

on_both_databases!(every_refusal_is_the_documented_json);
