//! The probes: `/healthz` answers while the process runs; `/readyz` answers
//! 503 with a reason while the database is gone or not fully migrated, and
//! 200 again once it is back. Both without a session.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::{Database, TestApp};
use serde_json::Value;

/// Asks `/readyz` until it answers `status`: the database's state changes
/// outside the server, and a pool notices on its next use.
async fn readyz_becomes(app: &TestApp, status: u16) -> Value {
    let client = reqwest::Client::new();
    let mut last = None;
    for _ in 0..300 {
        let response = client.get(app.url("/readyz")).send().await.unwrap();
        let code = response.status().as_u16();
        let body: Value = response.json().await.unwrap();
        if code == status {
            return body;
        }
        last = Some((code, body));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("/readyz never answered {status}; last: {last:?}");
}

async fn healthz_is_ok(app: &TestApp) {
    let response = reqwest::get(app.url("/healthz")).await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(response.headers().get("cache-control").unwrap(), "no-store");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");
}

/// Takes the database away from the server and gives it back: SQLite's file
/// moves out of its place; PostgreSQL refuses and cuts its connections.
enum Outage {
    SqliteFile { file: String, aside: String },
    Postgres { admin: sqlx::AnyPool, name: String },
}

impl Outage {
    async fn begin(app: &TestApp) -> Outage {
        if let Some(file) = app.database_url.strip_prefix("sqlite://") {
            let file = file.split('?').next().unwrap().to_string();
            let aside = format!("{file}.aside");
            std::fs::rename(&file, &aside).unwrap();
            return Outage::SqliteFile { file, aside };
        }
        let base = std::env::var("TEST_DATABASE_URL").unwrap();
        let admin = sqlx::AnyPool::connect(&base).await.unwrap();
        let name = url::Url::parse(&app.database_url)
            .unwrap()
            .path()
            .trim_start_matches('/')
            .to_string();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false"
        )))
        .execute(&admin)
        .await
        .unwrap();
        sqlx::query(
            "SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity \
             WHERE datname = $1 AND pid <> pg_backend_pid()",
        )
        .bind(&name)
        .fetch_all(&admin)
        .await
        .unwrap();
        Outage::Postgres { admin, name }
    }

    async fn end(self) {
        match self {
            Outage::SqliteFile { file, aside } => std::fs::rename(aside, file).unwrap(),
            Outage::Postgres { admin, name } => {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS true"
                )))
                .execute(&admin)
                .await
                .unwrap();
                admin.close().await;
            }
        }
    }
}

async fn readiness_follows_the_database(db: Database) {
    let app = TestApp::start(db).await;
    healthz_is_ok(&app).await;
    let ready = readyz_becomes(&app, 200).await;
    assert_eq!(ready["status"], "ready");

    let outage = Outage::begin(&app).await;
    let not_ready = readyz_becomes(&app, 503).await;
    assert_eq!(not_ready["status"], "not_ready");
    let reason = not_ready["reason"].as_str().unwrap();
    assert!(
        reason == "database_unreachable" || reason == "database_file_missing",
        "{not_ready}"
    );
    // Alive all the same: an orchestrator must not restart a process for
    // its database's outage.
    healthz_is_ok(&app).await;

    outage.end().await;
    let ready = readyz_becomes(&app, 200).await;
    assert_eq!(ready["status"], "ready");
}

async fn readiness_waits_for_every_migration(db: Database) {
    let app = TestApp::start(db).await;
    readyz_becomes(&app, 200).await;
    // As if the database were restored from a backup older than this build.
    let direct = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let (newest,): (i64,) = sqlx::query_as("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&direct.pool)
        .await
        .unwrap();
    let mut tx = direct.begin_write().await.unwrap();
    sqlx::query("UPDATE _sqlx_migrations SET success = false WHERE version = $1")
        .bind(newest)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let not_ready = readyz_becomes(&app, 503).await;
    assert_eq!(not_ready["reason"], "migrations_pending");
    assert_eq!(
        not_ready["detail"],
        format!("migrations not applied: {newest}")
    );

    let mut tx = direct.begin_write().await.unwrap();
    sqlx::query("UPDATE _sqlx_migrations SET success = true WHERE version = $1")
        .bind(newest)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    readyz_becomes(&app, 200).await;
}

/// The probes need no session and change no other answer: an unknown path
/// next to them is still the app's 404.
async fn probes_need_no_session_and_leave_other_answers_alone(db: Database) {
    let app = TestApp::start(db).await;
    let client = reqwest::Client::new();
    for path in ["/healthz", "/readyz"] {
        let response = client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        assert!(response.headers().get("set-cookie").is_none(), "{path}");
    }
    let response = client.get(app.url("/readyz/x")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 404);
    let response = client.post(app.url("/readyz")).send().await.unwrap();
    assert_ne!(response.status().as_u16(), 200);
}

on_both_databases!(
    readiness_follows_the_database,
    readiness_waits_for_every_migration,
    probes_need_no_session_and_leave_other_answers_alone,
);
