//! What the webhook tests share: a local receiver that can fail on
//! purpose, endpoints made through the product's own use-case, and the
//! official Standard Webhooks verifier (the `standardwebhooks` Python
//! package, installed for the test run when missing).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use paydesk::auth::keys::{Keys, ServerKey};
use paydesk::domain::webhooks::endpoints::{self, EndpointInput};
use paydesk::ids::now_ms;
use paydesk::store::Db;
use paydesk::store::stream::{self, Actor, Cause, StreamKey, Work};
use protocol::Mode;

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub headers: HashMap<String, String>,
    pub body: String,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map(String::as_str)
            .unwrap_or_default()
    }
}

#[derive(Default)]
struct ReceiverState {
    received: Mutex<Vec<Received>>,
    /// Answers 500 to this many requests before answering 204.
    failures_left: AtomicUsize,
    /// Never answers this many requests (a receiver stuck mid-delivery).
    hangs_left: AtomicUsize,
}

/// A webhook receiver on a free local port.
pub struct Receiver {
    pub url: String,
    state: Arc<ReceiverState>,
    handle: actix_web::dev::ServerHandle,
}

impl Receiver {
    pub async fn start(fail_first: usize) -> Receiver {
        let state = Arc::new(ReceiverState::default());
        state.failures_left.store(fail_first, Ordering::SeqCst);
        let shared = web::Data::from(state.clone());
        let server = HttpServer::new(move || {
            App::new()
                .app_data(shared.clone())
                .default_service(web::to(receive))
        })
        .workers(1)
        .bind("127.0.0.1:0")
        .unwrap();
        let addr = server.addrs()[0];
        let server = server.run();
        let handle = server.handle();
        actix_web::rt::spawn(server);
        Receiver {
            url: format!("http://{addr}/hooks"),
            state,
            handle,
        }
    }

    pub fn hang_next(&self, count: usize) {
        self.state.hangs_left.store(count, Ordering::SeqCst);
    }

    pub fn fail_next(&self, count: usize) {
        self.state.failures_left.store(count, Ordering::SeqCst);
    }

    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().unwrap().clone()
    }

    /// Waits until `count` requests have come in (up to a minute).
    pub async fn wait_for(&self, count: usize) -> Vec<Received> {
        for _ in 0..600 {
            let received = self.received();
            if received.len() >= count {
                return received;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!(
            "the receiver got {} requests, not {count}",
            self.received().len()
        );
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let handle = self.handle.clone();
        actix_web::rt::spawn(async move { handle.stop(false).await });
    }
}

async fn receive(
    request: HttpRequest,
    body: web::Bytes,
    state: web::Data<ReceiverState>,
) -> HttpResponse {
    let headers = request
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                v.to_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    state.received.lock().unwrap().push(Received {
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    });
    let hanging = state
        .hangs_left
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok();
    if hanging {
        std::future::pending::<()>().await;
    }
    let failing = state
        .failures_left
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok();
    if failing {
        HttpResponse::InternalServerError().body("not yet")
    } else {
        HttpResponse::NoContent().finish()
    }
}

/// The keys the app derives from `key`: the test seals and opens as it does.
pub fn keys_of(key: &ServerKey) -> Keys {
    Keys::derive(key)
}

/// Adds an endpoint as the product's use-case does, as an event caused by
/// the owner; returns its id and its secret.
pub async fn add_endpoint(
    database_url: &str,
    keys: &Keys,
    merchant_id: &str,
    user_id: &str,
    url: &str,
    types: &[&str],
) -> (String, String) {
    let db = Db::connect(database_url).await.unwrap();
    let key = StreamKey::new(merchant_id, Mode::Test);
    let address = endpoints::check_address(url, true).await.unwrap();
    let input = EndpointInput {
        url: url.into(),
        description: "Our shop".into(),
        event_types: types.iter().map(|t| t.to_string()).collect(),
    };
    let cause = Cause::background(Actor::User {
        user_id: user_id.into(),
        session_id: "ses_test".into(),
    });
    let written = stream::write(&db, &key, &cause, async |tx, _| {
        let (row, secret) =
            endpoints::create_endpoint(tx, &key, address, &input, &keys.webhooks, now_ms()).await?;
        let added = endpoints::upserted(tx, &key, &row.id).await?;
        Ok(Work::changed(vec![added], (row.id, secret)))
    })
    .await
    .unwrap();
    written.value
}

/// Rolls an endpoint's secret as the owner; returns the new one.
pub async fn roll_secret(
    database_url: &str,
    keys: &Keys,
    merchant_id: &str,
    endpoint_id: &str,
) -> String {
    let db = Db::connect(database_url).await.unwrap();
    let key = StreamKey::new(merchant_id, Mode::Test);
    let cause = Cause::background(Actor::User {
        user_id: "usr_test".into(),
        session_id: "ses_test".into(),
    });
    stream::write(&db, &key, &cause, async |tx, _| {
        let secret =
            endpoints::roll_secret(tx, &key, endpoint_id, &keys.webhooks, now_ms()).await?;
        let rolled = endpoints::upserted(tx, &key, endpoint_id).await?;
        Ok(Work::changed(vec![rolled], secret))
    })
    .await
    .unwrap()
    .value
}

static INSTALL: Once = Once::new();

/// Asks the official verifier about each (secret, body, headers): whether
/// it accepts the delivery.
pub fn verify_with_standardwebhooks(
    cases: &[(String, String, HashMap<String, String>)],
) -> Vec<bool> {
    INSTALL.call_once(|| {
        let present = Command::new("python3")
            .args(["-c", "import standardwebhooks"])
            .status();
        if !present.is_ok_and(|s| s.success()) {
            let installed = Command::new("python3")
                .args(["-m", "pip", "install", "--quiet", "standardwebhooks"])
                .status()
                .expect("python3");
            assert!(
                installed.success(),
                "cannot install the standardwebhooks verifier"
            );
        }
    });
    let script = r#"
import json, sys
from standardwebhooks.webhooks import Webhook, WebhookVerificationError
results = []
for case in json.load(sys.stdin):
    try:
        Webhook(case["secret"]).verify(case["body"], case["headers"])
        results.append(True)
    except WebhookVerificationError:
        results.append(False)
print(json.dumps(results))
"#;
    let input: Vec<serde_json::Value> = cases
        .iter()
        .map(|(secret, body, headers)| serde_json::json!({"secret": secret, "body": body, "headers": headers}))
        .collect();
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&input).unwrap().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "the verifier failed to run");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The signature headers of a request, for the verifier.
pub fn signed_headers(received: &Received) -> HashMap<String, String> {
    ["webhook-id", "webhook-timestamp", "webhook-signature"]
        .into_iter()
        .map(|name| (name.to_string(), received.header(name).to_string()))
        .collect()
}

/// Runs `work` as an event of the owner's test stream, as a command does.
pub async fn as_owner<T>(
    database_url: &str,
    merchant_id: &str,
    work: impl AsyncFnOnce(&mut paydesk::store::Tx, &StreamKey) -> paydesk::error::AppResult<T>,
) -> T {
    let db = Db::connect(database_url).await.unwrap();
    let key = StreamKey::new(merchant_id, Mode::Test);
    let cause = Cause::background(Actor::User {
        user_id: "usr_test".into(),
        session_id: "ses_test".into(),
    });
    stream::write(&db, &key, &cause, async |tx, _| {
        let value = work(tx, &key).await?;
        Ok(Work::changed(Vec::new(), value))
    })
    .await
    .unwrap()
    .value
}
