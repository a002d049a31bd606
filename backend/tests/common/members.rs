//! Team members for tests: seeding a member with a role (the row an
//! accepted invite ends in), and a socket on a merchant the user joined.

use protocol::{ClientFrame, Role, ServerFrame};

use super::{Browser, Socket, TestApp};

/// Makes `email` (who has an account) a member of `owner`'s merchant with `role`.
pub async fn add_member(app: &TestApp, owner: &str, email: &str, role: Role) {
    let (_, merchant_id) = app.owner_ids(owner).await;
    let db = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let (user_id,): (String,) = sqlx::query_as("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&db.pool)
        .await
        .unwrap();
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

/// A socket of `browser` on `merchant_id` in `mode`, with its welcome.
pub async fn on_merchant(
    browser: &Browser,
    merchant_id: &str,
    mode: protocol::Mode,
) -> (Socket, ServerFrame) {
    let mut socket = browser.socket().await;
    socket
        .send(&ClientFrame::Hello {
            resume: None,
            build: "test".into(),
            merchant_id: Some(merchant_id.to_string()),
            mode: Some(mode),
        })
        .await;
    let welcome = socket
        .next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
        .await;
    (socket, welcome)
}
