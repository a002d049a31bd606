//! The open sockets of each browser session, so that signing out closes them
//! at once.

use std::collections::HashMap;
use std::sync::Mutex;

use actix::prelude::*;

use super::messages::Outbound;

/// Close code sent when the session behind a socket ended.
pub const SIGNED_OUT: u16 = 4001;

#[derive(Default)]
pub struct SocketRegistry {
    by_session: Mutex<HashMap<String, HashMap<String, Recipient<Outbound>>>>,
}

impl SocketRegistry {
    pub fn add(&self, token_hash: &str, socket_id: &str, outbox: Recipient<Outbound>) {
        let mut map = self.by_session.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(token_hash.to_string())
            .or_default()
            .insert(socket_id.to_string(), outbox);
    }

    pub fn remove(&self, token_hash: &str, socket_id: &str) {
        let mut map = self.by_session.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(sockets) = map.get_mut(token_hash) {
            sockets.remove(socket_id);
            if sockets.is_empty() {
                map.remove(token_hash);
            }
        }
    }

    /// Closes every socket of a browser session.
    pub fn close_session(&self, token_hash: &str) {
        let sockets = self
            .by_session
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(token_hash);
        for outbox in sockets.into_iter().flat_map(|s| s.into_values()) {
            // do_send ignores the mailbox bound: a close must get through.
            outbox.do_send(Outbound::Close(SIGNED_OUT));
        }
    }
}
