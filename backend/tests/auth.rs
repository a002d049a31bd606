//! The HTTP authentication surface and the static app, through the real server.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Database, TestApp};
use serde_json::{Value, json};

async fn csrf_providers_and_empty_session(db: Database) {
    let app = TestApp::start(db).await;
    let browser = app.browser();
    let response = browser
        .http
        .get(app.url("/api/auth/csrf"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let set_cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        set_cookie.starts_with("csrf-token=") && set_cookie.contains("HttpOnly"),
        "{set_cookie}"
    );
    let body: Value = response.json().await.unwrap();
    let token = body["csrfToken"].as_str().unwrap();
    assert!(token.len() >= 32);
    assert_eq!(
        browser.csrf().await,
        token,
        "the same browser keeps its token"
    );

    let providers: Value = browser
        .http
        .get(app.url("/api/auth/providers"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        providers,
        json!({"credentials": {"id": "credentials", "name": "Credentials", "type": "credentials",
            "signinUrl": "/api/auth/signin/credentials", "callbackUrl": "/api/auth/callback/credentials"},
            "email": {"id": "email", "name": "Email", "type": "email",
            "signinUrl": "/api/auth/signin/email", "callbackUrl": "/api/auth/callback/email"}})
    );

    let response = browser
        .http
        .get(app.url("/api/auth/session?callbackUrl=%2F"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({}));
}

async fn sign_up_then_session_then_duplicates_and_weak_passwords(db: Database) {
    let app = TestApp::start(db).await;
    let browser = app.browser();
    let response = browser
        .sign_up(
            "Thandi Nkosi",
            "Thandi@Example.co.za",
            "karoo-sunset-41",
            "Karoo Gym",
        )
        .await;
    assert_eq!(response.status(), 200);
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.starts_with("session-token=")
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "plain http gets no Secure flag");
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"url": "/"}));
    let session = browser.session().await;
    assert_eq!(session["user"]["email"], "thandi@example.co.za");
    assert_eq!(session["user"]["name"], "Thandi Nkosi");
    assert!(session["expires"].as_str().unwrap().contains('T'));

    let other = app.browser();
    let response = other
        .sign_up(
            "Someone",
            "thandi@example.co.za",
            "another-long-pass",
            "Other",
        )
        .await;
    assert_eq!(response.status(), 409);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"error": {"code": "email_taken", "field": "email"}})
    );

    for (password, code) in [
        ("short", "weak_password"),
        ("1234567890", "common_password"),
        ("Password123", "common_password"),
    ] {
        let response = other
            .sign_up("Someone", "someone@example.co.za", password, "Other")
            .await;
        assert_eq!(response.status(), 400, "{password}");
        assert_eq!(
            response.json::<Value>().await.unwrap()["error"]["code"],
            code,
            "{password}"
        );
    }
    let response = other
        .sign_up(
            "Someone",
            "someone@mailinator.com",
            "another-long-pass",
            "Other",
        )
        .await;
    assert_eq!(
        response.json::<Value>().await.unwrap()["error"],
        json!({"code": "blocked_email_domain", "field": "email"})
    );

    let response = other
        .http
        .post(app.url("/api/auth/signup"))
        .json(&json!({"name": "A", "email": "a@example.co.za", "password": "another-long-pass", "businessName": "B"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403, "no csrf token");
    assert_eq!(
        response.json::<Value>().await.unwrap()["error"]["code"],
        "csrf_invalid"
    );
    assert_eq!(other.session().await, json!({}));
}

async fn sign_in_answers_alike_for_wrong_password_and_unknown_user(db: Database) {
    let app = TestApp::start(db).await;
    app.merchant("owner@example.co.za").await;

    let browser = app.browser();
    let wrong = browser
        .sign_in("owner@example.co.za", "not-the-password", "/customers")
        .await;
    assert_eq!(wrong.status(), 401);
    assert!(
        wrong
            .headers()
            .get("set-cookie")
            .is_none_or(|c| !c.to_str().unwrap().starts_with("session-token"))
    );
    let wrong: Value = wrong.json().await.unwrap();
    let unknown: Value = browser
        .sign_in("nobody@example.co.za", "not-the-password", "/customers")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(wrong, unknown);
    assert_eq!(wrong, json!({"url": "/auth/login?error=CredentialsSignin"}));

    let ok = browser
        .sign_in(
            "OWNER@example.co.za",
            "karoo-sunset-41",
            "/customers?page=2",
        )
        .await;
    assert_eq!(ok.status(), 200);
    assert_eq!(
        ok.json::<Value>().await.unwrap(),
        json!({"url": "/customers?page=2"})
    );
    assert_eq!(
        browser.session().await["user"]["email"],
        "owner@example.co.za"
    );

    for foreign in [
        "https://evil.example.com/steal",
        "//evil.example.com/x",
        "/\\evil.example.com",
    ] {
        let other = app.browser();
        let body: Value = other
            .sign_in("owner@example.co.za", "karoo-sunset-41", foreign)
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(body, json!({"url": "/"}), "{foreign}");
    }
    let own_absolute = app.url("/mandates");
    let body: Value = app
        .browser()
        .sign_in("owner@example.co.za", "karoo-sunset-41", &own_absolute)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body, json!({"url": "/mandates"}));
}

