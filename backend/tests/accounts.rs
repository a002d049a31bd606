//! Accounts through the real server: password reset and e-mail verification
//! links from the mail the server writes, two-factor sign-in with codes and
//! backup codes, sessions, password change, business info and the team's
//! two-factor policy.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::{Browser, Database, TestApp, customer_input};
use paydesk::auth::totp;
use protocol::*;
use serde_json::{Value, json};

const PASSWORD: &str = "karoo-sunset-41";

fn now_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

async fn post_json(browser: &Browser, path: &str, mut body: Value) -> reqwest::Response {
    body["csrfToken"] = json!(browser.csrf().await);
    browser
        .http
        .post(format!("{}{}", browser.base, path))
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn token_of(link: &str) -> String {
    link.rsplit('/').next().unwrap().to_string()
}

fn reply_ok(frame: ServerFrame) -> ReplyBody {
    match frame {
        ServerFrame::Reply { ok: Some(body), .. } => body,
        other => panic!("expected an ok reply, got {other:?}"),
    }
}

fn reply_err(frame: ServerFrame) -> WireError {
    match frame {
        ServerFrame::Reply {
            error: Some(error), ..
        } => error,
        other => panic!("expected an error reply, got {other:?}"),
    }
}

async fn profile(socket: &mut common::Socket) -> Profile {
    match reply_ok(socket.query("profile", Query::GetProfile {}).await) {
        ReplyBody::Profile { profile } => *profile,
        other => panic!("{other:?}"),
    }
}

async fn forgotten_password_reset_by_mail_link(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut open_tab, _) = owner.live().await;

    let stranger = app.browser();
    let known = post_json(
        &stranger,
        "/api/auth/forgot",
        json!({"email": "owner@example.co.za"}),
    )
    .await;
    let unknown = post_json(
        &stranger,
        "/api/auth/forgot",
        json!({"email": "nobody@example.co.za"}),
    )
    .await;
    assert_eq!(
        (known.status(), unknown.status()),
        (reqwest::StatusCode::OK, reqwest::StatusCode::OK)
    );
    assert_eq!(
        known.json::<Value>().await.unwrap(),
        unknown.json::<Value>().await.unwrap()
    );

    let link = app
        .link_in_mail("owner@example.co.za", "/auth/reset/")
        .await;
    assert!(
        link.starts_with(&app.origin()),
        "built from the configured public origin: {link}"
    );
    let token = token_of(&link);
    assert_eq!(app.mails_to("nobody@example.co.za"), 0);
    // The page checks the link first; checking uses nothing up.
    for _ in 0..2 {
        let works = post_json(&stranger, "/api/auth/reset/check", json!({"token": token})).await;
        assert_eq!(works.status(), 200);
    }

    let weak = post_json(
        &stranger,
        "/api/auth/reset",
        json!({"token": token, "password": "short"}),
    )
    .await;
    assert_eq!(weak.status(), 400);
    assert_eq!(
        weak.json::<Value>().await.unwrap()["error"],
        json!({"code": "weak_password", "field": "password"})
    );

    let reset = post_json(
        &stranger,
        "/api/auth/reset",
        json!({"token": token, "password": "new-karoo-pass-7"}),
    )
    .await;
    assert_eq!(reset.status(), 200);
    assert!(
        reset
            .headers()
            .get("set-cookie")
            .is_none_or(|c| !c.to_str().unwrap().starts_with("session-token")),
        "no sign-in"
    );
    assert_eq!(
        reset.json::<Value>().await.unwrap(),
        json!({"url": "/auth/login?reset=done"})
    );
    let used = post_json(&stranger, "/api/auth/reset/check", json!({"token": token})).await;
    assert_eq!(used.status(), 400);
    assert_eq!(
        used.json::<Value>().await.unwrap()["error"]["code"],
        "invalid_token"
    );
    assert_eq!(
        open_tab.closed().await,
        Some(4001),
        "a reset signs every session out"
    );
    assert_eq!(owner.session().await, json!({}));

    let again = post_json(
        &stranger,
        "/api/auth/reset",
        json!({"token": token, "password": "another-pass-99"}),
    )
    .await;
    assert_eq!(
        again.json::<Value>().await.unwrap()["error"]["code"],
        "invalid_token",
        "a link works once"
    );
    assert_eq!(
        stranger
            .sign_in("owner@example.co.za", PASSWORD, "/")
            .await
            .status(),
        401
    );
    assert_eq!(
        stranger
            .sign_in("owner@example.co.za", "new-karoo-pass-7", "/")
            .await
            .status(),
        200
    );
}

