//! No link the server mailed can be read back from its database: after the
//! mails are sent, neither the outbox rows nor (on SQLite) the database
//! file and its write-ahead log hold any reset, invite or e-mail
//! verification token, in clear, anywhere in their bytes. The bodies are
//! sealed from the moment they are queued, and deleted content is zeroed.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::common::{Browser, Database, TestApp};
use crate::team_support::invites;
use paydesk::store::Db;
use protocol::{Command, Role, ServerFrame};
use serde_json::{Value, json};
use sqlx::Row;

const OWNER: &str = "owner@example.co.za";
const MEMBER: &str = "member@example.co.za";
const NEW_ADDRESS: &str = "new-owner@example.co.za";
const PASSWORD: &str = "karoo-sunset-41";

fn token_of(link: &str) -> String {
    link.rsplit('/').next().unwrap().to_string()
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

/// Waits until the worker sent everything queued.
async fn outbox_sent(db: &Db) {
    for _ in 0..100 {
        let (pending,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM mail_outbox WHERE sent_at IS NULL")
                .fetch_one(&db.pool)
                .await
                .unwrap();
        if pending == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the outbox is stuck");
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

async fn mailed_tokens_leave_nothing_on_disk(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tokens = vec![token_of(
        &app.link_in_mail(OWNER, "/account/teams/email/verify/")
            .await,
    )];

    let stranger = app.browser();
    let asked = post_json(&stranger, "/api/auth/forgot", json!({"email": OWNER})).await;
    assert_eq!(asked.status(), 200);
    tokens.push(token_of(&app.link_in_mail(OWNER, "/auth/reset/").await));
    let asked = post_json(
        &stranger,
        "/api/auth/signin/email",
        json!({"email": OWNER, "callbackUrl": "/"}),
    )
    .await;
    assert_eq!(asked.status(), 200);
    let mail = app
        .mails_containing(OWNER, "callback/email?token=", 1)
        .await;
    let after = mail[0].split("callback/email?token=").nth(1).unwrap();
    tokens.push(after.split('&').next().unwrap().to_string());

    let (mut tab, _) = owner.live().await;
    let invited = invites::invite(&mut tab, "i1", MEMBER, Role::Viewer).await;
    assert!(
        matches!(invited, ServerFrame::Reply { ok: Some(_), .. }),
        "{invited:?}"
    );
    tokens.push(invites::token_in_mail(&app, MEMBER).await);

    let change = Command::ChangeEmail {
        new_email: NEW_ADDRESS.into(),
        current_password: PASSWORD.into(),
    };
    let changed = tab.command("e1", change).await;
    assert!(
        matches!(changed, ServerFrame::Reply { ok: Some(_), .. }),
        "{changed:?}"
    );
    tokens.push(token_of(
        &app.link_in_mail(NEW_ADDRESS, "/account/teams/email/verify/")
            .await,
    ));
    for token in &tokens {
        assert!(token.len() > 20, "{tokens:?}");
    }

    let outbox = Db::connect(&app.database_url).await.unwrap();
    outbox_sent(&outbox).await;
    let rows = sqlx::query(
        "SELECT to_address, subject, text_body, html_body, last_error FROM mail_outbox",
    )
    .fetch_all(&outbox.pool)
    .await
    .unwrap();
    assert!(rows.len() >= tokens.len(), "{} rows", rows.len());
    for row in &rows {
        for i in 0..5 {
            let column: Option<String> = row.get(i);
            let column = column.unwrap_or_default();
            for token in &tokens {
                assert!(
                    !column.contains(token.as_str()),
                    "the outbox keeps a token: {column}"
                );
            }
        }
    }

    if let Some(file) = app.database_url.strip_prefix("sqlite://") {
        for path in [file.to_string(), format!("{file}-wal")] {
            let bytes = std::fs::read(&path).unwrap_or_default();
            for token in &tokens {
                assert!(!contains(&bytes, token), "{path} holds a mailed token");
            }
        }
    }

    // The mailed links still work.
    let reset = post_json(
        &stranger,
        "/api/auth/reset",
        json!({"token": tokens[1], "password": "new-karoo-pass-7"}),
    )
    .await;
    assert_eq!(reset.status(), 200);
}

on_both_databases!(mailed_tokens_leave_nothing_on_disk);
