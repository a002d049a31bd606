//! Attacks tried against a release build, through the real server: return
//! addresses that lead to another site, secrets in the access log, session
//! cookies that are not cleared or can be planted from a sibling host, the
//! pay page's form targets, and refusals that left no security log line.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::logs;
use common::{Database, TestApp, committed_id, customer_input, error_of};
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
    let browser_cookie = set_cookie_named(&response, "__Host-pre-session").to_string();
    for part in ["Secure", "Path=/", "HttpOnly"] {
        assert!(browser_cookie.contains(part), "{browser_cookie}");
    }
    let browser = value_of(&browser_cookie).to_string();
    let token: Value = response.json().await.unwrap();
    let token = token["csrfToken"].as_str().unwrap();

    // A plain-named CSRF cookie (as a sibling host could plant) is not read.
    let body = json!({"name": "Thandi Nkosi", "email": "owner@example.co.za", "password": PASSWORD,
        "businessName": "Karoo Gym", "csrfToken": token});
    let planted = http
        .post(app.url("/api/auth/signup"))
        .header(
            "cookie",
            format!("csrf-token={csrf_value}; __Host-pre-session={browser}"),
        )
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(planted.status(), 403);
    let response = http
        .post(app.url("/api/auth/signup"))
        .header(
            "cookie",
            format!("__Host-csrf-token={csrf_value}; __Host-pre-session={browser}"),
        )
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

async fn a_refused_csrf_leaves_a_security_line(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let email = "owner@example.co.za";
    let browser = app.merchant(email).await;
    let (user_id, _) = app.owner_ids(email).await;
    let forged = paydesk::ids::new_secret();
    let response = browser
        .post_form(
            "/api/auth/signout",
            &[("csrfToken", forged.as_str()), ("callbackUrl", "/")],
        )
        .await;
    assert_eq!(response.status(), 400);
    let line = logs
        .line_with(&[
            "security",
            "csrf",
            &user_id,
            "127.0.0.1",
            "POST /api/auth/signout",
        ])
        .await;
    assert!(line.contains("WARN"), "{line}");
    let cookies = browser.cookie_header();
    for secret in cookies
        .split("; ")
        // The interface language is no secret (and "en" is in every log).
        .filter(|c| !c.starts_with("locale="))
        .filter_map(|c| c.split_once('=').map(|(_, v)| v))
        .chain([forged.as_str()])
    {
        assert!(!logs.text().contains(secret), "{secret} reached the log");
    }
}

async fn another_merchants_ids_over_the_socket_leave_a_security_line(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Live).await;
    let customer_id = committed_id(
        tab.command(
            "c1",
            Command::CreateCustomer {
                input: customer_input("Anna", "anna@example.co.za"),
            },
        )
        .await,
    );
    let (_, first_merchant) = app.owner_ids("owner@example.co.za").await;
    let rival = app.merchant("rival@example.co.za").await;
    let (rival_id, rival_merchant) = app.owner_ids("rival@example.co.za").await;
    let mut other = rival.open(Mode::Live).await;

    let reply = other
        .query(
            "g",
            Query::GetCustomer {
                customer_id: customer_id.clone(),
            },
        )
        .await;
    assert_eq!(error_of(reply).code, ErrorCode::NotFound);
    let line = logs
        .line_with(&["security", "foreign_id", "GetCustomer", &customer_id])
        .await;
    for part in [&rival_id, &first_merchant, &rival_merchant, "127.0.0.1"] {
        assert!(line.contains(part), "{part} missing in {line}");
    }
    let reply = other
        .command(
            "x",
            Command::ArchiveCustomer {
                customer_id: customer_id.clone(),
            },
        )
        .await;
    assert_eq!(error_of(reply).code, ErrorCode::NotFound);
    logs.line_with(&["foreign_id", "ArchiveCustomer", &customer_id, &rival_id])
        .await;

    // The merchant's own id in the other mode is another ledger's, but no
    // attack: a link opened in a tab on the other mode. Its owner is told
    // where it is; a rival asking the same is told nothing, and logged.
    let mut test_tab = owner.open(Mode::Test).await;
    let reply = test_tab
        .query(
            "t",
            Query::GetCustomer {
                customer_id: customer_id.clone(),
            },
        )
        .await;
    assert_eq!(error_of(reply).code, ErrorCode::NotFound);
    let locate = |id: &str| Query::LocateRecord {
        record_id: id.to_string(),
    };
    let located = test_tab.query("l", locate(&customer_id)).await;
    let Some(ReplyBody::RecordLocation { place }) = answer_of(located) else {
        panic!("the owner is told where their own customer is");
    };
    assert_eq!(
        (place.merchant_id.as_str(), place.mode),
        (first_merchant.as_str(), Mode::Live)
    );
    let located = other.query("rl", locate(&customer_id)).await;
    assert_eq!(error_of(located).code, ErrorCode::NotFound);
    logs.line_with(&["foreign_id", "LocateRecord", &customer_id, &rival_id])
        .await;
    let own_data = logs
        .text()
        .lines()
        .filter(|line| line.contains(&customer_id) && line.contains("used from"))
        .filter(|line| line.contains("(test)"))
        .count();
    assert_eq!(own_data, 0, "{}", logs.text());

    // Asking for another merchant's stream is logged as it is refused.
    let mut intruder = rival.socket().await;
    intruder
        .send(&ClientFrame::Hello {
            resume: None,
            build: "t".into(),
            merchant_id: Some(first_merchant.clone()),
            mode: None,
        })
        .await;
    assert_eq!(intruder.closed().await, Some(4006));
    logs.line_with(&["foreign_merchant", &first_merchant, &rival_id])
        .await;
}

