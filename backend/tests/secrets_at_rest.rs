//! What a copy of the database gives away, through the real server: a sent
//! reset mail leaves no link in the outbox, two-factor secrets are stored
//! sealed, backup codes as keyed hashes; sign-in with codes and backup codes
//! still works, including with what earlier versions stored; and a server
//! started with another key than its database's is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::{Browser, Database, TestApp};
use paydesk::auth::totp;
use paydesk::ids::hash_secret;
use paydesk::store::Db;
use protocol::{Command, ReplyBody, ServerFrame};
use serde_json::{Value, json};
use sqlx::Row;

const EMAIL: &str = "owner@example.co.za";
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

fn reply_ok(frame: ServerFrame) -> ReplyBody {
    match frame {
        ServerFrame::Reply { ok: Some(body), .. } => body,
        other => panic!("expected an ok reply, got {other:?}"),
    }
}

/// Signs in with the password and a second factor (`code` or `backupCode`).
async fn sign_in_with(app: &TestApp, field: &str, value: &str) -> u16 {
    let browser = app.browser();
    let csrf = browser.csrf().await;
    let form = [
        ("csrfToken", csrf.as_str()),
        ("json", "true"),
        ("email", EMAIL),
        ("password", PASSWORD),
        (field, value),
    ];
    browser
        .post_form("/api/auth/callback/credentials", &form)
        .await
        .status()
        .as_u16()
}

