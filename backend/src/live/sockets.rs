//! The open sockets of this node: by browser session, so that signing out
//! closes them at once; counted by user, so one account cannot hold an
//! unbounded number; all of them, so shutdown closes each one properly.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use paydesk::store::{Db, sessions};

use super::messages::{Outbound, Outbox, SocketId};

/// Close code sent when the session behind a socket ended.
pub const SIGNED_OUT: u16 = 4001;
/// Close code sent when the user already has as many sockets as allowed on
/// this node; the web app shows a message instead of reconnecting.
pub const TOO_MANY_SOCKETS: u16 = 4002;
/// Close code sent to a member's sockets for a merchant whose team they
/// were removed from; the web app opens another of their merchants.
pub const REMOVED: u16 = 4003;
/// Close code sent when the user belongs to no merchant's team at all (the
/// last one removed them): the web app says so instead of reconnecting.
pub const NO_TEAM: u16 = 4005;
/// Close code sent when a Hello names a merchant whose team the user is not
/// on (an old or a passed-on link): the web app says so and opens one of
/// their own.
pub const NOT_ON_TEAM: u16 = 4006;
/// Close code sent to every socket when the server shuts down (1001, going
/// away): browsers reconnect at once, to another node or the restarted one.
pub const GOING_AWAY: u16 = 1001;

/// How often the node looks for silent sockets: one pass over all of them,
/// so an idle socket has no timer of its own waking the server.
pub const HEARTBEAT: Duration = Duration::from_secs(10);
/// A socket silent this long is pinged. Longer than the web app's own ping
/// (every 20 s): an open tab's pings already show it is there, so it is
/// never pinged back, and an idle tab costs one frame each way per 20 s.
pub const PING_WHEN_SILENT: Duration = Duration::from_secs(25);

/// When a socket last heard from its client: set by the socket on every
/// frame, read by the node's heartbeat pass. Milliseconds on one process-wide
/// monotonic clock, so that an atomic holds it.
pub struct LastHeard(AtomicU64);

impl LastHeard {
    pub fn now() -> Arc<LastHeard> {
        Arc::new(LastHeard(AtomicU64::new(clock_ms())))
    }

    pub fn touch(&self) {
        self.0.store(clock_ms(), Ordering::Relaxed);
    }

    pub fn silent_for(&self) -> Duration {
        Duration::from_millis(clock_ms().saturating_sub(self.0.load(Ordering::Relaxed)))
    }
}

fn clock_ms() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    let elapsed = START.get_or_init(Instant::now).elapsed().as_millis();
    u64::try_from(elapsed).unwrap_or(u64::MAX)
}

/// One open socket. Its ids and outbox are the session actor's own, shared:
/// the registry adds no copy of them.
struct Open {
    user_id: Arc<str>,
    outbox: Outbox,
    heard: Arc<LastHeard>,
}

#[derive(Default)]
struct Sockets {
    /// By session token hash, then by socket id.
    by_session: HashMap<Arc<str>, HashMap<SocketId, Open>>,
    per_user: HashMap<Arc<str>, usize>,
    shutting_down: bool,
}

/// Why a socket was not admitted.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The user has `limit` sockets open on this node already.
    TooMany {
        limit: usize,
    },
    ShuttingDown,
}

pub struct SocketRegistry {
    per_user_limit: usize,
    sockets: Mutex<Sockets>,
}

