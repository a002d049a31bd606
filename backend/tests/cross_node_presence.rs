//! Presence across two server processes on one PostgreSQL database: a
//! teammate whose tab is on the other node is listed (path and editing
//! marker included), leaves when their tab closes, and disappears when their
//! node is killed without a goodbye, once its announcements expire. Nothing
//! of one merchant's presence reaches another merchant's tabs.
//! (SQLite serves one node: there is no other node to hear from.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use common::server_process::ServerProcess;
use common::{Browser, Database, Socket, is_presence};
use paydesk::auth::keys::ServerKey;
use protocol::{ClientFrame, Mode, PresenceMember, ServerFrame};

const PASSWORD: &str = "karoo-sunset-41";
/// How long a tab waits for each next frame. Generous: a killed node's
/// people leave only after the expiry (30 s).
const PATIENCE: Duration = Duration::from_secs(90);
const RECORD: &str = "/customers/cus_1";

/// What one tab knows of who is online, from the frames it got, and
/// everyone it was ever told of.
#[derive(Default)]
struct Tab {
    people: BTreeMap<String, PresenceMember>,
    ever: BTreeSet<String>,
}

impl Tab {
    fn apply(&mut self, frame: &ServerFrame) {
        match frame {
            ServerFrame::Presence { members } => {
                self.people = members
                    .iter()
                    .map(|m| (m.user_id.clone(), m.clone()))
                    .collect();
            }
            ServerFrame::PresenceChanged {
                joined,
                moved,
                left,
            } => {
                for person in joined.iter().chain(moved) {
                    self.people.insert(person.user_id.clone(), person.clone());
                }
                for user_id in left {
                    self.people.remove(user_id);
                }
            }
            _ => return,
        }
        self.ever.extend(self.people.keys().cloned());
    }

    /// Reads frames until the list is `truth` (other frames, such as the
    /// deltas of sign-in history, are passed over).
    async fn converge(&mut self, socket: &mut Socket, truth: &[PresenceMember]) {
        let truth: BTreeMap<String, PresenceMember> = truth
            .iter()
            .map(|m| (m.user_id.clone(), m.clone()))
            .collect();
        // One deadline for the whole wait: frames that keep arriving (pings,
        // other presence) must not stretch it.
        let deadline = std::time::Instant::now() + PATIENCE;
        while self.people != truth {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let frame = socket.next_within(left).await.unwrap_or_else(|e| {
                panic!(
                    "list never became {truth:?}: {e:?}; it is {:?}",
                    self.people
                )
            });
            if is_presence(&frame) {
                self.apply(&frame);
            }
        }
    }
}

fn person(user_id: &str, name: &str, viewing: &[&str], editing: &[&str]) -> PresenceMember {
    PresenceMember {
        user_id: user_id.into(),
        name: name.into(),
        viewing: viewing.iter().map(|p| p.to_string()).collect(),
        editing: editing.iter().map(|p| p.to_string()).collect(),
    }
}

async fn node(dir: &std::path::Path, url: &str, key: &str, run: usize) -> ServerProcess {
    let env = [("SECRET_KEY", key), ("SIGNUP_LIMIT_PER_ADDRESS", "100")];
    ServerProcess::start(dir, url, run, &env).await
}

/// Signs `name` up on `server`; returns the jar (valid on both nodes: the
/// session lives in the database), the user id and their own merchant's id.
async fn sign_up(
    server: &ServerProcess,
    db: &paydesk::store::Db,
    name: &str,
    email: &str,
    business: &str,
) -> (Arc<reqwest::cookie::Jar>, String, String) {
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let response = server
        .browser(&jar)
        .sign_up(name, email, PASSWORD, business)
        .await;
    assert_eq!(response.status(), 200, "sign-up of {email}");
    let ids: (String, String) = sqlx::query_as(
        "SELECT u.id, m.merchant_id FROM users u JOIN memberships m ON m.user_id = u.id \
         WHERE u.email = $1",
    )
    .bind(email)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    (jar, ids.0, ids.1)
}

/// A welcomed tab of `browser` on `merchant_id` (test mode), on `path`.
async fn tab(browser: &Browser, merchant_id: &str, path: &str, editing: bool) -> Socket {
    let (mut socket, _) = common::members::on_merchant(browser, merchant_id, Mode::Test).await;
    socket
        .send(&ClientFrame::Presence {
            viewing: Some(path.into()),
            editing: editing.then(|| path.into()),
        })
        .await;
    socket
}