/// Every text column of the user's row and backup codes, as stored.
async fn stored_rows(db: &Db, user_id: &str) -> (Option<String>, Option<String>, Vec<String>) {
    let user = sqlx::query("SELECT totp_secret, totp_pending_secret FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let codes = sqlx::query("SELECT code_hash FROM backup_codes WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(&db.pool)
        .await
        .unwrap();
    (
        user.get("totp_secret"),
        user.get("totp_pending_secret"),
        codes.iter().map(|r| r.get("code_hash")).collect(),
    )
}

async fn reset_links_leave_the_outbox_once_sent(db: Database) {
    let app = TestApp::start(db).await;
    app.merchant(EMAIL).await;
    let stranger = app.browser();
    let asked = post_json(&stranger, "/api/auth/forgot", json!({"email": EMAIL})).await;
    assert_eq!(asked.status(), 200);
    let link = app.link_in_mail(EMAIL, "/auth/reset/").await;
    let token = link.rsplit('/').next().unwrap().to_string();
    assert!(token.len() > 20, "{link}");

    // The file is written just before the outbox records the delivery.
    let outbox = Db::connect(&app.database_url).await.unwrap();
    let mut sent = None;
    for _ in 0..50 {
        sent = sqlx::query(
            "SELECT id FROM mail_outbox WHERE to_address = $1 AND subject = $2 AND sent_at IS NOT NULL",
        )
        .bind(EMAIL)
        .bind("Reset your Paydesk password")
        .fetch_optional(&outbox.pool)
        .await
        .unwrap();
        if sent.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(sent.is_some(), "the outbox records the delivery");
    let rows = sqlx::query(
        "SELECT to_address, subject, text_body, html_body, last_error FROM mail_outbox",
    )
    .fetch_all(&outbox.pool)
    .await
    .unwrap();
    for row in &rows {
        for i in 0..5 {
            let column: Option<String> = row.get(i);
            let column = column.unwrap_or_default();
            assert!(
                !column.contains(&token),
                "the outbox keeps the reset link: {column}"
            );
        }
    }

    // The delivered link still works.
    let reset = post_json(
        &stranger,
        "/api/auth/reset",
        json!({"token": token, "password": "new-karoo-pass-7"}),
    )
    .await;
    assert_eq!(reset.status(), 200);
    assert_eq!(
        stranger
            .sign_in(EMAIL, "new-karoo-pass-7", "/")
            .await
            .status(),
        200
    );
}

async fn two_factor_secrets_and_backup_codes_are_not_stored_in_clear(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(EMAIL).await;
    let (user_id, _) = app.owner_ids(EMAIL).await;
    let store = Db::connect(&app.database_url).await.unwrap();
    let (mut tab, _) = owner.live().await;

    let ReplyBody::TwoFactorEnrolment { secret, .. } =
        reply_ok(tab.command("t1", Command::BeginTwoFactor {}).await)
    else {
        panic!()
    };
    let (_, pending, _) = stored_rows(&store, &user_id).await;
    let pending = pending.expect("a pending secret");
    assert!(
        !pending.contains(&secret),
        "pending secret in clear: {pending}"
    );

    let now = now_seconds();
    let ReplyBody::BackupCodes { codes } = reply_ok(
        tab.command(
            "t2",
            Command::ConfirmTwoFactor {
                code: totp::code_at(&secret, now).unwrap(),
            },
        )
        .await,
    ) else {
        panic!()
    };
    assert_eq!(codes.len(), 10);
    for code in &codes {
        let groups: Vec<&str> = code.split('-').collect();
        assert!(
            groups.len() == 4 && groups.iter().all(|g| g.len() == 4),
            "16 characters in groups of four: {code}"
        );
    }

    let (enabled, pending, hashes) = stored_rows(&store, &user_id).await;
    let enabled = enabled.expect("two-factor on");
    assert!(!enabled.contains(&secret), "secret in clear: {enabled}");
    assert!(pending.is_none());
    assert_eq!(hashes.len(), 10);
    for code in &codes {
        let plain: String = code.chars().filter(|c| *c != '-').collect();
        let bare = hash_secret(&plain);
        assert!(
            hashes
                .iter()
                .all(|h| !h.contains(&bare) && !h.contains(&plain)),
            "a plain SHA-256 of {code} is stored"
        );
    }

    // Sign-in still works with a code from the app and with a backup code,
    // typed with spaces for dashes and in capitals.
    assert_eq!(sign_in_with(&app, "code", "00000").await, 401);
    let next = totp::code_at(&secret, now + 30).unwrap();
    assert_eq!(sign_in_with(&app, "code", &next).await, 200);
    let typed = codes[3].replace('-', " ").to_uppercase();
    assert_eq!(sign_in_with(&app, "backupCode", &typed).await, 200);
    assert_eq!(
        sign_in_with(&app, "backupCode", &codes[3]).await,
        401,
        "once only"
    );
    assert_eq!(sign_in_with(&app, "backupCode", &codes[4]).await, 200);
}

async fn secrets_stored_by_earlier_versions_keep_working_and_are_upgraded(db: Database) {
    let dir = tempfile::tempdir().unwrap();
    let url = match db {
        Database::Sqlite => format!("sqlite://{}", dir.path().join("shared.db").display()),
        Database::Postgres(base) => common::fresh_postgres_database(&base).await,
    };
    let before = TestApp::start_at(&url).await;
    before.merchant(EMAIL).await;
    let (user_id, _) = before.owner_ids(EMAIL).await;
    before.handle.stop(true).await;
    drop(before);

    // What an earlier version stored: the secret in clear, and a bare
    // SHA-256 of an 8-character backup code.
    let secret = totp::new_secret().unwrap();
    let store = Db::connect(&url).await.unwrap();
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query("UPDATE users SET totp_secret = $2 WHERE id = $1")
        .bind(&user_id)
        .bind(&secret)
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("INSERT INTO backup_codes (user_id, code_hash, used_at, created_at) VALUES ($1, $2, NULL, 0)")
        .bind(&user_id)
        .bind(hash_secret("k3v92hxq"))
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let app = TestApp::start_at(&url).await;
    let (enabled, _, hashes) = stored_rows(&store, &user_id).await;
    let enabled = enabled.unwrap();
    assert!(!enabled.contains(&secret), "sealed at start-up: {enabled}");
    assert_eq!(hashes.len(), 1);
    assert_ne!(hashes[0], hash_secret("k3v92hxq"), "wrapped at start-up");

    let code = totp::code_at(&secret, now_seconds()).unwrap();
    assert_eq!(sign_in_with(&app, "code", &code).await, 200);
    assert_eq!(sign_in_with(&app, "backupCode", "K3V9-2HXQ").await, 200);
    assert_eq!(
        sign_in_with(&app, "backupCode", "k3v9-2hxq").await,
        401,
        "once only"
    );
}

async fn a_server_key_other_than_the_databases_is_refused(db: Database) {
    let app = TestApp::start(db).await;
    app.merchant(EMAIL).await;
    let mut config = backend::config::Config::for_database(&app.database_url);
    config.secret_key = Some(paydesk::auth::keys::ServerKey::generate().unwrap());
    let refused = match backend::app::start(config).await {
        Ok(_) => panic!("started with another key"),
        Err(err) => err.to_string(),
    };
    assert!(refused.contains("SECRET_KEY"), "{refused}");
}

on_both_databases!(
    reset_links_leave_the_outbox_once_sent,
    two_factor_secrets_and_backup_codes_are_not_stored_in_clear,
    secrets_stored_by_earlier_versions_keep_working_and_are_upgraded,
    a_server_key_other_than_the_databases_is_refused,
);