async fn sign_in_without_or_with_forged_csrf_makes_no_session(db: Database) {
    let app = TestApp::start(db).await;
    app.merchant("owner@example.co.za").await;
    let browser = app.browser();
    browser.csrf().await;
    for token in ["", "forged-token"] {
        let form = [
            ("csrfToken", token),
            ("callbackUrl", "/"),
            ("json", "true"),
            ("email", "owner@example.co.za"),
            ("password", "karoo-sunset-41"),
        ];
        let response = browser
            .post_form("/api/auth/callback/credentials", &form)
            .await;
        let body: Value = response.json().await.unwrap();
        assert!(
            body["url"].as_str().unwrap().contains("csrf=true"),
            "{body}"
        );
        assert_eq!(browser.session().await, json!({}));
    }
    // The header named in the configuration is accepted instead of the form field.
    let token = browser.csrf().await;
    let response = browser
        .http
        .post(app.url("/api/auth/signin/credentials"))
        .header("x-csrf-token", token)
        .form(&[
            ("email", "owner@example.co.za"),
            ("password", "karoo-sunset-41"),
            ("json", "true"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
}

async fn empty_sign_in_forms_count_as_no_failure(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.signin_limit_per_account = 3;
        config.signin_limit_per_address = 3;
    })
    .await;
    app.merchant("owner@example.co.za").await;
    let browser = app.browser();
    for (email, password) in [("", ""), ("", "x"), ("owner@example.co.za", "")] {
        for _ in 0..4 {
            let refused = browser.sign_in(email, password, "/").await;
            assert_eq!(refused.status(), 400, "{email:?} {password:?}");
        }
    }
    // Neither the address nor the account was locked by them.
    let signed_in = browser
        .sign_in("owner@example.co.za", "karoo-sunset-41", "/")
        .await;
    assert_eq!(signed_in.status(), 200);
}

async fn repeated_failures_are_throttled_per_account(db: Database) {
    let app = TestApp::start_with(db, |config| config.signin_limit_per_account = 3).await;
    app.merchant("owner@example.co.za").await;
    let browser = app.browser();
    for _ in 0..3 {
        assert_eq!(
            browser
                .sign_in("owner@example.co.za", "wrong-password", "/")
                .await
                .status(),
            401
        );
    }
    let blocked = browser
        .sign_in("owner@example.co.za", "karoo-sunset-41", "/")
        .await;
    assert_eq!(
        blocked.status(),
        429,
        "even the right password waits out the window"
    );
    assert_eq!(
        blocked.json::<Value>().await.unwrap(),
        json!({"url": "/auth/login?error=TooManyAttempts"})
    );
    assert_eq!(browser.session().await, json!({}));
}

async fn sign_out_needs_csrf_and_ends_the_session(db: Database) {
    let app = TestApp::start(db).await;
    let browser = app.merchant("owner@example.co.za").await;
    let response = browser
        .post_form(
            "/api/auth/signout",
            &[("callbackUrl", "/"), ("json", "true")],
        )
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"error": "Could not fetch CSRF Token for signing out"})
    );
    assert!(browser.session().await["user"].is_object());

    let response = browser.sign_out().await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"url": "/auth/login"})
    );
    assert_eq!(browser.session().await, json!({}));
}

