//! Attacks tried against a release build, through the real server: return
//! addresses that lead to another site, secrets in the access log, session
//! cookies that are not cleared or can be planted from a sibling host, the
//! pay page's form targets, and refusals that left no security log line.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::logs;
use common::{Database, TestApp};

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

on_both_databases!(secret_links_stay_out_of_the_access_log,);
