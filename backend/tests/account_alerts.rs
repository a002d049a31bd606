//! What an account's owner is told, and what an attacker cannot do to the
//! inbox: reset mails are limited per address whoever asks, a sign-in
//! lockout is mailed once and a reset lifts it (on every node), and a
//! password change, two-factor turned off or a wrong second factor after the
//! right password are mailed in the owner's language, through the real app
//! and the mail it writes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::net::Ipv4Addr;

use common::two_factor::{enable_two_factor, now_seconds};
use common::{Browser, Database, TestApp};
use paydesk::auth::totp;
use protocol::{Command, ErrorCode, Language, ReplyBody, ServerFrame};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.co.za";
const PASSWORD: &str = "karoo-sunset-41";
const NEW_PASSWORD: &str = "new-karoo-pass-7";

async fn post_json(browser: &Browser, path: &str, mut body: Value) -> (u16, Value) {
    body["csrfToken"] = json!(browser.csrf().await);
    let response = browser
        .http
        .post(format!("{}{}", browser.base, path))
        .json(&body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

async fn sign_in_status(browser: &Browser, password: &str) -> (u16, Value) {
    let response = browser.sign_in(OWNER, password, "/").await;
    (response.status().as_u16(), response.json().await.unwrap())
}

/// Asks for a reset link through `browser` and follows it to set
/// `NEW_PASSWORD`; the link is read from `mail_app`'s mail folder.
async fn reset_by_mail(mail_app: &TestApp, browser: &Browser) {
    let asked = post_json(browser, "/api/auth/forgot", json!({"email": OWNER})).await;
    assert_eq!(asked, (200, json!({"ok": true})));
    let link = mail_app.link_in_mail(OWNER, "/auth/reset/").await;
    let token = link.rsplit('/').next().unwrap().to_string();
    let reset = post_json(
        browser,
        "/api/auth/reset",
        json!({"token": token, "password": NEW_PASSWORD}),
    )
    .await;
    assert_eq!(reset, (200, json!({"url": "/auth/login?reset=done"})));
}

fn ok(frame: ServerFrame) -> ReplyBody {
    match frame {
        ServerFrame::Reply { ok: Some(body), .. } => body,
        other => panic!("expected an ok reply, got {other:?}"),
    }
}

/// A code of the right shape that the secret does not accept now.
fn wrong_code(secret: &str) -> String {
    let now = now_seconds();
    let valid: Vec<String> = [now - 30, now, now + 30]
        .iter()
        .map(|t| totp::code_at(secret, *t).unwrap())
        .collect();
    (0..4)
        .map(|n| format!("{n:06}"))
        .find(|code| !valid.contains(code))
        .unwrap()
}

async fn reset_mails_to_one_address_are_limited_whoever_asks(db: Database) {
    let app = TestApp::start(db).await;
    app.merchant(OWNER).await;
    // Twenty-five clients, each under its own per-client limit, ask for the
    // same address; the same for an address without an account.
    for i in 0..25u8 {
        let client = app.browser_from(Ipv4Addr::new(127, 0, 1, i + 2));
        let known = post_json(&client, "/api/auth/forgot", json!({"email": OWNER})).await;
        let unknown = post_json(
            &client,
            "/api/auth/forgot",
            json!({"email": "nobody@example.co.za"}),
        )
        .await;
        assert_eq!(known, (200, json!({"ok": true})), "request {i}");
        assert_eq!(known, unknown, "request {i}: no account oracle");
    }
    let resets = app.mails_containing(OWNER, "/auth/reset/", 3).await;
    assert_eq!(
        resets.len(),
        paydesk::domain::recovery::RESET_MAILS_PER_HOUR as usize,
        "requests past the address's quota send nothing"
    );
    assert_eq!(app.mails_to("nobody@example.co.za"), 0);
}

async fn a_lockout_is_mailed_once_and_a_reset_lifts_it(db: Database) {
    let app = TestApp::start_with(db, |config| config.signin_limit_per_account = 3).await;
    app.merchant(OWNER).await;
    let attacker = app.browser_from(Ipv4Addr::new(127, 0, 2, 1));
    for _ in 0..3 {
        assert_eq!(sign_in_status(&attacker, "wrong-password").await.0, 401);
    }
    // Tries during the lockout are refused and start no second lockout.
    for _ in 0..3 {
        assert_eq!(
            sign_in_status(&attacker, "wrong-password").await,
            (429, json!({"url": "/auth/login?error=TooManyAttempts"}))
        );
    }
    let owner = app.browser();
    assert_eq!(
        sign_in_status(&owner, PASSWORD).await.0,
        429,
        "the lockout holds for the right password too"
    );
    reset_by_mail(&app, &owner).await;
    assert_eq!(
        sign_in_status(&owner, NEW_PASSWORD).await.0,
        200,
        "a completed reset lifts the lockout"
    );
    let locked = app
        .mails_containing(OWNER, "Sign-in to your Paydesk account is locked", 1)
        .await;
    assert_eq!(locked.len(), 1, "one mail per lockout");
    let mail = &locked[0];
    assert!(mail.contains("After 3 failed sign-ins"), "{mail}");
    assert!(mail.contains("from the address 127.0.2.1"), "{mail}");
    assert!(mail.contains(" SAST"), "when: {mail}");
    assert!(
        mail.contains(&format!("{}/auth/forgot", app.origin())) && !mail.contains("/auth/reset/"),
        "the reset page, no secret link: {mail}"
    );

    let changed = app
        .mails_containing(OWNER, "Your Paydesk password was changed", 1)
        .await;
    assert_eq!(changed.len(), 1);
    assert!(changed[0].contains("from the address 127.0.0.1"));
}

/// Two nodes on one database: a lockout made on one holds on the other,
/// and a reset completed on the other lifts it on the first.
async fn a_lockout_and_its_lifting_hold_on_every_node(db: Database) {
    let dir = tempfile::tempdir().unwrap();
    let url = match db {
        Database::Sqlite => format!("sqlite://{}", dir.path().join("shared.db").display()),
        Database::Postgres(base) => common::fresh_postgres_database(&base).await,
    };
    let node_a = TestApp::start_at_with(&url, |config| config.signin_limit_per_account = 3).await;
    let (mail_dir, public_url) = (node_a.mail_dir.clone(), node_a.origin());
    // Both nodes deliver the shared outbox into one folder, read through
    // node A, and build links to one public origin, as behind one proxy.
    let node_b = TestApp::start_at_with(&url, |config| {
        config.signin_limit_per_account = 3;
        config.mail_dir = mail_dir;
        config.public_url = Some(public_url);
    })
    .await;
    node_a.merchant(OWNER).await;
    let attacker = node_a.browser_from(Ipv4Addr::new(127, 0, 2, 2));
    for _ in 0..3 {
        assert_eq!(sign_in_status(&attacker, "wrong-password").await.0, 401);
    }
    let owner_on_b = node_b.browser();
    assert_eq!(
        sign_in_status(&owner_on_b, PASSWORD).await.0,
        429,
        "locked on the other node too"
    );
    reset_by_mail(&node_a, &owner_on_b).await;
    let owner_on_a = node_a.browser();
    assert_eq!(
        sign_in_status(&owner_on_a, NEW_PASSWORD).await.0,
        200,
        "lifted on the node that did not see the reset"
    );
    let locked = node_a
        .mails_containing(OWNER, "Sign-in to your Paydesk account is locked", 1)
        .await;
    assert_eq!(locked.len(), 1);
}

async fn a_wrong_second_factor_after_the_right_password_warns_once(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (mut tab, _) = owner.live().await;
    let (secret, used_code) = enable_two_factor(&mut tab).await;

    let attacker = app.browser_from(Ipv4Addr::new(127, 0, 3, 1));
    for code in [used_code, wrong_code(&secret), wrong_code(&secret)] {
        let csrf = attacker.csrf().await;
        let form = [
            ("csrfToken", csrf.as_str()),
            ("json", "true"),
            ("email", OWNER),
            ("password", PASSWORD),
            ("code", code.as_str()),
        ];
        let refused = attacker
            .post_form("/api/auth/callback/credentials", &form)
            .await;
        assert_eq!(
            refused.json::<Value>().await.unwrap(),
            json!({"url": "/auth/login?error=TwoFactorInvalid"}),
            "a replayed or wrong code"
        );
    }
    assert_eq!(sign_in_status(&attacker, "wrong-password").await.0, 401);
    let warnings = app
        .mails_containing(OWNER, "failed the second step", 1)
        .await;
    assert_eq!(warnings.len(), 1, "at most one warning per window");
    let mail = &warnings[0];
    assert!(mail.contains("the address 127.0.3.1"), "{mail}");
    assert!(mail.contains("at most once an hour"), "{mail}");
    assert!(
        mail.contains(&format!("{}/auth/forgot", app.origin())),
        "{mail}"
    );
    assert!(!mail.contains(&secret), "no secrets in mail");
}

async fn password_change_and_two_factor_off_are_mailed_in_the_owners_language(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (mut tab, _) = owner.live().await;
    ok(tab
        .command(
            "lang",
            Command::UpdateProfile {
                name: "Thandi Nkosi".into(),
                language: Language::Afr,
            },
        )
        .await);

    ok(tab
        .command(
            "pw",
            Command::ChangePassword {
                current_password: PASSWORD.into(),
                new_password: NEW_PASSWORD.into(),
            },
        )
        .await);
    let changed = app
        .mails_containing(OWNER, "Jou Paydesk-wagwoord is verander", 1)
        .await;
    assert_eq!(changed.len(), 1);
    assert!(
        changed[0].contains("vanaf die adres 127.0.0.1"),
        "{}",
        changed[0]
    );
    assert!(changed[0].contains(&format!("{}/auth/forgot", app.origin())));
    assert!(!changed[0].contains(NEW_PASSWORD) && !changed[0].contains(PASSWORD));

    let (secret, _) = enable_two_factor(&mut tab).await;
    // The right password with a wrong code does not turn it off, and warns.
    for id in ["off-1", "off-2"] {
        let refused = tab
            .command(
                id,
                Command::DisableTwoFactor {
                    password: NEW_PASSWORD.into(),
                    code: wrong_code(&secret),
                },
            )
            .await;
        match refused {
            ServerFrame::Reply {
                error: Some(error), ..
            } => assert_eq!(error.fields[0].code, ErrorCode::InvalidCode),
            other => panic!("{other:?}"),
        }
    }
    let code = totp::code_at(&secret, now_seconds() + 30).unwrap();
    ok(tab
        .command(
            "off-3",
            Command::DisableTwoFactor {
                password: NEW_PASSWORD.into(),
                code,
            },
        )
        .await);
    let off = app
        .mails_containing(OWNER, "Tweefaktor-aanmelding is af", 1)
        .await;
    assert_eq!(off.len(), 1);
    assert!(off[0].contains("vanaf die adres 127.0.0.1"), "{}", off[0]);
    let warnings = app
        .mails_containing(OWNER, "verkeerde of reeds gebruikte tweefaktor-kode", 1)
        .await;
    assert_eq!(warnings.len(), 1, "one warning for two wrong codes");
    assert!(warnings[0].contains("hoogstens een keer per uur"));
}

on_both_databases!(
    reset_mails_to_one_address_are_limited_whoever_asks,
    a_lockout_is_mailed_once_and_a_reset_lifts_it,
    a_lockout_and_its_lifting_hold_on_every_node,
    a_wrong_second_factor_after_the_right_password_warns_once,
    password_change_and_two_factor_off_are_mailed_in_the_owners_language,
);