#[tokio::test(flavor = "multi_thread")]
async fn presence_crosses_nodes_and_a_dead_node_leaves_no_ghosts() {
    let Some(Database::Postgres(base)) = Database::postgres() else {
        return eprintln!("TEST_DATABASE_URL is not set: two nodes need PostgreSQL; skipped");
    };
    let url = common::fresh_postgres_database(&base).await;
    let key = ServerKey::generate().unwrap().to_hex();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = node(dir_a.path(), &url, &key, 1).await;
    let mut b = node(dir_b.path(), &url, &key, 2).await;
    let db = paydesk::store::Db::connect(&url).await.unwrap();

    let (thandi_jar, thandi, merchant) =
        sign_up(&a, &db, "Thandi Nkosi", "thandi@karoo.co.za", "Karoo Gym").await;
    let (sipho_jar, sipho, _) =
        sign_up(&a, &db, "Sipho Dlamini", "sipho@karoo.co.za", "Sipho's Own").await;
    let (lerato_jar, lerato, other_merchant) = sign_up(
        &a,
        &db,
        "Lerato Mokoena",
        "lerato@kaap.co.za",
        "Kaap Bakery",
    )
    .await;
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, created_at) VALUES ($1, $2, 'admin', $3)",
    )
    .bind(&merchant)
    .bind(&sipho)
    .bind(paydesk::ids::now_ms())
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    // (d) Another merchant's team on both nodes: it sees only its own.
    let lerato_path = "/payments/one-time";
    let (mut lerato_a, mut lerato_seen) = (
        tab(
            &a.browser(&lerato_jar),
            &other_merchant,
            "/customers",
            false,
        )
        .await,
        Tab::default(),
    );
    let lerato_b = tab(&b.browser(&lerato_jar), &other_merchant, lerato_path, false).await;
    lerato_seen
        .converge(
            &mut lerato_a,
            &[person(
                &lerato,
                "Lerato Mokoena",
                &["/customers", lerato_path],
                &[],
            )],
        )
        .await;

    // (a) Thandi on node A, Sipho on node B, on the same record; Sipho has
    // its form open.
    let mut thandi_tab = tab(&a.browser(&thandi_jar), &merchant, RECORD, false).await;
    let mut sipho_tab = tab(&b.browser(&sipho_jar), &merchant, RECORD, true).await;
    let (mut thandi_seen, mut sipho_seen) = (Tab::default(), Tab::default());
    let thandi_there = person(&thandi, "Thandi Nkosi", &[RECORD], &[]);
    let sipho_editing = person(&sipho, "Sipho Dlamini", &[RECORD], &[RECORD]);
    let both = [thandi_there.clone(), sipho_editing.clone()];
    thandi_seen.converge(&mut thandi_tab, &both).await;
    sipho_seen.converge(&mut sipho_tab, &both).await;

    // The form closes on B: the marker goes on A too.
    sipho_tab
        .send(&ClientFrame::Presence {
            viewing: Some(RECORD.into()),
            editing: None,
        })
        .await;
    let sipho_viewing = person(&sipho, "Sipho Dlamini", &[RECORD], &[]);
    thandi_seen
        .converge(
            &mut thandi_tab,
            &[thandi_there.clone(), sipho_viewing.clone()],
        )
        .await;

    // (b) Sipho closes his tab on B: A's tab sees him leave.
    drop(sipho_tab);
    thandi_seen
        .converge(&mut thandi_tab, std::slice::from_ref(&thandi_there))
        .await;

    // (c) He opens one again on B, then B dies without a goodbye: A's tab
    // sees him go once B's announcements expire.
    let _sipho_again = tab(&b.browser(&sipho_jar), &merchant, RECORD, false).await;
    thandi_seen
        .converge(&mut thandi_tab, &[thandi_there.clone(), sipho_viewing])
        .await;
    b.kill();
    thandi_seen
        .converge(&mut thandi_tab, std::slice::from_ref(&thandi_there))
        .await;

    // (d) Lerato's tab on A lost her tab on B the same way, and was never
    // told of anyone of the other merchant.
    drop(lerato_b);
    lerato_seen
        .converge(
            &mut lerato_a,
            &[person(&lerato, "Lerato Mokoena", &["/customers"], &[])],
        )
        .await;
    assert_eq!(lerato_seen.ever, BTreeSet::from([lerato.clone()]));
    assert_eq!(thandi_seen.ever, BTreeSet::from([thandi, sipho]));
    drop(a);
}