async fn email_verification_and_change(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    assert!(!profile(&mut tab).await.email_verified);

    let link = app
        .link_in_mail("owner@example.co.za", "/account/teams/email/verify/")
        .await;
    let verified = post_json(
        &owner,
        "/api/auth/verify-email",
        json!({"token": token_of(&link)}),
    )
    .await;
    assert_eq!(
        verified.json::<Value>().await.unwrap(),
        json!({"ok": true, "email": "owner@example.co.za"})
    );
    assert!(profile(&mut tab).await.email_verified);
    let reused = post_json(
        &owner,
        "/api/auth/verify-email",
        json!({"token": token_of(&link)}),
    )
    .await;
    assert_eq!(reused.status(), 400);

    let wrong = tab
        .command(
            "e1",
            Command::ChangeEmail {
                new_email: "new@example.co.za".into(),
                current_password: "nope-nope-nope".into(),
            },
        )
        .await;
    assert_eq!(
        reply_err(wrong).fields,
        vec![FieldError {
            field: "currentPassword".into(),
            code: ErrorCode::WrongPassword
        }]
    );
    let changed = tab
        .command(
            "e2",
            Command::ChangeEmail {
                new_email: "New@Example.co.za".into(),
                current_password: PASSWORD.into(),
            },
        )
        .await;
    assert_eq!(reply_ok(changed), ReplyBody::Done {});
    let pending = profile(&mut tab).await;
    assert_eq!(
        (
            pending.user.email.as_str(),
            pending.pending_email.as_deref()
        ),
        ("owner@example.co.za", Some("new@example.co.za")),
        "not before the link is followed"
    );
    let link = app
        .link_in_mail("new@example.co.za", "/account/teams/email/verify/")
        .await;
    post_json(
        &owner,
        "/api/auth/verify-email",
        json!({"token": token_of(&link)}),
    )
    .await;
    let after = profile(&mut tab).await;
    assert_eq!(
        (
            after.user.email.as_str(),
            after.pending_email,
            after.email_verified
        ),
        ("new@example.co.za", None, true)
    );
}

async fn two_factor_sign_in_with_codes_and_backup_codes(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;

    let ReplyBody::TwoFactorEnrolment {
        secret,
        otpauth_url,
    } = reply_ok(tab.command("t1", Command::BeginTwoFactor {}).await)
    else {
        panic!()
    };
    assert!(otpauth_url.starts_with("otpauth://totp/") && otpauth_url.contains(&secret));
    let wrong = reply_err(
        tab.command(
            "t2",
            Command::ConfirmTwoFactor {
                code: "000000".into(),
            },
        )
        .await,
    );
    assert!(
        wrong
            .fields
            .iter()
            .any(|f| f.code == ErrorCode::InvalidCode)
            || totp::code_at(&secret, now_seconds()).unwrap() == "000000"
    );
    let now = now_seconds();
    let confirm_code = totp::code_at(&secret, now).unwrap();
    let ReplyBody::BackupCodes { codes } = reply_ok(
        tab.command(
            "t3",
            Command::ConfirmTwoFactor {
                code: confirm_code.clone(),
            },
        )
        .await,
    ) else {
        panic!()
    };
    assert_eq!(codes.len(), 10);
    let p = profile(&mut tab).await;
    assert!(p.two_factor_enabled);
    assert_eq!(p.backup_codes_left, 10);

    let browser = app.browser();
    let missing = browser.sign_in("owner@example.co.za", PASSWORD, "/").await;
    assert_eq!(missing.status(), 401);
    assert_eq!(
        missing.json::<Value>().await.unwrap(),
        json!({"url": "/auth/login?error=TwoFactorRequired"})
    );

    let with_code = |code: String| {
        let browser = app.browser();
        async move {
            let csrf = browser.csrf().await;
            let form = [
                ("csrfToken", csrf.as_str()),
                ("json", "true"),
                ("email", "owner@example.co.za"),
                ("password", PASSWORD),
                ("code", code.as_str()),
            ];
            browser
                .post_form("/api/auth/callback/credentials", &form)
                .await
        }
    };
    let replay = with_code(confirm_code).await;
    assert_eq!(
        replay.json::<Value>().await.unwrap(),
        json!({"url": "/auth/login?error=TwoFactorInvalid"}),
        "a code once accepted is never accepted again"
    );
    let next_code = totp::code_at(&secret, now + 30).unwrap();
    assert_eq!(
        with_code(next_code.clone()).await.status(),
        200,
        "the next step, within the allowed skew"
    );
    assert_eq!(with_code(next_code).await.status(), 401);

    // Two sign-ins racing with one backup code: exactly one wins.
    let backup = codes[0].clone();
    let race = |code: String| {
        let browser = app.browser();
        async move {
            let csrf = browser.csrf().await;
            let form = [
                ("csrfToken", csrf.as_str()),
                ("json", "true"),
                ("email", "owner@example.co.za"),
                ("password", PASSWORD),
                ("backupCode", code.as_str()),
            ];
            browser
                .post_form("/api/auth/callback/credentials", &form)
                .await
                .status()
        }
    };
    let (a, b) = tokio::join!(race(backup.clone()), race(backup.to_uppercase()));
    let wins = [a, b].iter().filter(|s| s.as_u16() == 200).count();
    assert_eq!(wins, 1, "{a} {b}");
    assert_eq!(race(backup).await.as_u16(), 401);
    assert_eq!(profile(&mut tab).await.backup_codes_left, 9);

    // Turning it off takes the password and a code not used before.
    let other = app.merchant("other@example.co.za").await;
    let (mut other_tab, _) = other.live().await;
    let ReplyBody::TwoFactorEnrolment { secret, .. } =
        reply_ok(other_tab.command("t1", Command::BeginTwoFactor {}).await)
    else {
        panic!()
    };
    let now = now_seconds();
    reply_ok(
        other_tab
            .command(
                "t2",
                Command::ConfirmTwoFactor {
                    code: totp::code_at(&secret, now).unwrap(),
                },
            )
            .await,
    );
    let next = totp::code_at(&secret, now + 30).unwrap();
    let disabled = reply_err(
        other_tab
            .command(
                "t3",
                Command::DisableTwoFactor {
                    password: "wrong-password-1".into(),
                    code: next.clone(),
                },
            )
            .await,
    );
    assert_eq!(disabled.fields[0].code, ErrorCode::WrongPassword);
    assert_eq!(
        reply_ok(
            other_tab
                .command(
                    "t4",
                    Command::DisableTwoFactor {
                        password: PASSWORD.into(),
                        code: next
                    }
                )
                .await
        ),
        ReplyBody::Done {}
    );
    assert_eq!(
        app.browser()
            .sign_in("other@example.co.za", PASSWORD, "/")
            .await
            .status(),
        200
    );
}

