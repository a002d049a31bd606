//! Presence across nodes (PostgreSQL only). Presence is not merchant data:
//! it is never written to the event stream (so never in history, webhooks
//! or resume). Instead each node's merchant actor tells the other nodes who
//! of the stream's team is on this node, with NOTIFY on `PRESENCE_CHANNEL`,
//! and merges what the other nodes tell it into what its own tabs see.
//!
//! - An actor publishes its node's people when they change (on the same
//!   coalesced flush that tells its tabs), and again every `ANNOUNCE_EVERY`
//!   while it has people, so a missed message is made good.
//! - Another node's people expire `REMOTE_EXPIRY` after that node last spoke
//!   of the stream: a node killed without a goodbye leaves no ghosts.
//! - On a graceful shutdown each actor that announced people says goodbye
//!   (an empty announcement).
//! - A new actor says hello (an empty announcement asking for replies):
//!   the nodes with people on the stream answer at their next flush, so the
//!   first tab on this node sees its teammates elsewhere within a flush or
//!   two rather than up to `ANNOUNCE_EVERY` later. A hello costs one small
//!   message per actor start, which is rare (actors live while tabs are open).
//!
//! Messages are ordered per node by a counter: an older one arriving after
//! a newer one (they are sent from separate tasks) is ignored.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use actix::prelude::*;
use paydesk::store::stream::StreamKey;
use paydesk::store::{Backend, Db};
use protocol::{Mode, PresenceMember};
use serde::{Deserialize, Serialize};

use super::presence::{PEOPLE_LIMIT, PresenceView, tidy_paths};

/// The NOTIFY channel presence crosses nodes on (deltas use `merchant_events`).
pub const PRESENCE_CHANNEL: &str = "merchant_presence";
/// How often a node re-announces the people it has on a stream.
pub const ANNOUNCE_EVERY: Duration = Duration::from_secs(10);
/// How long another node's people stay listed after it last spoke: three
/// missed announcements.
pub const REMOTE_EXPIRY: Duration = Duration::from_secs(30);
/// PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. Past this
/// the last people (by user id) are left out of the announcement: they are
/// still listed on their own node, only the other nodes do not see them.
const PAYLOAD_LIMIT: usize = 7_800;

/// This node's identity on the presence channel, and where it publishes.
pub struct NodeLink {
    node_id: String,
    db: Db,
    /// Orders this node's messages (see the module comment).
    counter: AtomicU64,
}

impl NodeLink {
    /// A link with a fresh random node id, on PostgreSQL only: SQLite
    /// serves one node, which has nobody to tell.
    pub fn for_db(db: &Db) -> Option<Arc<NodeLink>> {
        (db.backend == Backend::Postgres).then(|| {
            Arc::new(NodeLink {
                node_id: paydesk::ids::new_id("node"),
                db: db.clone(),
                counter: AtomicU64::new(0),
            })
        })
    }

    pub fn node_id(&self) -> &str {
        &self.node_id
    }

    /// The announcement of `people` on `key`, at most `PAYLOAD_LIMIT` long.
    fn message(&self, key: &StreamKey, hello: bool, people: &PresenceView) -> String {
        let mut wire = Wire {
            n: self.node_id.clone(),
            s: self.counter.fetch_add(1, Ordering::Relaxed) + 1,
            m: key.merchant_id.clone(),
            o: key.mode.as_str().to_string(),
            h: hello,
            p: people
                .values()
                .take(PEOPLE_LIMIT)
                .map(|p| {
                    (
                        p.user_id.clone(),
                        p.name.clone(),
                        p.viewing.clone(),
                        p.editing.clone(),
                    )
                })
                .collect(),
        };
        loop {
            let text = serde_json::to_string(&wire).unwrap_or_default();
            if text.len() <= PAYLOAD_LIMIT || wire.p.is_empty() {
                return text;
            }
            wire.p.pop();
        }
    }

    /// Publishes an announcement. A failure costs only this announcement:
    /// the next one (at most `ANNOUNCE_EVERY` later) makes it good.
    async fn publish(db: Db, payload: String) {
        let sent = sqlx::query("SELECT pg_notify($1, $2)")
            .bind(PRESENCE_CHANNEL)
            .bind(payload)
            .execute(&db.pool)
            .await;
        if let Err(err) = sent {
            tracing::warn!(error = %err, "cannot announce presence to the other nodes");
        }
    }
}

/// The compact form on the channel: short keys, people as arrays.
#[derive(Serialize, Deserialize)]
struct Wire {
    /// The node that speaks.
    n: String,
    /// Its counter.
    s: u64,
    m: String,
    o: String,
    /// Hello: please announce your people on this stream.
    #[serde(default)]
    h: bool,
    /// Its people: user id, name, viewing, editing.
    p: Vec<(String, String, Vec<String>, Vec<String>)>,
}