impl SocketRegistry {
    pub fn new(per_user_limit: usize) -> SocketRegistry {
        SocketRegistry {
            per_user_limit,
            sockets: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Sockets> {
        self.sockets.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Admits a socket, unless its user is at the limit or the node is
    /// stopping. Checked and counted under one lock, so tabs opening at the
    /// same moment cannot slip past the limit together.
    ///
    /// A browser's tabs share its session, and a user's sessions their user
    /// id: `token_hash` and `user_id` are swapped for the copies the registry
    /// already holds, so each is kept once however many tabs are open.
    pub fn add(
        &self,
        token_hash: &mut Arc<str>,
        user_id: &mut Arc<str>,
        socket_id: &SocketId,
        outbox: Outbox,
        heard: Arc<LastHeard>,
    ) -> Result<(), Refused> {
        let mut sockets = self.lock();
        if sockets.shutting_down {
            return Err(Refused::ShuttingDown);
        }
        let open = match sockets.per_user.get_key_value(&**user_id) {
            Some((held, open)) => {
                *user_id = held.clone();
                *open
            }
            None => 0,
        };
        if open >= self.per_user_limit {
            return Err(Refused::TooMany {
                limit: self.per_user_limit,
            });
        }
        if let Some((held, _)) = sockets.by_session.get_key_value(&**token_hash) {
            *token_hash = held.clone();
        }
        sockets.per_user.insert(user_id.clone(), open + 1);
        sockets
            .by_session
            .entry(token_hash.clone())
            .or_default()
            .insert(
                socket_id.clone(),
                Open {
                    user_id: user_id.clone(),
                    outbox,
                    heard,
                },
            );
        Ok(())
    }

    pub fn remove(&self, token_hash: &str, socket_id: &str) {
        let mut sockets = self.lock();
        let Some(session) = sockets.by_session.get_mut(token_hash) else {
            return;
        };
        let removed = session.remove(socket_id);
        if session.is_empty() {
            sockets.by_session.remove(token_hash);
        }
        if let Some(open) = removed {
            forget(&mut sockets.per_user, &open.user_id);
        }
    }

    /// Closes every socket of a browser session.
    pub fn close_session(&self, token_hash: &str) {
        let removed = {
            let mut sockets = self.lock();
            let removed = sockets.by_session.remove(token_hash);
            for open in removed.iter().flat_map(|s| s.values()) {
                forget(&mut sockets.per_user, &open.user_id);
            }
            removed
        };
        for open in removed.into_iter().flat_map(|s| s.into_values()) {
            // do_send ignores the mailbox bound: a close must get through.
            open.outbox.do_send(Outbound::Close(SIGNED_OUT));
        }
    }

    /// Tells every socket of `user_id` on this node.
    pub fn tell_user(&self, user_id: &str, message: &Outbound) {
        let sockets = self.lock();
        for open in sockets.by_session.values().flat_map(|s| s.values()) {
            if *open.user_id == *user_id {
                // do_send: a role change must get through a full mailbox.
                open.outbox.do_send(message.clone());
            }
        }
    }

    /// Refuses new sockets from now on and closes every open one with 1001.
    pub fn close_all_for_shutdown(&self) {
        let all = {
            let mut sockets = self.lock();
            sockets.shutting_down = true;
            sockets.per_user.clear();
            std::mem::take(&mut sockets.by_session)
        };
        for open in all.into_values().flat_map(|s| s.into_values()) {
            open.outbox.do_send(Outbound::Close(GOING_AWAY));
        }
    }

    /// The browser sessions that have a socket open on this node.
    pub fn session_hashes(&self) -> Vec<String> {
        self.lock()
            .by_session
            .keys()
            .map(|hash| hash.to_string())
            .collect()
    }

    /// Closes the sockets of every session among `asked` that is not in
    /// `live`. A session that opened a socket after being asked about is
    /// left alone: it was checked when its socket opened.
    fn close_ended(&self, asked: &[String], live: &std::collections::HashSet<String>) {
        for token_hash in asked.iter().filter(|hash| !live.contains(*hash)) {
            self.close_session(token_hash);
        }
    }

    /// Tells every socket silent for `silent` or more to ping its client (or
    /// close, when the client has been silent too long). Returns how many
    /// were told.
    pub fn poke_silent(&self, silent: Duration) -> usize {
        let sockets = self.lock();
        let mut poked = 0;
        for open in sockets.by_session.values().flat_map(|s| s.values()) {
            if open.heard.silent_for() >= silent {
                open.outbox.do_send(Outbound::Heartbeat);
                poked += 1;
            }
        }
        poked
    }

    /// Sockets open on this node, for the metrics.
    pub fn open_count(&self) -> usize {
        self.lock().per_user.values().sum()
    }

    /// Sockets open on this node for `user_id`.
    pub fn open_for(&self, user_id: &str) -> usize {
        self.lock().per_user.get(user_id).copied().unwrap_or(0)
    }
}

/// Re-checks, every `every`, the sessions behind all of this node's sockets
/// in one query, and closes (4001) the sockets of those that ended: signed
/// out on another node, expired, or revoked. Sign-out on this node closes its
/// sockets at once; this is for everything else, and costs one query per
/// interval per node however many sockets are open.
pub async fn recheck_forever(database_url: String, registry: Arc<SocketRegistry>, every: Duration) {
    let db = loop {
        match Db::connect(&database_url).await {
            Ok(db) => break db,
            Err(err) => {
                tracing::warn!(error = %err, "session re-check cannot connect; retrying");
                tokio::time::sleep(every).await;
            }
        }
    };
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let asked = registry.session_hashes();
        if asked.is_empty() {
            continue;
        }
        match sessions::live_among(&db, &asked).await {
            Ok(live) => registry.close_ended(&asked, &live),
            Err(err) => tracing::warn!(error = %err, "session re-check failed"),
        }
    }
}

/// The node's heartbeat: every `HEARTBEAT`, the silent sockets are poked.
pub async fn heartbeat_forever(registry: Arc<SocketRegistry>) {
    let mut ticks = tokio::time::interval(HEARTBEAT);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        registry.poke_silent(PING_WHEN_SILENT);
    }
}

fn forget(per_user: &mut HashMap<Arc<str>, usize>, user_id: &str) {
    if let Some(count) = per_user.get_mut(user_id) {
        *count = count.saturating_sub(1);
        if *count == 0 {
            per_user.remove(user_id);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "sockets_tests.rs"]
mod tests;
