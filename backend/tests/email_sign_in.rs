//! Signing in by a mailed link, through the real server and its outbox: the
//! link signs in once, not after its day, not for another address, and not
//! past a user's second factor; an unknown address is answered as a known
//! one; the address's hourly quota holds; the token never reaches a log.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::logs;
use common::two_factor::{enable_two_factor, now_seconds};
use common::{Browser, Database, TestApp, decode_quoted_printable};
use paydesk::auth::totp;
use paydesk::store::Db;
use serde_json::{Value, json};

const OWNER: &str = "link-owner@example.co.za";

async fn ask_link(browser: &Browser, email: &str, callback: &str) -> reqwest::Response {
    let csrf = browser.csrf().await;
    browser
        .http
        .post(format!("{}/api/auth/signin/email", browser.base))
        .json(&json!({"csrfToken": csrf, "email": email, "callbackUrl": callback}))
        .send()
        .await
        .unwrap()
}

/// Every sign-in link mailed to `to`, oldest first, once `count` are there.
async fn links_to(app: &TestApp, to: &str, count: usize) -> Vec<url::Url> {
    let prefix = format!("{}/api/auth/callback/email?", app.origin());
    for _ in 0..100 {
        let mut found: Vec<(std::time::SystemTime, url::Url)> = Vec::new();
        for entry in std::fs::read_dir(&app.mail_dir).unwrap().flatten() {
            let text = decode_quoted_printable(&std::fs::read_to_string(entry.path()).unwrap());
            if !text.to_lowercase().contains(&format!("to: {to}")) {
                continue;
            }
            if let Some(start) = text.find(&prefix) {
                let link: String = text[start..]
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '"' && *c != '<')
                    .collect();
                let at = entry.metadata().unwrap().modified().unwrap();
                found.push((at, url::Url::parse(&link.replace("&amp;", "&")).unwrap()));
            }
        }
        if found.len() >= count {
            found.sort_by_key(|(at, _)| *at);
            return found.into_iter().map(|(_, link)| link).collect();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("fewer than {count} sign-in links to {to}");
}

fn param(link: &url::Url, name: &str) -> String {
    link.query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default()
}

/// Follows `link` in `browser`: where it was sent.
async fn follow(browser: &Browser, link: &url::Url) -> String {
    let path = format!("{}?{}", link.path(), link.query().unwrap_or_default());
    let response = browser
        .http
        .get(format!("{}{path}", browser.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 303, "{path}");
    response.headers()["location"].to_str().unwrap().to_string()
}

async fn signed_in_as(browser: &Browser) -> Option<String> {
    browser.session().await["user"]["email"]
        .as_str()
        .map(str::to_string)
}

async fn a_link_signs_in_once_for_its_address_and_day(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    owner.sign_out().await;

    let providers: Value = owner
        .http
        .get(app.url("/api/auth/providers"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        providers["email"],
        json!({"id": "email", "name": "Email", "type": "email",
            "signinUrl": "/api/auth/signin/email", "callbackUrl": "/api/auth/callback/email"})
    );

    // Known and unknown addresses get the same answer; only the known one a mail.
    let stranger = app.browser();
    let known = ask_link(&stranger, OWNER, "/payments/transactions").await;
    let unknown = ask_link(&stranger, "nobody@example.co.za", "/").await;
    assert_eq!(
        (known.status().as_u16(), unknown.status().as_u16()),
        (200, 200)
    );
    assert_eq!(
        known.json::<Value>().await.unwrap(),
        unknown.json::<Value>().await.unwrap()
    );
    let link = links_to(&app, OWNER, 1).await.remove(0);
    let token = param(&link, "token");
    assert!(token.len() > 20, "{link}");
    assert_eq!(app.mails_to("nobody@example.co.za"), 0);

    // Another address in the link is refused, and leaves it working.
    let mut foreign = link.clone();
    foreign
        .query_pairs_mut()
        .clear()
        .append_pair("token", &token)
        .append_pair("email", "someone-else@example.co.za");
    let browser = app.browser();
    assert_eq!(
        follow(&browser, &foreign).await,
        "/auth/login?error=Verification"
    );
    assert_eq!(signed_in_as(&browser).await, None);

    // Followed: signed in, on the page asked for, the address verified.
    assert_eq!(follow(&browser, &link).await, "/payments/transactions");
    assert_eq!(signed_in_as(&browser).await.as_deref(), Some(OWNER));
    let db = Db::connect(&app.database_url).await.unwrap();
    let (verified,): (Option<i64>,) =
        sqlx::query_as("SELECT email_verified_at FROM users WHERE email = $1")
            .bind(OWNER)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert!(verified.is_some());

    // Once only.
    let again = app.browser();
    assert_eq!(
        follow(&again, &link).await,
        "/auth/login?error=Verification"
    );
    assert_eq!(signed_in_as(&again).await, None);

    // Not after its day: the link's end moved to a minute ago.
    ask_link(&stranger, OWNER, "/").await;
    let late = links_to(&app, OWNER, 2).await.remove(1);
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query(
        "UPDATE auth_links SET expires_at = created_at - 60000 WHERE purpose = 'sign_in' AND used_at IS NULL",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(
        follow(&app.browser(), &late).await,
        "/auth/login?error=Verification"
    );

    // Three mails an hour per address, whoever asks: the fourth answers the same and sends nothing.
    let answer = ask_link(&app.browser(), OWNER, "/").await;
    assert_eq!(answer.status(), 200);
    links_to(&app, OWNER, 3).await;
    let answer = ask_link(&app.browser(), OWNER, "/").await;
    assert_eq!(answer.status(), 200);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(links_to(&app, OWNER, 3).await.len(), 3);

    // The token is in no log line: the access log keeps the query redacted.
    let line = logs
        .line_with(&["/api/auth/callback/email", "token=[redacted]"])
        .await;
    assert!(!line.contains(&token), "{line}");
    assert!(!logs.text().contains(&token));
}

on_both_databases!(a_link_signs_in_once_for_its_address_and_day);

async fn a_second_factor_still_comes_after_the_link(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (mut tab, _) = owner.live().await;
    let (secret, _) = enable_two_factor(&mut tab).await;
    drop(tab);

    let browser = app.browser();
    ask_link(&browser, OWNER, "/home").await;
    let link = links_to(&app, OWNER, 1).await.remove(0);
    assert_eq!(
        follow(&browser, &link).await,
        "/auth/login?error=TwoFactorRequired&via=email"
    );
    assert_eq!(signed_in_as(&browser).await, None);

    let finish = |code: Option<String>| {
        let browser = &browser;
        async move {
            let mut body = json!({"csrfToken": browser.csrf().await});
            if let Some(code) = code {
                body["code"] = json!(code);
            }
            browser
                .http
                .post(format!("{}/api/auth/callback/email", browser.base))
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    let missing = finish(None).await;
    assert_eq!(missing.status(), 401);
    assert_eq!(
        missing.json::<Value>().await.unwrap()["url"],
        "/auth/login?error=TwoFactorRequired&via=email"
    );
    let wrong = finish(Some("000000".into())).await;
    assert_eq!(wrong.status(), 401);
    assert_eq!(signed_in_as(&browser).await, None);
    // The next step's code: the one that turned two-factor on is spent.
    let code = totp::code_at(&secret, now_seconds() + 30).unwrap();
    let passed = finish(Some(code)).await;
    assert_eq!(passed.status(), 200);
    assert_eq!(passed.json::<Value>().await.unwrap()["url"], "/home");
    assert_eq!(signed_in_as(&browser).await.as_deref(), Some(OWNER));
    // The link is used up with it.
    assert_eq!(
        follow(&app.browser(), &link).await,
        "/auth/login?error=Verification"
    );
}

on_both_databases!(a_second_factor_still_comes_after_the_link);
