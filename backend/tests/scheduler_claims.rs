//! Two scheduler instances (two nodes) on one PostgreSQL database: running a
//! round at the same moment, each stream is claimed and played by one of
//! them only, and every business day is played exactly once; when one node
//! stops, the other takes its streams over once their leases run out.
//! (SQLite serves one node, so there is no other node to share with.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support;
use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use backend::jobs::scheduler::Scheduler;
use backend::live::registry::MerchantRegistry;
use collection_support::{customer, monthly_debicheck, running};
use common::{Database, TestApp, committed_id};
use paydesk::domain::clock::BusinessClock;
use paydesk::store::Db;
use paydesk::store::stream::StreamKey;
use protocol::{Change, Command, Mode};
use time::macros::date;

const MERCHANTS: usize = 4;
const LEASE: Duration = Duration::from_secs(90);

async fn node(url: &str, holder: &str, today: time::Date) -> Scheduler {
    Scheduler {
        db: Db::connect(url).await.unwrap(),
        registry: Arc::new(MerchantRegistry::new("http://127.0.0.1".into())),
        clock: BusinessClock::new(Some(today)),
        origin: "http://127.0.0.1".into(),
        holder: holder.into(),
        lease: LEASE,
    }
}

/// Every day each stream's scheduler played, with how many times.
async fn days_played(db: &Db, key: &StreamKey) -> BTreeMap<String, usize> {
    let rows: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT changes FROM events WHERE merchant_id = $1 AND mode = $2 ORDER BY seq",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .fetch_all(&db.pool)
    .await
    .unwrap();
    let mut days = BTreeMap::new();
    for bytes in rows {
        let changes: Vec<Change> = protocol::decode(&bytes).unwrap();
        for change in changes {
            if let Change::ClockAdvanced { today } = change {
                *days.entry(today).or_insert(0) += 1;
            }
        }
    }
    days
}

fn days_between(first: u8, last: u8) -> Vec<String> {
    (first..=last).map(|d| format!("2026-03-{d:02}")).collect()
}

#[actix_web::test]
async fn two_nodes_share_the_streams_and_one_takes_over_the_others() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        return eprintln!("TEST_DATABASE_URL is not set: two nodes need PostgreSQL; skipped");
    };
    let url = common::fresh_postgres_database(&base).await;
    // The app's own scheduler waits an hour: only the two below play.
    let app = TestApp::start_at_with(&url, |config| {
        config.business_date = Some(date!(2026 - 03 - 02));
        config.scheduler_interval_seconds = 3600;
    })
    .await;
    let mut keys = HashSet::new();
    for i in 0..MERCHANTS {
        let email = format!("gym{i}@example.co.za");
        let owner = app.merchant(&email).await;
        let mut tab = owner.open(Mode::Test).await;
        let customer_id = customer(&mut tab).await;
        let input = monthly_debicheck(&customer_id, &format!("400000000{i}"), &format!("GYM{i}"));
        let payment_id = committed_id(
            tab.command(
                "pay",
                Command::CreatePayment {
                    input: Box::new(input),
                },
            )
            .await,
        );
        running(&mut tab, &payment_id).await;
        let (_, merchant_id) = app.owner_ids(&email).await;
        keys.insert(StreamKey::new(merchant_id, Mode::Test));
    }

    // Both nodes' rounds at once, with 18 days to play on each stream.
    let a = node(&url, "node-a", date!(2026 - 03 - 20)).await;
    let b = node(&url, "node-b", date!(2026 - 03 - 20)).await;
    let now = paydesk::ids::now_ms();
    let (played_a, played_b) = tokio::join!(a.round(now), b.round(now));
    let (played_a, played_b) = (played_a.unwrap(), played_b.unwrap());
    let set_a: HashSet<_> = played_a.iter().cloned().collect();
    let set_b: HashSet<_> = played_b.iter().cloned().collect();
    assert!(
        set_a.is_disjoint(&set_b),
        "a stream played by both nodes: {set_a:?} {set_b:?}"
    );
    assert_eq!(
        set_a.union(&set_b).cloned().collect::<HashSet<_>>(),
        keys,
        "every stream is played by one node"
    );
    let db = Db::connect(&url).await.unwrap();
    for key in &keys {
        let days = days_played(&db, key).await;
        for day in days_between(3, 20) {
            assert_eq!(days.get(&day), Some(&1), "{day} of {key:?}: {days:?}");
        }
    }

    // A second round of both: each keeps its own streams, none changes hands.
    let (again_a, again_b) = tokio::join!(a.round(now + 1_000), b.round(now + 1_000));
    assert_eq!(again_a.unwrap().into_iter().collect::<HashSet<_>>(), set_a);
    assert_eq!(again_b.unwrap().into_iter().collect::<HashSet<_>>(), set_b);

    // One node stops (the one holding streams: the rounds may have split
    // them either way). Five days on, the other plays its own streams and
    // leaves the stopped node's while their leases last...
    let (stopped, (survivor, kept)) = if set_a.is_empty() {
        (set_b, ("node-a", set_a))
    } else {
        (set_a, ("node-b", set_b))
    };
    drop((a, b));
    let survivor = node(&url, survivor, date!(2026 - 03 - 25)).await;
    let before_expiry = now + 2_000;
    let played: HashSet<_> = survivor
        .round(before_expiry)
        .await
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(played, kept, "the other node's leases are left alone");
    for key in &stopped {
        let days = days_played(&db, key).await;
        assert!(
            !days.contains_key("2026-03-21"),
            "{key:?} played while held"
        );
    }
    // ...and once they have run out, takes them over.
    let after_expiry = now + 1_000 + LEASE.as_millis() as i64 + 1;
    let played: HashSet<_> = survivor
        .round(after_expiry)
        .await
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(played, keys, "the stopped node's streams are taken over");
    for key in &keys {
        let days = days_played(&db, key).await;
        for day in days_between(3, 25) {
            assert_eq!(days.get(&day), Some(&1), "{day} of {key:?}: {days:?}");
        }
    }
}
