//! What the API token and machine API tests share: making a token over the
//! socket as the merchant's owner, and reading its reply.

#![allow(dead_code)]

use crate::common::{Socket, TestApp, error_of};
use protocol::{
    Access, ApiToken, ClientFrame, Command, Mode, Permissions, ReplyBody, Section, ServerFrame,
};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The token and the secret of an `ApiTokenSecret` reply.
pub fn token_of(frame: ServerFrame) -> (ApiToken, Option<String>) {
    match frame {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokenSecret { token, secret, .. }),
            ..
        } => (*token, secret),
        ServerFrame::Reply {
            error: Some(error), ..
        } => panic!("expected a token, got {error:?}"),
        other => panic!("expected a token, got {other:?}"),
    }
}

/// A matrix with these sections at these accesses, the rest none.
pub fn grants(of: &[(Section, Access)]) -> Permissions {
    of.iter()
        .fold(Permissions::all(Access::None), |p, (s, a)| p.with(*s, *a))
}

pub fn create(name: &str, mode: Mode, permissions: Permissions) -> Command {
    Command::CreateApiToken {
        name: name.into(),
        mode,
        permissions,
        expires_at: None,
        allowed_addresses: Vec::new(),
    }
}

/// Makes a token on the socket's stream and returns it with its secret.
pub async fn make_token(
    socket: &mut Socket,
    id: &str,
    mode: Mode,
    permissions: Permissions,
) -> (ApiToken, String) {
    let (token, secret) = token_of(socket.command(id, create(id, mode, permissions)).await);
    (token, secret.expect("a new token's secret"))
}

/// A test-mode token for a shop's server, which makes customers and
/// payments and reads mandates: its secret.
pub async fn shop_token(socket: &mut Socket) -> String {
    let writes = grants(&[
        (Section::Customers, Access::Write),
        (Section::Payments, Access::Write),
        (Section::Mandates, Access::Read),
    ]);
    make_token(socket, "shop", Mode::Test, writes).await.1
}

/// A socket opened with a token's secret, welcomed on the token's stream.
pub async fn token_socket(app: &TestApp, secret: &str) -> Socket {
    let url = app.url("/ws").replacen("http://", "ws://", 1);
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {secret}").parse().unwrap());
    let (stream, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut socket = Socket::from_stream(stream);
    socket
        .send(&ClientFrame::Hello {
            resume: None,
            build: "test".into(),
            merchant_id: None,
            mode: None,
        })
        .await;
    socket
        .next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
        .await;
    socket
}

pub fn code_of(frame: ServerFrame) -> protocol::ErrorCode {
    error_of(frame).code
}

/// A merchant's server calling `/api/v1` with one token.
pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
    pub secret: String,
}

/// An answer: its status, its JSON, and its headers.
pub struct Answer {
    pub status: u16,
    pub json: serde_json::Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Answer {
    pub fn code(&self) -> &str {
        self.json["error"]["code"].as_str().unwrap_or("")
    }
}

impl Api {
    pub fn new(app: &crate::common::TestApp, secret: &str) -> Api {
        Api {
            http: reqwest::Client::new(),
            base: app.url("/api/v1"),
            secret: secret.to_string(),
        }
    }

    /// As `new`, its connections coming from `ip` (any 127.x.y.z reaches
    /// the server over loopback), so one test can play several servers.
    pub fn from_address(app: &crate::common::TestApp, secret: &str, ip: [u8; 4]) -> Api {
        let address = std::net::IpAddr::from(ip);
        Api {
            http: reqwest::Client::builder()
                .local_address(address)
                .build()
                .unwrap(),
            base: app.url("/api/v1"),
            secret: secret.to_string(),
        }
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let response = request.bearer_auth(&self.secret).send().await.unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.unwrap();
        let json = serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text));
        Answer {
            status,
            json,
            headers,
        }
    }

    pub async fn get(&self, path: &str) -> Answer {
        self.send(self.http.get(format!("{}{path}", self.base)))
            .await
    }

    pub async fn get_in(&self, path: &str, language: &str) -> Answer {
        let request = self
            .http
            .get(format!("{}{path}", self.base))
            .header("accept-language", language);
        self.send(request).await
    }

    /// A write with an idempotency key (none when `key` is empty).
    pub async fn post(&self, path: &str, key: &str, body: &serde_json::Value) -> Answer {
        self.post_in(path, key, body, "").await
    }

    /// As `post`, asking for messages in `language` (none when empty).
    pub async fn post_in(
        &self,
        path: &str,
        key: &str,
        body: &serde_json::Value,
        language: &str,
    ) -> Answer {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(body);
        if !key.is_empty() {
            request = request.header("idempotency-key", key);
        }
        if !language.is_empty() {
            request = request.header("accept-language", language);
        }
        self.send(request).await
    }
}
