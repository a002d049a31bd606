//! The edges of the HTTP routes outside the machine API, through the real
//! server: an auth body past its limit is refused in the auth endpoints'
//! JSON error shape (not actix's plain text, nor an empty 413), and the
//! payer's pages answer HEAD as GET without a body, where before a HEAD fell
//! through to the web app's shell.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::orders::{create_pay_page, yoga_class};
use crate::common::{Database, TestApp};
use protocol::*;
use serde_json::Value;

const OWNER: &str = "owner@example.co.za";

async fn auth_bodies_past_the_limit_are_the_documented_json(db: Database) {
    let app = TestApp::start(db).await;
    let http = reqwest::Client::new();
    // Past the auth limit (16 KiB), and past actix's own (256 KiB).
    for size in [20 * 1024, 300 * 1024] {
        for path in [
            "/api/auth/callback/credentials",
            "/api/auth/signup",
            "/api/auth/forgot",
            "/api/auth/invite/accept",
            "/api/auth/signout",
        ] {
            let body = format!("email=a%40example.co.za&password={}", "x".repeat(size));
            let answer = http
                .post(app.url(path))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .unwrap();
            assert_eq!(answer.status(), 413, "{path} with {size} bytes");
            let media = answer.headers()["content-type"]
                .to_str()
                .unwrap()
                .to_string();
            assert!(media.starts_with("application/json"), "{path}: {media}");
            let json: Value = answer.json().await.unwrap();
            assert_eq!(json["error"]["code"], "payload_too_large", "{path}: {json}");
        }
    }
    // Within the limit, the same endpoint reads the form (here: no CSRF token).
    let answer = http
        .post(app.url("/api/auth/signup"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("email=a%40example.co.za")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 403);
}

on_both_databases!(auth_bodies_past_the_limit_are_the_documented_json);

async fn payer_pages_answer_head_as_get(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let page_id = create_pay_page(&mut tab, yoga_class("YOGA", vec![PaymentMethod::Card])).await;
    let http = reqwest::Client::new();

    let path = format!("/pay/{page_id}");
    let got = http.get(app.url(&path)).send().await.unwrap();
    assert_eq!(got.status(), 200);
    let page_type = got.headers()["content-type"].clone();
    assert!(got.text().await.unwrap().contains("Yoga class"));
    let head = http.head(app.url(&path)).send().await.unwrap();
    assert_eq!(head.status(), 200, "{path}");
    assert_eq!(head.headers()["content-type"], page_type, "{path}");
    assert!(head.bytes().await.unwrap().is_empty(), "{path}");

    // Pages that are not there say so to HEAD as to GET, each with the
    // page's own answer (not the web app's shell).
    for path in [
        "/pay/page_nothing",
        "/mandate/nothing",
        "/mandate/nothing/bank",
        "/card/nothing",
        "/pay/page_nothing/attempts/att_nothing",
    ] {
        let got = http.get(app.url(path)).send().await.unwrap();
        let head = http.head(app.url(path)).send().await.unwrap();
        assert_eq!(head.status(), got.status(), "{path}");
        assert_eq!(
            head.headers().get("content-type"),
            got.headers().get("content-type"),
            "{path}"
        );
        let body = got.text().await.unwrap();
        assert!(
            !body.contains("<div id=\"root\">"),
            "{path} is a payer's page"
        );
        assert!(head.bytes().await.unwrap().is_empty(), "{path}");
    }
}

on_both_databases!(payer_pages_answer_head_as_get);
