//! Events and stored command replies past their retention are pruned by the
//! background job (with the clock it judges age by set ahead), the recent
//! ones stay, and a tab resuming from a pruned event is told to resync while
//! one resuming from a kept one gets its missed deltas.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use backend::jobs::retention::RetentionClock;
use common::{Database, TestApp, customer_input};
use protocol::{ClientFrame, Command, Resume, ServerFrame};

on_both_databases!(old_events_and_replies_go_and_recent_ones_stay);

const DAY_MS: i64 = 24 * 3600 * 1000;

async fn create(tab: &mut common::Socket, name: &str) -> u64 {
    let input = customer_input(name, &format!("{}@example.co.za", name.to_lowercase()));
    match tab.command(name, Command::CreateCustomer { input }).await {
        ServerFrame::Reply { .. } => {}
        other => panic!("{other:?}"),
    }
    tab.next_matching(|f| matches!(f, ServerFrame::Delta { .. }))
        .await
        .seq()
}

trait Seq {
    fn seq(&self) -> u64;
}

impl Seq for ServerFrame {
    fn seq(&self) -> u64 {
        match self {
            ServerFrame::Delta { seq, .. } | ServerFrame::Welcome { seq, .. } => *seq,
            other => panic!("{other:?}"),
        }
    }
}

async fn count(db: &paydesk::store::Db, sql: &'static str, merchant_id: &str) -> i64 {
    sqlx::query_scalar(sql)
        .bind(merchant_id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

async fn resume_from(owner: &common::Browser, epoch: &str, seq: u64) -> (ServerFrame, ServerFrame) {
    let mut tab = owner.socket().await;
    tab.send(&ClientFrame::Hello {
        resume: Some(Resume {
            epoch: epoch.to_string(),
            seq,
        }),
        build: "t".into(),
        merchant_id: None,
        mode: None,
    })
    .await;
    let welcome = tab.next().await;
    (welcome, tab.next().await)
}

async fn old_events_and_replies_go_and_recent_ones_stay(db: Database) {
    let clock = RetentionClock::default();
    let app = TestApp::start_with(db, |config| {
        // One window for both, so one instant splits old from recent.
        config.event_retention_days = 2;
        config.reply_retention_hours = 48;
        config.retention_interval_seconds = 1;
        config.retention_clock = clock.clone();
    })
    .await;
    let owner = app.merchant("keep@example.co.za").await;
    let (_, merchant_id) = app.owner_ids("keep@example.co.za").await;
    let (mut tab, welcome) = owner.live().await;
    let ServerFrame::Welcome { epoch, .. } = &welcome else {
        panic!("{welcome:?}")
    };
    let epoch = epoch.clone();
    let start = welcome.seq();
    let mut old = Vec::new();
    for name in ["Old-A", "Old-B", "Old-C"] {
        old.push(create(&mut tab, name).await);
    }
    let store = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let newest_old: i64 =
        sqlx::query_scalar("SELECT MAX(created_at) FROM events WHERE merchant_id = $1")
            .bind(&merchant_id)
            .fetch_one(&store.pool)
            .await
            .unwrap();
    // The recent events are written at a later millisecond than the old.
    while paydesk::ids::now_ms() <= newest_old {
        tokio::task::yield_now().await;
    }
    let mut recent = Vec::new();
    for name in ["New-D", "New-E"] {
        recent.push(create(&mut tab, name).await);
    }
    let history_before = count(
        &store,
        "SELECT COUNT(*) FROM history_entries WHERE merchant_id = $1",
        &merchant_id,
    )
    .await;

    // Two days after the last old event: it and everything before it is past.
    clock.set(newest_old + 2 * DAY_MS + 1);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let old_events: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM events WHERE merchant_id = $1 AND created_at <= $2",
        )
        .bind(&merchant_id)
        .bind(newest_old)
        .fetch_one(&store.pool)
        .await
        .unwrap();
        if old_events == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "old events were never pruned");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let kept: Vec<i64> =
        sqlx::query_scalar("SELECT seq FROM events WHERE merchant_id = $1 ORDER BY seq")
            .bind(&merchant_id)
            .fetch_all(&store.pool)
            .await
            .unwrap();
    assert_eq!(
        kept,
        recent.iter().map(|s| *s as i64).collect::<Vec<_>>(),
        "only the recent events stay"
    );
    // The replies are pruned in the same round, after the events.
    let deadline = Instant::now() + Duration::from_secs(60);
    let replies: Vec<String> = loop {
        let replies: Vec<String> = sqlx::query_scalar(
            "SELECT command_id FROM command_results WHERE merchant_id = $1 ORDER BY command_id",
        )
        .bind(&merchant_id)
        .fetch_all(&store.pool)
        .await
        .unwrap();
        if replies.len() <= 2 {
            break replies;
        }
        assert!(Instant::now() < deadline, "old replies were never pruned");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(replies, ["New-D", "New-E"], "only the recent replies stay");
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM history_entries WHERE merchant_id = $1",
            &merchant_id,
        )
        .await,
        history_before,
        "the account history is not pruned"
    );

    // Resuming from before the pruned events: resync.
    let last = *recent.last().unwrap();
    let (welcome, next) = resume_from(&owner, &epoch, start).await;
    assert_eq!(welcome.seq(), last);
    assert_eq!(
        next,
        ServerFrame::Resync {
            epoch: epoch.clone(),
            seq: last
        }
    );
    // Resuming from a kept event: the missed deltas.
    let (_, next) = resume_from(&owner, &epoch, recent[0]).await;
    assert!(
        matches!(next, ServerFrame::Delta { seq, .. } if seq == last),
        "{next:?}"
    );
}
