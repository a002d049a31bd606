//! A session stand-in for the live layer's unit tests: an actor that keeps
//! every `Outbound` it is sent.

use std::sync::{Arc, Mutex};

use actix::prelude::*;

use super::messages::Outbound;

/// Keeps what it is sent; its mailbox holds `capacity`.
pub struct Recording {
    capacity: usize,
    seen: Arc<Mutex<Vec<Outbound>>>,
}

impl Recording {
    /// Started, with what it will be sent.
    pub fn start_with(capacity: usize) -> (Addr<Recording>, Arc<Mutex<Vec<Outbound>>>) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let addr = Recording {
            capacity,
            seen: seen.clone(),
        }
        .start();
        (addr, seen)
    }
}

impl Actor for Recording {
    type Context = Context<Self>;
    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(self.capacity);
    }
}

/// Answered once everything sent before it was handled.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Flush;

impl Handler<Flush> for Recording {
    type Result = ();
    fn handle(&mut self, _: Flush, _ctx: &mut Self::Context) {}
}

impl Handler<Outbound> for Recording {
    type Result = ();
    fn handle(&mut self, msg: Outbound, _ctx: &mut Self::Context) {
        self.seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(msg);
    }
}
