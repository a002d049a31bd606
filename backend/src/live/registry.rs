//! Finds or starts the merchant actor of a stream, and tells it of events
//! written elsewhere.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use actix::prelude::*;
use paydesk::domain::clock::BusinessClock;
use paydesk::store::Db;
use paydesk::store::stream::StreamKey;

use super::cross_node::{self, NodeLink};
use super::merchant::MerchantActor;
use super::messages::{Advance, Stop};

/// A merchant actor's address, shared. Each clone of an `Addr` allocates a
/// sender of its own, and every socket joined to the stream holds one.
pub type MerchantAddr = Arc<Addr<MerchantActor>>;

/// `Default` has no origin: for tools whose scheduler mails no links.
#[derive(Default)]
pub struct MerchantRegistry {
    actors: Mutex<HashMap<StreamKey, MerchantAddr>>,
    /// The server's public origin, for links in mail the scheduler sends.
    origin: String,
    /// On PostgreSQL: this node's identity towards the other nodes, with
    /// which its actors share presence.
    link: Option<Arc<NodeLink>>,
}

impl MerchantRegistry {
    pub fn new(origin: String) -> MerchantRegistry {
        MerchantRegistry {
            actors: Mutex::default(),
            origin,
            link: None,
        }
    }

    /// Shares presence with the other nodes of `db` (PostgreSQL only).
    pub fn linked(mut self, db: &Db) -> MerchantRegistry {
        self.link = NodeLink::for_db(db);
        self
    }

    /// The running actor for `key`, if this node has one.
    pub fn running(&self, key: &StreamKey) -> Option<MerchantAddr> {
        let actors = self
            .actors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        actors.get(key).filter(|addr| addr.connected()).cloned()
    }

    /// The running actor for `key`, or a new one. An actor that stopped (idle)
    /// is replaced.
    pub fn actor_for(&self, key: StreamKey, db: &Db, clock: BusinessClock) -> MerchantAddr {
        let mut actors = self
            .actors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(addr) = actors.get(&key).filter(|addr| addr.connected()) {
            return addr.clone();
        }
        let addr = Arc::new(
            MerchantActor::new(key.clone(), db.clone(), clock, self.origin.clone())
                .linked(self.link.clone())
                .start(),
        );
        actors.insert(key, addr.clone());
        addr
    }

    /// Stops every merchant actor of this node once its work in hand is
    /// done, and waits for that: shutdown then cuts no transaction.
    pub async fn stop_all(&self) {
        let actors: Vec<MerchantAddr> = {
            let mut actors = self
                .actors
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            actors.drain().map(|(_, addr)| addr).collect()
        };
        for actor in actors {
            // An actor that stopped already has nothing to finish.
            let _ = actor.send(Stop).await;
        }
    }

    /// An event up to `seq` was committed on the stream outside its actor
    /// (a scheduler round, an import batch, the pay page, another node):
    /// this node's tabs of the stream hear of it. No actor means no tab.
    pub fn advance(&self, key: &StreamKey, seq: u64) {
        if let Some(actor) = self.running(key) {
            actor.do_send(Advance { seq });
        }
    }

    /// Another node announced its people on a stream (a `merchant_presence`
    /// payload): this node's actor of the stream merges them, if it runs.
    /// No actor means no tab to show them to. This node's own
    /// announcements come back too and are dropped here.
    pub fn remote_presence(&self, payload: &str) {
        let Some(link) = &self.link else {
            return;
        };
        let Some((key, msg)) = cross_node::parse(payload) else {
            tracing::warn!("unreadable presence announcement from another node");
            return;
        };
        if msg.node_id == link.node_id() {
            return;
        }
        if let Some(actor) = self.running(&key) {
            actor.do_send(msg);
        }
    }
}

/// Sends an entry of a member's account (a sign-in, a failed sign-in, a
/// two-factor change) to the open history screens of every merchant they
/// belong to. It is already recorded: a failure here only costs the live
/// update, so it is logged, never answered to the user.
pub async fn announce_account(
    db: &paydesk::store::Db,
    registry: &MerchantRegistry,
    entry: &protocol::HistoryEntry,
) {
    match paydesk::domain::history::announce_account(db, entry).await {
        Ok(announced) => {
            for (key, seq) in announced {
                registry.advance(&key, seq);
            }
        }
        Err(err) => tracing::warn!(error = %err, "cannot announce an account's history entry"),
    }
}