async fn app_routes_fall_back_to_the_app_and_others_are_404(db: Database) {
    let app = TestApp::start(db).await;
    let http = reqwest::Client::new();
    for path in [
        "/",
        "/customers",
        "/customers/cus_0123abc",
        "/payments/recurring/imports/imp_1",
        "/account/teams/invite/tok-1",
    ] {
        let response = http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let html = response.text().await.unwrap();
        assert!(
            html.contains("<div id=\"root\">") && html.contains("name=\"csrf-token\""),
            "{path}"
        );
    }
    for path in [
        "/nope",
        "/customers/a/b",
        "/customers/bad%20id",
        "/api/nothing",
    ] {
        let response = http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
    let asset = http.get(app.url("/assets/app.js")).send().await.unwrap();
    assert_eq!(asset.status(), 200);
    assert!(
        asset.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    assert_eq!(
        http.get(app.url("/assets/../../etc/passwd"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        http.get(app.url("/api/auth/unknown"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

/// The `locale` cookies a response sets.
fn locale_cookies(response: &reqwest::Response) -> Vec<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter(|c| c.starts_with("locale="))
        .map(str::to_string)
        .collect()
}

async fn the_browsers_language_becomes_the_accounts_and_follows_it(db: Database) {
    let app = TestApp::start(db).await;
    // A browser set to Afrikaans that never chose a language in the app.
    let browser = app.browser();
    let csrf = browser.csrf().await;
    let body = json!({"name": "Anna Botha", "email": "anna@example.co.za",
        "password": "karoo-sunset-41", "businessName": "Botha Bakkery", "csrfToken": csrf});
    let signed_up = browser
        .http
        .post(app.url("/api/auth/signup"))
        .header("accept-language", "af-ZA,af;q=0.9,en;q=0.8")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(signed_up.status(), 200);
    let cookies = locale_cookies(&signed_up);
    assert!(
        cookies.len() == 1 && cookies[0].starts_with("locale=afr;"),
        "{cookies:?}"
    );
    // Readable by the web app, which switches its words with it.
    assert!(!cookies[0].contains("HttpOnly"), "{cookies:?}");

    // Signing in from an English browser brings the saved language along.
    let elsewhere = app.browser();
    let signed_in = elsewhere
        .sign_in("anna@example.co.za", "karoo-sunset-41", "/")
        .await;
    assert_eq!(signed_in.status(), 200);
    let cookies = locale_cookies(&signed_in);
    assert!(
        cookies.len() == 1 && cookies[0].starts_with("locale=afr;"),
        "{cookies:?}"
    );

    // A browser that chose English keeps its choice.
    let chose = app.browser();
    let url = reqwest::Url::parse(&app.url("/")).unwrap();
    chose.jar.add_cookie_str("locale=en; Path=/", &url);
    let signed_in = chose
        .sign_in("anna@example.co.za", "karoo-sunset-41", "/")
        .await;
    assert_eq!(signed_in.status(), 200);
    assert!(locale_cookies(&signed_in).is_empty());
}

on_both_databases!(
    the_browsers_language_becomes_the_accounts_and_follows_it,
    csrf_providers_and_empty_session,
    sign_up_then_session_then_duplicates_and_weak_passwords,
    sign_in_answers_alike_for_wrong_password_and_unknown_user,
    sign_in_without_or_with_forged_csrf_makes_no_session,
    repeated_failures_are_throttled_per_account,
    empty_sign_in_forms_count_as_no_failure,
    sign_out_needs_csrf_and_ends_the_session,
    app_routes_fall_back_to_the_app_and_others_are_404,
);

/// An auth base path the web app has pages under stops the server at start
/// with the specification's 'Server configuration error'.
#[tokio::test]
async fn an_auth_base_path_inside_the_app_stops_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("clash.db").display());
    let mut config = backend::config::Config::for_database(&url);
    config.bind = "127.0.0.1:0".into();
    config.auth_base_path = "/auth".into();
    let Err(error) = backend::app::start(config).await else {
        panic!("the server started with AUTH_BASE_PATH=/auth");
    };
    assert!(
        error.to_string().contains("Server configuration error"),
        "{error}"
    );
}