/// Another node's people on a stream, handed to this node's actor of it.
#[derive(Message, Debug)]
#[rtype(result = "()")]
pub struct RemotePresence {
    pub node_id: String,
    counter: u64,
    hello: bool,
    people: PresenceView,
}

/// Reads an announcement back: the stream it is about and what it says.
pub fn parse(payload: &str) -> Option<(StreamKey, RemotePresence)> {
    let wire: Wire = serde_json::from_str(payload).ok()?;
    let mode = Mode::parse(&wire.o)?;
    let people = wire
        .p
        .into_iter()
        .take(PEOPLE_LIMIT)
        .map(|(user_id, name, viewing, editing)| {
            let member = PresenceMember {
                user_id: user_id.clone(),
                name,
                viewing,
                editing,
            };
            (user_id, member)
        })
        .collect();
    Some((
        StreamKey::new(wire.m, mode),
        RemotePresence {
            node_id: wire.n,
            counter: wire.s,
            hello: wire.h,
            people,
        },
    ))
}

struct RemoteNode {
    counter: u64,
    heard: Instant,
    people: PresenceView,
}

/// A merchant actor's side of cross-node presence.
pub struct CrossNode {
    link: Arc<NodeLink>,
    remote: HashMap<String, RemoteNode>,
    /// What this node last told the others of the stream.
    published: PresenceView,
    /// Another node said hello: answer at the next flush.
    reply_due: bool,
}

impl CrossNode {
    pub fn new(link: Arc<NodeLink>) -> CrossNode {
        CrossNode {
            link,
            remote: HashMap::new(),
            published: PresenceView::new(),
            reply_due: false,
        }
    }

    fn send(&self, key: &StreamKey, hello: bool, people: &PresenceView) {
        let payload = self.link.message(key, hello, people);
        actix::spawn(NodeLink::publish(self.link.db.clone(), payload));
    }

    /// The actor started: ask the other nodes for their people now.
    pub fn hello(&self, key: &StreamKey) {
        self.send(key, true, &PresenceView::new());
    }

    /// At each presence flush: tells the other nodes of this node's people
    /// if they changed since the last announcement (or a hello asks).
    pub fn flushed(&mut self, key: &StreamKey, local: &PresenceView) {
        if self.published != *local || (self.reply_due && !local.is_empty()) {
            self.send(key, false, local);
            self.published = local.clone();
        }
        self.reply_due = false;
    }

    /// Every `ANNOUNCE_EVERY`: this node is still here with these people.
    pub fn reannounce(&mut self, key: &StreamKey) {
        if !self.published.is_empty() {
            self.send(key, false, &self.published);
        }
    }

    /// The goodbye of a graceful shutdown, if this node announced anyone:
    /// awaited, so it leaves before the process does.
    pub fn goodbye(&mut self, key: &StreamKey) -> Option<impl Future<Output = ()> + use<>> {
        if self.published.is_empty() {
            return None;
        }
        self.published.clear();
        let payload = self.link.message(key, false, &PresenceView::new());
        Some(NodeLink::publish(self.link.db.clone(), payload))
    }

    /// Takes another node's announcement; returns whether a flush is due
    /// (what the tabs see may have changed, or a hello wants an answer). Our own messages come back on the channel too
    /// and are ignored, as are older ones than the last heard.
    pub fn receive(&mut self, msg: RemotePresence) -> bool {
        if msg.node_id == self.link.node_id {
            return false;
        }
        // A hello is answered at the next flush, which it therefore asks for.
        let hello = msg.hello;
        self.reply_due |= hello;
        if let Some(known) = self.remote.get(&msg.node_id)
            && known.counter >= msg.counter
        {
            return hello;
        }
        if msg.people.is_empty() {
            return self.remote.remove(&msg.node_id).is_some() || hello;
        }
        let changed = self
            .remote
            .get(&msg.node_id)
            .is_none_or(|known| known.people != msg.people);
        self.remote.insert(
            msg.node_id,
            RemoteNode {
                counter: msg.counter,
                heard: Instant::now(),
                people: msg.people,
            },
        );
        changed || hello
    }

    /// Forgets the nodes not heard from within `REMOTE_EXPIRY`; returns
    /// whether any had people.
    pub fn expire(&mut self, now: Instant) -> bool {
        let before = self.remote.len();
        self.remote
            .retain(|_, node| now.duration_since(node.heard) < REMOTE_EXPIRY);
        self.remote.len() != before
    }

