//! Members of another person's merchant, for tests of what each role may
//! do. Invites are the product's way in; these seed the rows they end in.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod invites;
pub mod samples;

use crate::common::{Browser, Socket, TestApp};
use protocol::{ClientFrame, Permissions, Role, ServerFrame};

/// A browser that names itself, as a real one does.
pub fn browser_with_agent(app: &TestApp, agent: &str) -> Browser {
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let http = reqwest::Client::builder()
        .cookie_provider(jar.clone())
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(agent)
        .build()
        .unwrap();
    Browser {
        http,
        jar,
        base: app.url(""),
    }
}

async fn db(app: &TestApp) -> paydesk::store::Db {
    paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap()
}

/// Makes `email` (signed up with a merchant of their own) a member of
/// `owner`'s merchant with `role`.
pub async fn add_member(app: &TestApp, owner: &str, email: &str, role: Role) {
    let (_, merchant_id) = app.owner_ids(owner).await;
    let (user_id, _) = app.owner_ids(email).await;
    let db = db(app).await;
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&merchant_id)
    .bind(&user_id)
    .bind(role.as_str())
    .bind(paydesk::ids::now_ms())
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

/// Makes `email` a member of `owner`'s merchant with a custom role of the
/// given matrix.
pub async fn add_custom_member(
    app: &TestApp,
    owner: &str,
    email: &str,
    name: &str,
    permissions: &Permissions,
) {
    let (_, merchant_id) = app.owner_ids(owner).await;
    let (user_id, _) = app.owner_ids(email).await;
    let db = db(app).await;
    let role_id = paydesk::ids::new_id("rol");
    let now = paydesk::ids::now_ms();
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query(
        "INSERT INTO custom_roles (id, merchant_id, name, permissions, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(&role_id)
    .bind(&merchant_id)
    .bind(name)
    .bind(paydesk::domain::permissions::to_stored(permissions))
    .bind(now)
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, custom_role_id, created_at) \
         VALUES ($1, $2, 'custom', $3, $4)",
    )
    .bind(&merchant_id)
    .bind(&user_id)
    .bind(&role_id)
    .bind(now)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

/// A socket of `browser` on `owner`'s merchant (test mode), with its welcome.
pub async fn on_merchant_of(
    app: &TestApp,
    owner: &str,
    browser: &Browser,
) -> (Socket, ServerFrame) {
    let (_, merchant_id) = app.owner_ids(owner).await;
    let mut socket = browser.socket().await;
    socket
        .send(&ClientFrame::Hello {
            resume: None,
            build: "test".into(),
            merchant_id: Some(merchant_id),
            mode: Some(protocol::Mode::Test),
        })
        .await;
    let welcome = socket
        .next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
        .await;
    (socket, welcome)
}

/// The variant names of a tagged union in the generated TypeScript (which
/// a protocol test keeps equal to the Rust types): every command or query
/// the server knows, so a table over them cannot forget a new one.
pub fn wire_variants(type_name: &str) -> Vec<String> {
    wire_union(type_name)
        .split("\"t\": \"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

/// The generated TypeScript union of `type_name`, whole: a variant's doc
/// comment can break it over several lines, so it runs to the next
/// declaration.
pub fn wire_union(type_name: &str) -> String {
    let wire = std::fs::read_to_string(crate::common::repo_root().join("web/src/protocol/wire.ts"))
        .unwrap();
    let prefix = format!("export type {type_name} = ");
    let start = wire
        .find(&prefix)
        .unwrap_or_else(|| panic!("no {type_name} in wire.ts"));
    let rest = &wire[start + prefix.len()..];
    rest[..rest.find("\nexport ").unwrap_or(rest.len())].to_string()
}

/// The `t` of a frame body.
pub fn tag_of<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value).unwrap()["t"]
        .as_str()
        .unwrap()
        .to_string()
}
