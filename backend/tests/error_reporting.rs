//! Error reporting to a Sentry-compatible service: the server binary, with
//! `SENTRY_DSN` pointing at a small receiver of envelopes run here, reports
//! an internal error of a socket command with the command's kind and one of
//! an HTTP request with its method and path, and neither carries what the
//! request held secret (the password, the session cookie, a query token).
//! A panic is reported too. Without the DSN the web app is told nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use common::server_process::ServerProcess;
use common::{Database, TestApp, customer_input, error_of};
use protocol::{Command, ErrorCode, Mode};

const PASSWORD: &str = "planted-Secret-Passw0rd";
const QUERY_TOKEN: &str = "planted-query-token-5551";

/// Envelopes received, with the auth header each came with.
#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<(String, String)>>>);

impl Received {
    /// Waits for an envelope containing `needle`.
    async fn with(&self, needle: &str) -> (String, String) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(found) = self
                .0
                .lock()
                .unwrap()
                .iter()
                .find(|(_, body)| body.contains(needle))
            {
                return found.clone();
            }
            assert!(Instant::now() < deadline, "no envelope with {needle:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn all(&self) -> String {
        let all = self.0.lock().unwrap();
        all.iter().map(|(_, body)| body.as_str()).collect()
    }
}

/// A receiver of envelopes on a free port; returns the DSN pointing at it.
async fn receiver() -> (String, Received) {
    let received = Received::default();
    let kept = received.clone();
    let server = HttpServer::new(move || {
        let kept = kept.clone();
        App::new().route(
            "/api/42/envelope/",
            web::post().to(move |req: HttpRequest, body: web::Bytes| {
                let kept = kept.clone();
                async move {
                    let auth = req
                        .headers()
                        .get("x-sentry-auth")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_string();
                    let body = String::from_utf8_lossy(&body).to_string();
                    kept.0.lock().unwrap().push((auth, body));
                    HttpResponse::Ok().json(serde_json::json!({"id": "x"}))
                }
            }),
        )
    })
    .workers(1)
    .bind("127.0.0.1:0")
    .unwrap();
    let addr = server.addrs()[0];
    actix_web::rt::spawn(server.run());
    (format!("http://publickey@{addr}/42"), received)
}

/// The event of an envelope: its third line.
fn event_of(envelope: &str) -> serde_json::Value {
    let lines: Vec<&str> = envelope.lines().collect();
    assert_eq!(lines.len(), 3, "{envelope}");
    let item: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(item["type"], "event");
    assert_eq!(item["length"], lines[2].len());
    let mut event: serde_json::Value = serde_json::from_str(lines[2]).unwrap();
    // The protocol leaves out the level when it is its default, "error".
    event
        .as_object_mut()
        .unwrap()
        .entry("level")
        .or_insert("error".into());
    event
}

async fn rename(url: &str, table: &str) {
    let db = paydesk::store::Db::connect(url).await.unwrap();
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER TABLE {table} RENAME TO {table}_gone"
    )))
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
}

on_both_databases!(internal_errors_are_reported_without_secrets);

