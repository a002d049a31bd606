//! A CSRF cookie and token are bound to the browser they were minted for
//! (its pre-session cookie): planted in another browser, they sign no one
//! in (login CSRF) and no one out, and the refusal leaves a security log
//! line with no secret in it. The NextAuth-style calls keep their shapes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{Browser, Database, TestApp, logs};
use serde_json::{Value, json};

const ATTACKER: &str = "attacker@example.co.za";
const VICTIM: &str = "victim@example.co.za";
const PASSWORD: &str = "karoo-sunset-41";

/// The value of the cookie `name` in this browser's jar.
fn cookie_of(browser: &Browser, name: &str) -> String {
    browser
        .cookie_header()
        .split("; ")
        .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name} cookie"))
        .to_string()
}

/// Sets the CSRF cookie as a sibling host could, replacing the browser's own.
fn plant_csrf_cookie(browser: &Browser, value: &str) {
    browser.jar.add_cookie_str(
        &format!("csrf-token={value}; Path=/; HttpOnly"),
        &browser.base.parse().unwrap(),
    );
}

async fn credentials(browser: &Browser, token: &str, email: &str) -> reqwest::Response {
    let form = [
        ("csrfToken", token),
        ("callbackUrl", "/"),
        ("json", "true"),
        ("email", email),
        ("password", PASSWORD),
    ];
    browser
        .post_form("/api/auth/callback/credentials", &form)
        .await
}

async fn a_pair_minted_for_another_browser_is_refused(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    app.merchant(ATTACKER).await;
    let victim = app.merchant(VICTIM).await;

    // The attacker mints a pair in a browser of their own.
    let attacker = app.browser();
    let token = attacker.csrf().await;
    let minted = cookie_of(&attacker, "csrf-token");
    let attacker_browser = cookie_of(&attacker, "pre-session");

    // Login CSRF: a fresh browser that has its own pre-session.
    let fresh = app.browser();
    fresh.csrf().await;
    plant_csrf_cookie(&fresh, &minted);
    let refused = credentials(&fresh, &token, ATTACKER).await;
    assert_eq!(refused.status(), 403);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body, json!({"url": "/auth/login?csrf=true"}));
    assert_eq!(
        fresh.session().await,
        json!({}),
        "not signed in as the attacker"
    );
    let line = logs
        .line_with(&[
            "security",
            "csrf",
            "POST /api/auth/callback/credentials",
            "not minted for this browser",
        ])
        .await;
    assert!(line.contains("WARN"), "{line}");

    // Sign-out CSRF: the victim, signed in, keeps their session.
    victim.csrf().await;
    plant_csrf_cookie(&victim, &minted);
    let signed_out = victim
        .post_form(
            "/api/auth/signout",
            &[("csrfToken", token.as_str()), ("callbackUrl", "/")],
        )
        .await;
    assert_eq!(signed_out.status(), 400);
    assert_eq!(
        signed_out.json::<Value>().await.unwrap(),
        json!({"error": "Could not fetch CSRF Token for signing out"})
    );
    assert_eq!(victim.session().await["user"]["email"], VICTIM);

    // In the browser it was minted for, the same pair signs in as before.
    let accepted = credentials(&attacker, &token, ATTACKER).await;
    assert_eq!(accepted.status(), 200);
    let body: Value = accepted.json().await.unwrap();
    assert!(body["url"].as_str().is_some(), "{body}");
    assert_eq!(attacker.session().await["user"]["email"], ATTACKER);

    // A browser that gets a fresh pair after the refusal signs out normally.
    let own = victim.csrf().await;
    assert_ne!(own, token);
    let signed_out = victim
        .post_form(
            "/api/auth/signout",
            &[("csrfToken", own.as_str()), ("callbackUrl", "/")],
        )
        .await;
    assert_eq!(signed_out.status(), 200);
    assert_eq!(victim.session().await, json!({}));

    let text = logs.text();
    for secret in [&token, &minted, &attacker_browser] {
        assert!(!text.contains(secret.as_str()), "a secret reached the log");
    }
}

on_both_databases!(a_pair_minted_for_another_browser_is_refused);