    /// This node's people with the other nodes': a person on several nodes
    /// is one entry with their tabs' paths together, capped as on one node.
    pub fn merged(&self, local: PresenceView) -> PresenceView {
        if self.remote.is_empty() {
            return local;
        }
        let mut people = local;
        for node in self.remote.values() {
            for (user_id, person) in &node.people {
                match people.get_mut(user_id) {
                    Some(known) => {
                        known.viewing.extend(person.viewing.iter().cloned());
                        known.editing.extend(person.editing.iter().cloned());
                    }
                    None => {
                        people.insert(user_id.clone(), person.clone());
                    }
                }
            }
        }
        while people.len() > PEOPLE_LIMIT {
            people.pop_last();
        }
        for person in people.values_mut() {
            tidy_paths(person);
        }
        people
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::live::presence::PATHS_LIMIT;

    fn person(user_id: &str, viewing: &[&str], editing: &[&str]) -> PresenceMember {
        PresenceMember {
            user_id: user_id.into(),
            name: format!("Name of {user_id}"),
            viewing: viewing.iter().map(|p| p.to_string()).collect(),
            editing: editing.iter().map(|p| p.to_string()).collect(),
        }
    }

    fn view(people: &[PresenceMember]) -> PresenceView {
        people
            .iter()
            .map(|p| (p.user_id.clone(), p.clone()))
            .collect()
    }

    fn wire(node: &str, counter: u64, people: &PresenceView) -> String {
        serde_json::to_string(&Wire {
            n: node.into(),
            s: counter,
            m: "mer_1".into(),
            o: "test".into(),
            h: false,
            p: people
                .values()
                .map(|p| {
                    (
                        p.user_id.clone(),
                        p.name.clone(),
                        p.viewing.clone(),
                        p.editing.clone(),
                    )
                })
                .collect(),
        })
        .unwrap()
    }

    /// A cross-node board whose link is never used to publish here: only
    /// its node id matters.
    async fn board() -> (CrossNode, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let link = NodeLink {
            node_id: "node_here".into(),
            db: Db::connect(&url).await.unwrap(),
            counter: AtomicU64::new(0),
        };
        (CrossNode::new(Arc::new(link)), dir)
    }

    #[actix_web::test]
    async fn announcements_round_trip_and_stay_under_the_notify_limit() {
        let key = StreamKey::new("mer_1", Mode::Test);
        let (cross, _dir) = board().await;
        let small = view(&[person("u1", &["/customers"], &["/customers/cus_1"])]);
        let (parsed_key, msg) = parse(&cross.link.message(&key, true, &small)).unwrap();
        assert_eq!(parsed_key, key);
        assert_eq!(msg.people, small);
        assert!(msg.hello);
        assert_eq!(msg.node_id, "node_here");

        let long_path = format!("/customers/{}", "x".repeat(200));
        let paths: Vec<&str> = vec![long_path.as_str(); PATHS_LIMIT];
        let crowd: Vec<PresenceMember> = (0..PEOPLE_LIMIT)
            .map(|i| person(&format!("u{i:04}"), &paths, &paths))
            .collect();
        let text = cross.link.message(&key, false, &view(&crowd));
        assert!(text.len() <= PAYLOAD_LIMIT, "{} bytes", text.len());
        let (_, msg) = parse(&text).unwrap();
        assert!(!msg.people.is_empty());
        assert!(msg.people.contains_key("u0000"), "the first by id are kept");
    }

    #[actix_web::test]
    async fn remote_people_merge_once_and_older_messages_are_ignored() {
        let (mut cross, _dir) = board().await;
        let local = view(&[person("u1", &["/payments"], &[])]);
        let theirs = view(&[
            person("u1", &["/customers"], &["/customers/cus_1"]),
            person("u2", &["/customers/cus_1"], &[]),
        ]);
        let (_, msg) = parse(&wire("node_there", 5, &theirs)).unwrap();
        assert!(cross.receive(msg));
        let merged = cross.merged(local.clone());
        assert_eq!(merged.len(), 2, "a person on two nodes is listed once");
        assert_eq!(merged["u1"].viewing, vec!["/customers", "/payments"]);
        assert_eq!(merged["u1"].editing, vec!["/customers/cus_1"]);

        let (_, stale) = parse(&wire("node_there", 4, &PresenceView::new())).unwrap();
        assert!(!cross.receive(stale), "an older message changes nothing");
        let (_, own) = parse(&wire("node_here", 9, &PresenceView::new())).unwrap();
        assert!(!cross.receive(own), "our own messages are ignored");
        assert_eq!(cross.merged(local.clone()).len(), 2);

        let (_, bye) = parse(&wire("node_there", 6, &PresenceView::new())).unwrap();
        assert!(cross.receive(bye));
        assert_eq!(cross.merged(local.clone()), local);
    }

    #[actix_web::test]
    async fn silent_nodes_expire() {
        let (mut cross, _dir) = board().await;
        let theirs = view(&[person("u2", &[], &[])]);
        let (_, msg) = parse(&wire("node_there", 1, &theirs)).unwrap();
        assert!(cross.receive(msg));
        let now = Instant::now();
        assert!(!cross.expire(now));
        assert!(cross.expire(now + REMOTE_EXPIRY));
        assert!(cross.merged(PresenceView::new()).is_empty());
    }
}