async fn sessions_are_listed_and_signed_out_one_by_one(db: Database) {
    let app = TestApp::start(db).await;
    let laptop = app.merchant("owner@example.co.za").await;
    let phone = app.browser();
    assert_eq!(
        phone
            .sign_in("owner@example.co.za", PASSWORD, "/")
            .await
            .status(),
        200
    );
    let (mut laptop_tab, _) = laptop.live().await;
    let (mut phone_tab, _) = phone.live().await;

    let ReplyBody::Sessions { sessions } =
        reply_ok(laptop_tab.query("s", Query::ListSessions {}).await)
    else {
        panic!()
    };
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions.iter().filter(|s| s.current).count(), 1);
    assert!(
        sessions
            .iter()
            .all(|s| s.id.starts_with("ses_") && s.address == "127.0.0.1")
    );
    let other = sessions.iter().find(|s| !s.current).unwrap().id.clone();
    assert_eq!(
        reply_ok(
            laptop_tab
                .command(
                    "o",
                    Command::SignOutSession {
                        session_id: other.clone()
                    }
                )
                .await
        ),
        ReplyBody::Done {}
    );
    assert_eq!(phone_tab.closed().await, Some(4001));
    assert_eq!(phone.session().await, json!({}));
    assert_eq!(
        reply_err(
            laptop_tab
                .command("o2", Command::SignOutSession { session_id: other })
                .await
        )
        .code,
        ErrorCode::NotFound
    );

    // A password change ends the other sessions too.
    let tablet = app.browser();
    tablet.sign_in("owner@example.co.za", PASSWORD, "/").await;
    let (mut tablet_tab, _) = tablet.live().await;
    let weak = reply_err(
        laptop_tab
            .command(
                "p1",
                Command::ChangePassword {
                    current_password: PASSWORD.into(),
                    new_password: "short".into(),
                },
            )
            .await,
    );
    assert_eq!(
        weak.fields,
        vec![FieldError {
            field: "newPassword".into(),
            code: ErrorCode::WeakPassword
        }]
    );
    let changed = laptop_tab
        .command(
            "p2",
            Command::ChangePassword {
                current_password: PASSWORD.into(),
                new_password: "a-new-karoo-pass".into(),
            },
        )
        .await;
    assert_eq!(reply_ok(changed), ReplyBody::Done {});
    assert_eq!(tablet_tab.closed().await, Some(4001));
    assert!(
        laptop.session().await["user"].is_object(),
        "the asking browser stays signed in"
    );
}