async fn internal_errors_are_reported_without_secrets(db: Database) {
    let (dsn, received) = receiver().await;
    let dir = tempfile::tempdir().unwrap();
    let url = match db {
        Database::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
        Database::Postgres(base) => common::fresh_postgres_database(&base).await,
    };
    let server = ServerProcess::start(dir.path(), &url, 1, &[("SENTRY_DSN", dsn.as_str())]).await;
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let browser = server.browser(&jar);
    let signed_up = browser
        .sign_up(
            "Thandi Nkosi",
            "report@example.co.za",
            PASSWORD,
            "Karoo Gym",
        )
        .await;
    assert_eq!(signed_up.status(), 200);
    let cookie = browser.cookie_header();
    let session = cookie
        .split(';')
        .find_map(|c| c.trim().strip_prefix("session-token=").map(str::to_string))
        .unwrap();
    let config: serde_json::Value = browser
        .http
        .get(format!("{}/api/auth/config", server.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(config["errorReporting"]["dsn"], dsn.as_str());

    // A command failing inside the database: reported with its kind.
    let mut tab = browser.open(Mode::Test).await;
    rename(&url, "customers").await;
    let input = customer_input("Thabo Mokoena", "thabo@example.co.za");
    let reply = tab.command("c1", Command::CreateCustomer { input }).await;
    assert_eq!(error_of(reply).code, ErrorCode::Internal);
    let (auth, envelope) = received.with("\"command\":\"CreateCustomer\"").await;
    assert!(auth.contains("sentry_key=publickey"), "{auth}");
    let event = event_of(&envelope);
    assert_eq!(event["level"], "error");
    assert_eq!(event["message"], "internal error");
    assert!(
        event["exception"]["values"][0]["value"]
            .as_str()
            .unwrap()
            .contains("customers"),
        "{event}"
    );

    // A sign-in failing inside the database: reported with method and path.
    rename(&url, "users").await;
    let csrf = browser.csrf().await;
    let form = [
        ("csrfToken", csrf.as_str()),
        ("callbackUrl", "/"),
        ("json", "true"),
        ("email", "report@example.co.za"),
        ("password", PASSWORD),
    ];
    let signed_in = browser
        .post_form(
            &format!("/api/auth/signin/credentials?token={QUERY_TOKEN}"),
            &form,
        )
        .await;
    assert!(
        signed_in.status().is_server_error(),
        "{}",
        signed_in.status()
    );
    let (_, envelope) = received.with("signin/credentials").await;
    let event = event_of(&envelope);
    assert_eq!(event["request"]["method"], "POST");
    // The format wants an absolute URL: the server's origin and the path.
    let reported = url::Url::parse(event["request"]["url"].as_str().unwrap()).unwrap();
    assert_eq!(reported.path(), "/api/auth/signin/credentials");
    assert_eq!(reported.query(), None);

    let everything = received.all();
    for secret in [PASSWORD, QUERY_TOKEN, session.as_str()] {
        assert!(!everything.contains(secret), "{secret} was reported");
    }
}

/// A panic on any thread is reported as fatal, with where it happened.
#[actix_web::test]
async fn panics_are_reported() {
    let (dsn, received) = receiver().await;
    backend::error_reporting::install(
        backend::error_reporting::Dsn::parse(&dsn).unwrap(),
        "http://127.0.0.1",
    );
    let panicked = std::thread::spawn(|| panic!("the ledger does not balance")).join();
    assert!(panicked.is_err());
    let (_, envelope) = received.with("the ledger does not balance").await;
    let event = event_of(&envelope);
    assert_eq!(event["level"], "fatal");
    assert_eq!(event["exception"]["values"][0]["type"], "panic");
    assert!(
        event["culprit"]
            .as_str()
            .unwrap()
            .contains("error_reporting.rs"),
        "{event}"
    );

    // Inside a command, the panic names the command (as the server's
    // subscriber does, through the reporting layer).
    let panicked = std::thread::spawn(|| {
        use tracing_subscriber::prelude::*;
        let subscriber = tracing_subscriber::registry().with(backend::error_reporting::layer());
        let _subscriber = tracing::subscriber::set_default(subscriber);
        let _command = backend::error_reporting::command_span("RefundPayment").entered();
        panic!("the refund does not balance")
    })
    .join();
    assert!(panicked.is_err());
    let (_, envelope) = received.with("the refund does not balance").await;
    let event = event_of(&envelope);
    assert_eq!(event["level"], "fatal");
    assert_eq!(event["tags"]["command"], "RefundPayment", "{event}");
}

/// Off by default: the web app is told there is nowhere to report.
#[actix_web::test]
async fn without_a_dsn_the_web_app_reports_nothing() {
    let app = TestApp::start(Database::Sqlite).await;
    let config: serde_json::Value = reqwest::get(app.url("/api/auth/config"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(config, serde_json::json!({ "errorReporting": null }));
}
