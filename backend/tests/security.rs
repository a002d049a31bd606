//! Attacks tried against a release build, through the real server: return
//! addresses that lead to another site, secrets in the access log, session
//! cookies that are not cleared or can be planted from a sibling host, the
//! pay page's form targets, and refusals that left no security log line.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::logs;
use common::{Database, TestApp};
use futures_util::StreamExt;
use protocol::*;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

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

async fn a_cookie_of_no_live_session_is_cleared(db: Database) {
    let app = TestApp::start(db).await;
    let http = reqwest::Client::new();
    let ask = |cookie: String| {
        let request = http
            .get(app.url("/api/auth/session"))
            .header("cookie", cookie);
        async move { request.send().await.unwrap() }
    };
    let browser = app.merchant("owner@example.co.za").await;
    let signed_in = browser.cookie_header();
    let revoked = signed_in
        .split("; ")
        .find(|c| c.starts_with("session-token="))
        .unwrap()
        .to_string();
    assert!(browser.sign_out().await.status().is_success());
    for cookie in ["session-token=made-up".to_string(), revoked] {
        let response = ask(cookie.clone()).await;
        assert_eq!(response.status(), 200);
        let set_cookie = response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            set_cookie.starts_with("session-token=;") && set_cookie.contains("Max-Age=0"),
            "{cookie}: {set_cookie}"
        );
        assert_eq!(response.json::<Value>().await.unwrap(), json!({}));
    }
}

fn set_cookie_named<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .find(|v| v.starts_with(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name} cookie set"))
}

fn value_of(set_cookie: &str) -> &str {
    let pair = set_cookie.split(';').next().unwrap();
    pair.split_once('=').unwrap().1
}

async fn under_https_the_cookies_are_host_only(db: Database) {
    const ORIGIN: &str = "https://paydesk.test";
    let app = TestApp::start_with(db, |config| config.public_url = Some(ORIGIN.into())).await;
    let http = reqwest::Client::new();
    let response = http.get(app.url("/api/auth/csrf")).send().await.unwrap();
    let csrf_cookie = set_cookie_named(&response, "__Host-csrf-token").to_string();
    for part in ["Secure", "Path=/", "HttpOnly"] {
        assert!(csrf_cookie.contains(part), "{csrf_cookie}");
    }
    assert!(!csrf_cookie.contains("Domain"), "{csrf_cookie}");
    let csrf_value = value_of(&csrf_cookie).to_string();
    let token: Value = response.json().await.unwrap();
    let token = token["csrfToken"].as_str().unwrap();

    // A plain-named CSRF cookie (as a sibling host could plant) is not read.
    let body = json!({"name": "Thandi Nkosi", "email": "owner@example.co.za", "password": PASSWORD,
        "businessName": "Karoo Gym", "csrfToken": token});
    let planted = http
        .post(app.url("/api/auth/signup"))
        .header("cookie", format!("csrf-token={csrf_value}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(planted.status(), 403);
    let response = http
        .post(app.url("/api/auth/signup"))
        .header("cookie", format!("__Host-csrf-token={csrf_value}"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let session_cookie = set_cookie_named(&response, "__Host-session-token").to_string();
    assert!(
        session_cookie.contains("Secure") && session_cookie.contains("Path=/"),
        "{session_cookie}"
    );
    assert!(!session_cookie.contains("Domain"), "{session_cookie}");
    let session = value_of(&session_cookie).to_string();

    let session_for = |cookie: String| {
        let request = http
            .get(app.url("/api/auth/session"))
            .header("cookie", cookie);
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let mine = session_for(format!("__Host-session-token={session}")).await;
    assert_eq!(mine["user"]["email"], "owner@example.co.za");
    assert_eq!(
        session_for(format!("session-token={session}")).await,
        json!({})
    );

    // The socket reads the same cookie, and only that one.
    let socket = |cookie: String| {
        let mut request = format!("ws://{}/ws", app.addr)
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("origin", ORIGIN.parse().unwrap());
        request
            .headers_mut()
            .insert("cookie", cookie.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    assert!(
        socket(format!("session-token={session}")).await.is_err(),
        "the plain name opens no socket"
    );
    let (mut stream, _) = socket(format!("__Host-session-token={session}"))
        .await
        .expect("the prefixed cookie opens the socket");
    let hello = ClientFrame::Hello {
        resume: None,
        build: "test".into(),
        merchant_id: None,
        mode: None,
    };
    futures_util::SinkExt::send(
        &mut stream,
        tokio_tungstenite::tungstenite::Message::binary(encode(&hello).unwrap()),
    )
    .await
    .unwrap();
    let welcome = loop {
        match stream.next().await.unwrap().unwrap() {
            tokio_tungstenite::tungstenite::Message::Binary(bytes) => {
                break decode::<ServerFrame>(&bytes).unwrap();
            }
            _ => continue,
        }
    };
    assert!(
        matches!(welcome, ServerFrame::Welcome { .. }),
        "{welcome:?}"
    );
}

on_both_databases!(
    return_addresses_never_lead_to_another_site,
    secret_links_stay_out_of_the_access_log,
    a_cookie_of_no_live_session_is_cleared,
    under_https_the_cookies_are_host_only,
);