async fn business_info_is_live_and_the_team_can_require_two_factor(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab1, _) = owner.live().await;
    let (mut tab2, _) = owner.live().await;

    // The name given at sign-up is the legal name until the owner changes it.
    let ReplyBody::BusinessInfo {
        info: signed_up, ..
    } = reply_ok(tab1.query("g0", Query::GetBusinessInfo {}).await)
    else {
        panic!()
    };
    assert_eq!(signed_up.legal_name, "Karoo Gym");

    let mut info = BusinessInfo {
        legal_name: "Karoo Gym (Pty) Ltd".into(),
        statement_name: "KAROO GYM 1".into(),
        vat_number: "123".into(),
        ..Default::default()
    };
    let error = reply_err(
        tab1.command(
            "b1",
            Command::UpdateBusinessInfo {
                info: info.clone(),
                base_version: None,
            },
        )
        .await,
    );
    let fields: Vec<&str> = error.fields.iter().map(|f| f.field.as_str()).collect();
    assert_eq!(fields, ["vatNumber", "statementName"]);
    info.statement_name = "karoo gym".into();
    info.vat_number = "4123456789".into();
    reply_ok(
        tab1.command(
            "b2",
            Command::UpdateBusinessInfo {
                info,
                base_version: None,
            },
        )
        .await,
    );
    match tab2.next().await {
        ServerFrame::Delta { changes, .. } => assert!(
            matches!(&changes[0], Change::BusinessInfoUpdated { info } if info.statement_name == "KAROO GYM")
        ),
        other => panic!("{other:?}"),
    }
    let ReplyBody::BusinessInfo {
        info,
        two_factor_required,
    } = reply_ok(tab2.query("g", Query::GetBusinessInfo {}).await)
    else {
        panic!()
    };
    assert_eq!(
        (info.legal_name.as_str(), two_factor_required),
        ("Karoo Gym (Pty) Ltd", false)
    );

    reply_ok(
        tab1.command("r", Command::RequireTwoFactor { required: true })
            .await,
    );
    assert!(matches!(tab2.next_matching(|f| matches!(f, ServerFrame::Delta { changes, .. } if matches!(changes[0], Change::TwoFactorPolicyUpdated { required: true }))).await, ServerFrame::Delta { .. }));

    // A member without two-factor sign-in may only enrol until they have it.
    let (mut fresh, _) = owner.live().await;
    assert!(profile(&mut fresh).await.two_factor_required);
    let refused = reply_err(
        fresh
            .command(
                "c1",
                Command::CreateCustomer {
                    input: customer_input("A", "a@example.co.za"),
                },
            )
            .await,
    );
    assert_eq!(refused.code, ErrorCode::TwoFactorSetupRequired);
    let ReplyBody::TwoFactorEnrolment { secret, .. } =
        reply_ok(fresh.command("c2", Command::BeginTwoFactor {}).await)
    else {
        panic!()
    };
    let code = totp::code_at(&secret, now_seconds()).unwrap();
    reply_ok(
        fresh
            .command("c3", Command::ConfirmTwoFactor { code })
            .await,
    );
    assert!(matches!(
        reply_ok(
            fresh
                .command(
                    "c4",
                    Command::CreateCustomer {
                        input: customer_input("A", "a@example.co.za")
                    }
                )
                .await
        ),
        ReplyBody::Committed { .. }
    ));
    // Enrolled, a new tab is not held back.
    let (mut later, _) = owner.live().await;
    assert!(matches!(
        reply_ok(
            later
                .command(
                    "c5",
                    Command::CreateCustomer {
                        input: customer_input("B", "b@example.co.za")
                    }
                )
                .await
        ),
        ReplyBody::Committed { .. }
    ));
}

async fn every_answer_carries_security_headers(db: Database) {
    let app = TestApp::start(db).await;
    for path in ["/", "/api/auth/csrf", "/nope"] {
        let response = reqwest::get(app.url(path)).await.unwrap();
        let headers = response.headers();
        assert!(
            headers["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("frame-ancestors 'none'"),
            "{path}"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "no-referrer");
    }
    tokio::time::sleep(Duration::from_millis(1)).await;
}

async fn the_header_language_switch_saves_the_language_alone(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    let named = tab
        .command(
            "name",
            Command::UpdateProfile {
                name: "Thandi Nkosi".into(),
                language: Language::En,
            },
        )
        .await;
    reply_ok(named);
    reply_ok(
        tab.command(
            "lang",
            Command::SetLanguage {
                language: Language::Afr,
            },
        )
        .await,
    );
    let saved = profile(&mut tab).await;
    assert_eq!(saved.language, Language::Afr);
    assert_eq!(
        saved.user.name, "Thandi Nkosi",
        "the name is left as it was"
    );
}

on_both_databases!(
    the_header_language_switch_saves_the_language_alone,
    forgotten_password_reset_by_mail_link,
    email_verification_and_change,
    two_factor_sign_in_with_codes_and_backup_codes,
    sessions_are_listed_and_signed_out_one_by_one,
    business_info_is_live_and_the_team_can_require_two_factor,
    every_answer_carries_security_headers,
);
