//! One harness for every integration test: starts the real app in-process on
//! a free port, over a fresh SQLite file or a fresh PostgreSQL database, and
//! talks to it with a real HTTP client and a real WebSocket client.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod logs;
pub mod members;
pub mod orders;
pub mod server_process;
pub mod two_factor;

use std::path::PathBuf;
use std::time::Duration;

use backend::config::Config;
use futures_util::{SinkExt, StreamExt};
use protocol::{ClientFrame, ServerFrame};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Runs a test function once on SQLite and once on PostgreSQL (when
/// `TEST_DATABASE_URL` is set).
#[macro_export]
macro_rules! on_both_databases {
    ($($test:ident),* $(,)?) => {
        $(
            mod $test {
                #[actix_web::test]
                async fn sqlite() {
                    super::$test($crate::common::Database::Sqlite).await
                }

                #[actix_web::test]
                async fn postgres() {
                    match $crate::common::Database::postgres() {
                        Some(db) => super::$test(db).await,
                        None => eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run is skipped"),
                    }
                }
            }
        )*
    };
}

#[derive(Clone, Debug)]
pub enum Database {
    Sqlite,
    Postgres(String),
}

impl Database {
    pub fn postgres() -> Option<Database> {
        std::env::var("TEST_DATABASE_URL")
            .ok()
            .filter(|u| !u.is_empty())
            .map(Database::Postgres)
    }
}

pub struct TestApp {
    pub addr: std::net::SocketAddr,
    pub database_url: String,
    pub handle: backend::app::NodeHandle,
    pub mail_dir: PathBuf,
    _dir: tempfile::TempDir,
}

/// The business date the whole suite runs on: `BUSINESS_DATE`
/// (`YYYY-MM-DD`) when set, so the suite can be run as if it were another
/// day (`BUSINESS_DATE=2026-12-31 bash .ci/test`), and otherwise the real
/// date. A test that pins its own date (`start_pinned`) keeps it.
pub fn suite_business_date() -> Option<time::Date> {
    let value = std::env::var("BUSINESS_DATE").ok()?;
    Some(backend::config::parse_business_date(&value).expect("BUSINESS_DATE"))
}

/// The server key every node of the database at `url` starts with.
pub fn server_key_for(url: &str) -> paydesk::auth::keys::ServerKey {
    paydesk::auth::keys::ServerKey::parse(&paydesk::ids::hash_secret(url)).expect("a key")
}

/// A unique database on the server of `base` (`postgres://.../anything`).
pub async fn fresh_postgres_database(base: &str) -> String {
    sqlx::any::install_default_drivers();
    let mut url = url::Url::parse(base).expect("TEST_DATABASE_URL");
    let name = format!("test_{}", paydesk::ids::new_id("db").replace('-', "_"));
    let admin = sqlx::AnyPool::connect(url.as_str())
        .await
        .expect("connect to TEST_DATABASE_URL");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin)
        .await
        .expect("create database");
    admin.close().await;
    url.set_path(&format!("/{name}"));
    url.to_string()
}

impl TestApp {
    pub async fn start(db: Database) -> TestApp {
        TestApp::start_with(db, |_| {}).await
    }

    /// The app with its calendar pinned to Monday 2 March 2026, so business
    /// dates in tests are known.
    pub async fn start_pinned(db: Database) -> TestApp {
        TestApp::start_with(db, |config| {
            config.business_date = Some(time::macros::date!(2026 - 03 - 02))
        })
        .await
    }

    pub async fn start_with(db: Database, tweak: impl FnOnce(&mut Config)) -> TestApp {
        let dir = tempfile::tempdir().expect("tempdir");
        let url = match db {
            Database::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
            Database::Postgres(base) => fresh_postgres_database(&base).await,
        };
        TestApp::start_in(dir, &url, tweak).await
    }

    /// A node on an existing database (several nodes may share one). Nodes of
    /// one database share its server key, as `SECRET_KEY` does in production.
    pub async fn start_at(url: &str) -> TestApp {
        TestApp::start_at_with(url, |_| {}).await
    }

    pub async fn start_at_with(url: &str, tweak: impl FnOnce(&mut Config)) -> TestApp {
        TestApp::start_in(tempfile::tempdir().expect("tempdir"), url, |config| {
            config.secret_key = Some(server_key_for(url));
            tweak(config);
        })
        .await
    }