fn page_input(success_url: Option<&str>) -> PayPageInput {
    PayPageInput {
        title: "Yoga class".into(),
        description: "One drop-in class.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Once,
        interval: None,
        methods: vec![PaymentMethod::Card],
        expires_on: None,
        max_uses: None,
        reference: "YOGA-1".into(),
        success_url: success_url.map(str::to_string),
        colour: "#1e3a8a".into(),
    }
}

async fn pay_page_forms_go_only_to_us_and_the_success_site(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Live).await;
    let mut policy_of = async |command_id: &str, success_url: Option<&str>| {
        let id = committed_id(
            tab.command(
                command_id,
                Command::CreatePayPage {
                    input: Box::new(page_input(success_url)),
                },
            )
            .await,
        );
        let response = reqwest::get(app.url(&format!("/pay/{id}"))).await.unwrap();
        assert_eq!(response.status(), 200);
        response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string()
    };
    let plain = policy_of("p1", None).await;
    assert!(plain.contains("form-action 'self';"), "{plain}");
    let with_success = policy_of("p2", Some("https://shop.example/thanks?o=1")).await;
    assert!(
        with_success.contains("form-action 'self' https://shop.example;"),
        "{with_success}"
    );
    for policy in [plain, with_success] {
        assert!(!policy.contains("https:;"), "{policy}");
        assert!(policy.contains("default-src 'none'"), "{policy}");
    }
}

/// What a query was answered, when it was not refused.
fn answer_of(frame: ServerFrame) -> Option<ReplyBody> {
    match frame {
        ServerFrame::Reply { ok, .. } => ok,
        other => panic!("expected a reply, got {other:?}"),
    }
}

/// The value of the hidden input `name` in a page.
fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).unwrap() + marker.len();
    html[start..].chars().take_while(|c| *c != '"').collect()
}

async fn another_merchants_pay_attempt_leaves_a_security_line(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Live).await;
    let page_a = committed_id(
        tab.command(
            "pa",
            Command::CreatePayPage {
                input: Box::new(page_input(None)),
            },
        )
        .await,
    );
    let rival = app.merchant("rival@example.co.za").await;
    let mut rival_tab = rival.open(Mode::Live).await;
    let page_b = committed_id(
        rival_tab
            .command(
                "pb",
                Command::CreatePayPage {
                    input: Box::new(page_input(None)),
                },
            )
            .await,
    );

    // A payer pays on the first merchant's page.
    let payer = app.browser();
    let form_page = payer
        .http
        .get(app.url(&format!("/pay/{page_a}?method=card")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let (csrf, attempt) = (
        hidden(&form_page, "csrfToken"),
        hidden(&form_page, "attempt"),
    );
    let paid = payer
        .post_form(
            &format!("/pay/{page_a}"),
            &[
                ("csrfToken", csrf.as_str()),
                ("attempt", attempt.as_str()),
                ("method", "card"),
                ("name", "Lerato Dlamini"),
                ("email", "lerato@example.co.za"),
                // A live page: any valid number but the published test cards.
                ("cardNumber", "4111111111111111"),
                ("expiry", "12/29"),
                ("cvv", "123"),
            ],
        )
        .await;
    assert_eq!(paid.status(), 303);
    let location = paid.headers()["location"].to_str().unwrap().to_string();
    let attempt_id = location.rsplit('/').next().unwrap().to_string();

    // Its attempt asked for under the other merchant's page: the same 404
    // as for an attempt that does not exist, and a security line.
    let foreign = payer
        .http
        .get(app.url(&format!("/pay/{page_b}/attempts/{attempt_id}")))
        .send()
        .await
        .unwrap();
    let unknown = payer
        .http
        .get(app.url(&format!(
            "/pay/{page_b}/attempts/att_0000000000000000000000000000"
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 404);
    assert_eq!(unknown.status(), 404);
    logs.line_with(&["security", "foreign_id", &page_b, &attempt_id, "127.0.0.1"])
        .await;
}

on_both_databases!(
    return_addresses_never_lead_to_another_site,
    secret_links_stay_out_of_the_access_log,
    a_cookie_of_no_live_session_is_cleared,
    under_https_the_cookies_are_host_only,
    a_refused_csrf_leaves_a_security_line,
    another_merchants_ids_over_the_socket_leave_a_security_line,
    pay_page_forms_go_only_to_us_and_the_success_site,
    another_merchants_pay_attempt_leaves_a_security_line,
);
