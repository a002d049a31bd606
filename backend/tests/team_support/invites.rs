//! The invite link's steps as a browser takes them: the invite command,
//! the link in the mail, and the invite endpoints.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use crate::common::{Browser, Socket, TestApp};
use protocol::{Command, Role, ServerFrame};

pub const PATH: &str = "/account/teams/invite/";

pub async fn invite(socket: &mut Socket, id: &str, email: &str, role: Role) -> ServerFrame {
    let command = Command::InviteMember {
        email: email.into(),
        role,
        role_id: None,
    };
    socket.command(id, command).await
}

/// The token of the newest invite link mailed to `to`.
pub async fn token_in_mail(app: &TestApp, to: &str) -> String {
    let link = app.link_in_mail(to, PATH).await;
    link.rsplit('/').next().unwrap().to_string()
}

/// Posts to one of the invite endpoints (`""`, `/accept`, `/signup`) with
/// a CSRF token: the status and the body.
pub async fn post(
    browser: &Browser,
    tail: &str,
    fields: serde_json::Value,
) -> (u16, serde_json::Value) {
    let mut body = fields;
    body["csrfToken"] = browser.csrf().await.into();
    let response = browser
        .http
        .post(format!("{}/api/auth/invite{tail}", browser.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or_default())
}

/// A visitor signs up from the invite with `token`.
pub async fn sign_up_from(
    app: &TestApp,
    token: &str,
    name: &str,
) -> (Browser, u16, serde_json::Value) {
    let browser = app.browser();
    let (status, body) = post(
        &browser,
        "/signup",
        serde_json::json!({"token": token, "name": name, "password": "karoo-sunset-41"}),
    )
    .await;
    (browser, status, body)
}
