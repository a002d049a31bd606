//! A node killed with SIGKILL in the middle of a webhook delivery loses
//! nothing: the delivery was queued with its event, its claim is a lease,
//! and the restarted node sends it (same event id, same bytes) once the
//! lease has run out.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod webhook_support;

use std::path::Path;
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::{Browser, Database, committed_id, customer_input};
use paydesk::auth::keys::ServerKey;
use protocol::{Command, Mode};
use webhook_support::{Receiver, add_endpoint, keys_of};

const OWNER: &str = "owner@example.co.za";

struct Server {
    child: Child,
    base: String,
}

impl Server {
    async fn start(dir: &Path, database_url: &str, key: &ServerKey, run: usize) -> Server {
        let web_dir = dir.join("web");
        std::fs::create_dir_all(&web_dir).unwrap();
        std::fs::write(
            web_dir.join("index.html"),
            "<!doctype html><title>Dashboard</title>",
        )
        .unwrap();
        let log = dir.join(format!("server-{run}.log"));
        let out = std::fs::File::create(&log).unwrap();
        let err = out.try_clone().unwrap();
        let child = Process::new(env!("CARGO_BIN_EXE_backend"))
            .arg("serve")
            .env_clear()
            .env("DATABASE_URL", database_url)
            .env("BIND", "127.0.0.1:0")
            .env("WEB_DIR", &web_dir)
            .env("MAIL_DIR", dir.join("mail"))
            .env("SECRET_KEY", key.to_hex())
            .env("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", "true")
            // Short, so the dead node's lease (twice this and 5 s) ends soon.
            .env("WEBHOOK_TIMEOUT_SECONDS", "2")
            .env("RUST_LOG", "info,sqlx=warn")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("start the server binary");
        // Owned by `Server` at once: its drop kills and reaps the child on any path.
        let mut server = Server {
            child,
            base: String::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if let Some(at) = text.find("Serving the dashboard on ") {
                let rest = &text[at + "Serving the dashboard on ".len()..];
                if let Some(end) = rest.find('\n') {
                    server.base = rest[..end].trim().to_string();
                    return server;
                }
            }
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("server {run} exited with {status} before serving:\n{text}");
            }
            assert!(
                Instant::now() < deadline,
                "server {run} did not start:\n{text}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn browser_at(base: &str, jar: &std::sync::Arc<reqwest::cookie::Jar>) -> Browser {
    let http = reqwest::Client::builder()
        .cookie_provider(jar.clone())
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    Browser {
        http,
        jar: jar.clone(),
        base: base.to_string(),
    }
}

async fn a_kill_mid_delivery_loses_nothing(db: Database) {
    let dir = tempfile::tempdir().unwrap();
    let url = match db {
        Database::Sqlite => format!("sqlite://{}", dir.path().join("test.db").display()),
        Database::Postgres(base) => common::fresh_postgres_database(&base).await,
    };
    let key = ServerKey::generate().unwrap();
    let mut server = Server::start(dir.path(), &url, &key, 1).await;
    let jar = std::sync::Arc::new(reqwest::cookie::Jar::default());
    let browser = browser_at(&server.base, &jar);
    let signed_up = browser
        .sign_up("Thandi Nkosi", OWNER, "karoo-sunset-41", "Karoo Gym")
        .await;
    assert_eq!(signed_up.status(), 200);
    let mut socket = browser.open(Mode::Test).await;
    let store = paydesk::store::Db::connect(&url).await.unwrap();
    let (user_id, merchant_id): (String, String) = sqlx::query_as(
        "SELECT u.id, m.merchant_id FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.email = $1",
    )
    .bind(OWNER)
    .fetch_one(&store.pool)
    .await
    .unwrap();
    let receiver = Receiver::start(0).await;
    receiver.hang_next(1);
    add_endpoint(
        &url,
        &keys_of(&key),
        &merchant_id,
        &user_id,
        &receiver.url,
        &["customer.created"],
    )
    .await;
    committed_id(
        socket
            .command(
                "c1",
                Command::CreateCustomer {
                    input: customer_input("Customer", "c@example.co.za"),
                },
            )
            .await,
    );
    // The first attempt is in flight (the receiver holds it): kill the node.
    let first = receiver.wait_for(1).await.remove(0);
    server.kill();
    drop(socket);

    let _restarted = Server::start(dir.path(), &url, &key, 2).await;
    let second = receiver.wait_for(2).await.remove(1);
    assert_eq!(second.header("webhook-id"), first.header("webhook-id"));
    assert_eq!(second.body, first.body);
    for _ in 0..300 {
        let delivered: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'delivered'")
                .fetch_one(&store.pool)
                .await
                .unwrap();
        if delivered == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the delivery was not recorded as delivered after the restart");
}

on_both_databases!(a_kill_mid_delivery_loses_nothing);