    async fn start_in(
        dir: tempfile::TempDir,
        url: &str,
        tweak: impl FnOnce(&mut Config),
    ) -> TestApp {
        let web_dir = dir.path().join("web");
        std::fs::create_dir_all(web_dir.join("assets")).unwrap();
        std::fs::write(web_dir.join("index.html"), "<!doctype html><html><head><title>Dashboard</title></head><body><div id=\"root\"></div></body></html>").unwrap();
        std::fs::write(web_dir.join("build-id.txt"), "test-build\n").unwrap();
        std::fs::write(web_dir.join("assets/app.js"), "console.log('app')").unwrap();
        let mut config = Config::for_database(url);
        config.web_dir = web_dir;
        config.mail_dir = dir.path().join("mail");
        // Without SECRET_KEY the app makes its key in a file of its own folder.
        config.secret_key_file = dir.path().join("data").join("secret.key");
        config.business_date = suite_business_date();
        tweak(&mut config);
        let (server, handle, addr) = backend::app::start(config).await.expect("start app");
        actix_web::rt::spawn(server);
        let mail_dir = dir.path().join("mail");
        TestApp {
            addr,
            database_url: url.to_string(),
            handle,
            mail_dir,
            _dir: dir,
        }
    }

    /// The id of the user signed up with `email`, and of the merchant they own.
    pub async fn owner_ids(&self, email: &str) -> (String, String) {
        let db = paydesk::store::Db::connect(&self.database_url)
            .await
            .unwrap();
        sqlx::query_as(
            "SELECT u.id, m.merchant_id FROM users u JOIN memberships m ON m.user_id = u.id \
             WHERE u.email = $1 AND m.role = 'owner'",
        )
        .bind(email)
        .fetch_one(&db.pool)
        .await
        .unwrap()
    }

    /// Who caused each event of the stream of `email`'s merchant, oldest first.
    pub async fn event_causes(
        &self,
        email: &str,
        mode: protocol::Mode,
    ) -> Vec<paydesk::store::stream::RecordedCause> {
        let (_, merchant_id) = self.owner_ids(email).await;
        let db = paydesk::store::Db::connect(&self.database_url)
            .await
            .unwrap();
        let key = paydesk::store::stream::StreamKey::new(merchant_id, mode);
        paydesk::store::stream::event_causes(&db, &key)
            .await
            .unwrap()
    }

