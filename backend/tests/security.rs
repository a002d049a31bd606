//! Attacks tried against a release build, through the real server: return
//! addresses that lead to another site, secrets in the access log, session
//! cookies that are not cleared or can be planted from a sibling host, the
//! pay page's form targets, and refusals that left no security log line.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::logs;
use common::{Database, TestApp};
use serde_json::Value;

const PASSWORD: &str = "karoo-sunset-41";

async fn url_of(response: reqwest::Response) -> String {
    let body: Value = response.json().await.unwrap();
    body["url"].as_str().unwrap().to_string()
}

async fn return_addresses_never_lead_to_another_site(db: Database) {
    let app = TestApp::start(db).await;
    let email = "owner@example.co.za";
    let browser = app.merchant(email).await;
    let host = app.addr.to_string();
    let elsewhere = [
        "/\t/evil.example".to_string(),
        "/\n/evil.example".to_string(),
        "/\r/evil.example".to_string(),
        "//evil.example".to_string(),
        "/\\evil.example".to_string(),
        "https://evil.example/".to_string(),
        format!("http://{host}//evil.example"),
        format!("http://{host}/.//evil.example"),
        format!("http://{host}/\t/evil.example"),
    ];
    for callback in &elsewhere {
        let response = browser.sign_in(email, PASSWORD, callback).await;
        assert_eq!(response.status(), 200, "{callback:?}");
        assert_eq!(url_of(response).await, "/", "sign-in with {callback:?}");
        let csrf = browser.csrf().await;
        let form = [
            ("csrfToken", csrf.as_str()),
            ("callbackUrl", callback.as_str()),
        ];
        let response = browser.post_form("/api/auth/signout", &form).await;
        assert_eq!(response.status(), 200, "{callback:?}");
        assert_eq!(url_of(response).await, "/", "sign-out with {callback:?}");
    }
    // Our own addresses still come back, as paths.
    let response = browser
        .sign_in(email, PASSWORD, "/customers?status=all")
        .await;
    assert_eq!(url_of(response).await, "/customers?status=all");
    let response = browser
        .sign_in(email, PASSWORD, &format!("http://{host}/mandates/man_1"))
        .await;
    assert_eq!(url_of(response).await, "/mandates/man_1");
}

async fn secret_links_stay_out_of_the_access_log(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let secret = paydesk::ids::new_secret();
    let http = reqwest::Client::new();
    let paths = [
        format!("/auth/reset/{secret}"),
        format!("/account/teams/invite/{secret}"),
        format!("/account/teams/email/verify/{secret}"),
        format!("/api/auth/session?callbackUrl=%2F&token={secret}"),
    ];
    for path in &paths {
        let response = http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
    }
    logs.line_with(&["GET /auth/reset/[redacted]", "200"]).await;
    logs.line_with(&["GET /account/teams/invite/[redacted]"])
        .await;
    logs.line_with(&["GET /account/teams/email/verify/[redacted]"])
        .await;
    logs.line_with(&["GET /api/auth/session?callbackUrl=[redacted]&token=[redacted]"])
        .await;
    assert!(
        !logs.text().contains(&secret),
        "a secret reached the log:\n{}",
        logs.text()
    );
}

on_both_databases!(
    return_addresses_never_lead_to_another_site,
    secret_links_stay_out_of_the_access_log,
);