    /// The newest link under `path_prefix` in mail delivered to `to`, waiting
    /// for the mail worker up to five seconds.
    pub async fn link_in_mail(&self, to: &str, path_prefix: &str) -> String {
        let wanted = format!("{}{}", self.origin(), path_prefix);
        for _ in 0..50 {
            let mut found: Vec<(std::time::SystemTime, String)> = Vec::new();
            for entry in std::fs::read_dir(&self.mail_dir)
                .into_iter()
                .flatten()
                .flatten()
            {
                let raw = std::fs::read_to_string(entry.path()).unwrap_or_default();
                // Undo quoted-printable soft breaks and escapes.
                let text = raw
                    .replace("=\r\n", "")
                    .replace("=\n", "")
                    .replace("=3D", "=");
                if !text
                    .to_lowercase()
                    .contains(&format!("to: {}", to.to_lowercase()))
                {
                    continue;
                }
                if let Some(start) = text.find(&wanted) {
                    let link: String = text[start..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || ":/._-".contains(*c))
                        .collect();
                    let modified = entry
                        .metadata()
                        .and_then(|m| m.modified())
                        .unwrap_or(std::time::UNIX_EPOCH);
                    found.push((modified, link));
                }
            }
            if let Some((_, link)) = found.into_iter().max_by_key(|(at, _)| *at) {
                return link;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no mail to {to} with a link under {path_prefix}");
    }

    /// The decoded text of every mail delivered to `to` that contains
    /// `needle`, once at least `at_least` of them are there and the outbox
    /// has nothing left to send (waiting up to ten seconds for both).
    pub async fn mails_containing(&self, to: &str, needle: &str, at_least: usize) -> Vec<String> {
        let db = paydesk::store::Db::connect(&self.database_url)
            .await
            .unwrap();
        for _ in 0..100 {
            let (pending,): (i64,) =
                sqlx::query_as("SELECT COUNT(*) FROM mail_outbox WHERE sent_at IS NULL")
                    .fetch_one(&db.pool)
                    .await
                    .unwrap();
            let found: Vec<String> = self
                .decoded_mails_to(to)
                .into_iter()
                .filter(|text| text.contains(needle))
                .collect();
            if pending == 0 && found.len() >= at_least {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("fewer than {at_least} mails to {to} containing {needle:?}, or the outbox is stuck");
    }

    /// Every `.eml` file to `to`, with quoted-printable undone.
    fn decoded_mails_to(&self, to: &str) -> Vec<String> {
        let header = format!("to: {}", to.to_lowercase());
        std::fs::read_dir(&self.mail_dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| {
                decode_quoted_printable(&std::fs::read_to_string(e.path()).unwrap_or_default())
            })
            .filter(|text| text.to_lowercase().contains(&header))
            .collect()
    }

    /// How many mails went to `to`.
    pub fn mails_to(&self, to: &str) -> usize {
        std::fs::read_dir(&self.mail_dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                std::fs::read_to_string(e.path())
                    .unwrap_or_default()
                    .to_lowercase()
                    .contains(&format!("to: {}", to.to_lowercase()))
            })
            .count()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A browser-like HTTP client with its own cookie jar.
    pub fn browser(&self) -> Browser {
        self.browser_at(None)
    }

    /// A browser whose connections come from `ip`: any 127.x.y.z reaches
    /// the server over Linux's loopback, so one test can play many clients.
    pub fn browser_from(&self, ip: std::net::Ipv4Addr) -> Browser {
        self.browser_at(Some(std::net::IpAddr::V4(ip)))
    }

    fn browser_at(&self, local_address: Option<std::net::IpAddr>) -> Browser {
        let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .redirect(reqwest::redirect::Policy::none())
            .local_address(local_address)
            .build()
            .unwrap();
        Browser {
            http,
            jar,
            base: self.url(""),
        }
    }

    /// A signed-up browser with a fresh merchant.
    pub async fn merchant(&self, email: &str) -> Browser {
        let browser = self.browser();
        let response = browser
            .sign_up("Thandi Nkosi", email, "karoo-sunset-41", "Karoo Gym")
            .await;
        assert_eq!(response.status(), 200, "sign-up of {email}");
        browser
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        actix_web::rt::spawn(async move { handle.stop(false).await });
    }
}

pub struct Browser {
    pub http: reqwest::Client,
    pub jar: std::sync::Arc<reqwest::cookie::Jar>,
    pub base: String,
}

impl Browser {
    pub async fn csrf(&self) -> String {
        let body: serde_json::Value = self
            .http
            .get(format!("{}/api/auth/csrf", self.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        body["csrfToken"].as_str().unwrap().to_string()
    }

    pub async fn post_form(&self, path: &str, form: &[(&str, &str)]) -> reqwest::Response {
        self.http
            .post(format!("{}{}", self.base, path))
            .form(form)
            .send()
            .await
            .unwrap()
    }

    pub async fn sign_up(
        &self,
        name: &str,
        email: &str,
        password: &str,
        business: &str,
    ) -> reqwest::Response {
        let csrf = self.csrf().await;
        let body = serde_json::json!({"name": name, "email": email, "password": password, "businessName": business, "csrfToken": csrf});
        self.http
            .post(format!("{}/api/auth/signup", self.base))
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    pub async fn sign_in(&self, email: &str, password: &str, callback: &str) -> reqwest::Response {
        let csrf = self.csrf().await;
        let form = [
            ("csrfToken", csrf.as_str()),
            ("callbackUrl", callback),
            ("json", "true"),
            ("email", email),
            ("password", password),
        ];
        self.post_form("/api/auth/callback/credentials", &form)
            .await
    }

    pub async fn sign_out(&self) -> reqwest::Response {
        let csrf = self.csrf().await;
        self.post_form(
            "/api/auth/signout",
            &[
                ("csrfToken", csrf.as_str()),
                ("callbackUrl", "/auth/login"),
                ("json", "true"),
            ],
        )
        .await
    }

    pub async fn session(&self) -> serde_json::Value {
        self.http
            .get(format!("{}/api/auth/session", self.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    pub fn cookie_header(&self) -> String {
        use reqwest::cookie::CookieStore;
        self.jar
            .cookies(&self.base.parse().unwrap())
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    }

    /// Opens `/ws` with this browser's cookies and the given Origin.
    pub async fn try_socket(
        &self,
        origin: &str,
    ) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
        let ws_url = self.base.replacen("http://", "ws://", 1) + "/ws";
        let mut request = ws_url.into_client_request().unwrap();
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
        let cookies = self.cookie_header();
        if !cookies.is_empty() {
            request
                .headers_mut()
                .insert("cookie", cookies.parse().unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(request).await?;
        Ok(Socket {
            stream,
            pending: Default::default(),
            patience: Duration::from_secs(5),
        })
    }

    pub async fn socket(&self) -> Socket {
        self.try_socket(&self.base).await.expect("socket upgrade")
    }

    /// A socket that has said Hello and received its Welcome.
    pub async fn live(&self) -> (Socket, ServerFrame) {
        self.live_in(None).await
    }

    /// A socket on the user's first merchant in `mode` (the server's
    /// default mode when none), with its Welcome.
    pub async fn live_in(&self, mode: Option<protocol::Mode>) -> (Socket, ServerFrame) {
        let mut socket = self.socket().await;
        socket
            .send(&ClientFrame::Hello {
                resume: None,
                build: "test".into(),
                merchant_id: None,
                mode,
            })
            .await;
        let welcome = socket
            .next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
            .await;
        (socket, welcome)
    }

    /// A welcomed socket in `mode`.
    pub async fn open(&self, mode: protocol::Mode) -> Socket {
        self.live_in(Some(mode)).await.0
    }
}

pub struct Socket {
    pub stream: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    /// Frames read while looking for another one, in arrival order.
    pending: std::collections::VecDeque<ServerFrame>,
    /// How long `next_matching` waits for each frame before failing the test.
    patience: Duration,
}

/// What a socket saw instead of a frame.
#[derive(Debug)]
pub enum Ended {
    Closed(Option<u16>),
    TimedOut,
}

impl Socket {
    /// A socket opened some other way (e.g. with an API token).
    pub fn from_stream(
        stream: tokio_tungstenite::WebSocketStream<
            tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
        >,
    ) -> Socket {
        Socket {
            stream,
            pending: Default::default(),
            patience: Duration::from_secs(5),
        }
    }

    /// Waits up to `wait` for each frame from now on: for tests where the
    /// app is expected to be slow (behind a held lock, beside a long import),
    /// so that only a hung app fails them.
    pub fn wait_up_to(&mut self, wait: Duration) {
        self.patience = wait;
    }

    pub async fn send(&mut self, frame: &ClientFrame) {
        self.stream
            .send(Message::binary(protocol::encode(frame).unwrap()))
            .await
            .unwrap();
    }

    pub async fn send_raw(&mut self, bytes: Vec<u8>) {
        let _ = self.stream.send(Message::binary(bytes)).await;
    }

    /// The next protocol frame within `wait`, skipping pings.
    pub async fn next_within(&mut self, wait: Duration) -> Result<ServerFrame, Ended> {
        loop {
            let next = tokio::time::timeout(wait, self.stream.next())
                .await
                .map_err(|_| Ended::TimedOut)?;
            match next {
                Some(Ok(Message::Binary(bytes))) => return Ok(protocol::decode(&bytes).unwrap()),
                Some(Ok(Message::Close(frame))) => {
                    return Err(Ended::Closed(frame.map(|f| u16::from(f.code))));
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Err(Ended::Closed(None)),
            }
        }
    }

    /// The next frame that is not a Presence update.
    pub async fn next(&mut self) -> ServerFrame {
        self.next_matching(|f| !is_presence(f)).await
    }

    /// The first frame, already read or still to come, that `wanted` accepts;
    /// the others stay queued for later calls.
    pub async fn next_matching(&mut self, wanted: impl Fn(&ServerFrame) -> bool) -> ServerFrame {
        if let Some(index) = self.pending.iter().position(&wanted) {
            return self.pending.remove(index).unwrap();
        }
        loop {
            let frame = self
                .next_within(self.patience)
                .await
                .unwrap_or_else(|e| panic!("expected a frame, got {e:?}"));
            if wanted(&frame) {
                return frame;
            }
            self.pending.push_back(frame);
        }
    }

    /// Asserts that no non-presence frame arrives within `wait`.
    pub async fn expect_silence(&mut self, wait: Duration) {
        if let Some(frame) = self.pending.iter().find(|f| !is_presence(f)) {
            panic!("expected silence, got {frame:?}");
        }
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return;
            }
            match self.next_within(left).await {
                Ok(frame) if is_presence(&frame) => continue,
                Ok(frame) => panic!("expected silence, got {frame:?}"),
                Err(Ended::TimedOut) => return,
                Err(other) => panic!("expected silence, socket ended: {other:?}"),
            }
        }
    }

    /// Waits for the socket to close and returns the close code.
    pub async fn closed(&mut self) -> Option<u16> {
        loop {
            match self.next_within(Duration::from_secs(5)).await {
                Ok(_) => continue,
                Err(Ended::Closed(code)) => return code,
                Err(Ended::TimedOut) => panic!("socket did not close"),
            }
        }
    }

    /// Sends a command and returns its reply.
    pub async fn command(&mut self, id: &str, command: protocol::Command) -> ServerFrame {
        self.send(&ClientFrame::Command {
            id: id.into(),
            command,
        })
        .await;
        let id = id.to_string();
        self.next_matching(move |f| matches!(f, ServerFrame::Reply { id: rid, .. } if *rid == id))
            .await
    }

    pub async fn query(&mut self, id: &str, query: protocol::Query) -> ServerFrame {
        self.send(&ClientFrame::Query {
            id: id.into(),
            query,
        })
        .await;
        let id = id.to_string();
        self.next_matching(move |f| matches!(f, ServerFrame::Reply { id: rid, .. } if *rid == id))
            .await
    }
}

/// Moves the test clock by `step` and waits until `watcher` hears the
/// scheduler has played out `day` (the days run after the command's reply).
pub async fn advance_clock(
    socket: &mut Socket,
    watcher: &mut Socket,
    step: protocol::ClockStep,
    day: &str,
) {
    let reply = socket
        // A command id is used once: the same id again would be a retry.
        .command(
            &format!("clock-{day}"),
            protocol::Command::AdvanceTestClock { step },
        )
        .await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );
    loop {
        match watcher.next_within(Duration::from_secs(20)).await {
            Ok(ServerFrame::Delta { changes, .. })
                if changes.iter().any(
                    |c| matches!(c, protocol::Change::ClockAdvanced { today } if today == day),
                ) =>
            {
                return;
            }
            Ok(_) => {}
            Err(_) => panic!("the clock never reached {day}"),
        }
    }
}

/// The id a committed command created or changed.
pub fn committed_id(frame: ServerFrame) -> String {
    match frame {
        ServerFrame::Reply {
            ok: Some(protocol::ReplyBody::Committed { id: Some(id), .. }),
            ..
        } => id,
        other => panic!("expected a commit, got {other:?}"),
    }
}

/// The error of a refused command or query.
pub fn error_of(frame: ServerFrame) -> protocol::WireError {
    match frame {
        ServerFrame::Reply {
            error: Some(error), ..
        } => error,
        other => panic!("expected an error, got {other:?}"),
    }
}

pub fn customer_input(name: &str, email: &str) -> protocol::CustomerInput {
    protocol::CustomerInput {
        name: name.into(),
        email: email.into(),
        ..Default::default()
    }
}

/// Undoes quoted-printable: soft line breaks and `=XX` escapes (UTF-8).
pub fn decode_quoted_printable(raw: &str) -> String {
    let joined = raw.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'=' && i + 2 < bytes.len())
            .then(|| std::str::from_utf8(&bytes[i + 1..i + 3]).ok())
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Who is online: a snapshot or the changes since.
pub fn is_presence(frame: &ServerFrame) -> bool {
    matches!(
        frame,
        ServerFrame::Presence { .. } | ServerFrame::PresenceChanged { .. }
    )
}
