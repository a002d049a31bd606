//! Finds or starts the merchant actor of a stream.

use std::collections::HashMap;
use std::sync::Mutex;

use actix::prelude::*;

use super::merchant::MerchantActor;
use super::messages::StreamKey;
use crate::domain::clock::BusinessClock;
use crate::store::Db;

pub struct MerchantRegistry {
    actors: Mutex<HashMap<StreamKey, Addr<MerchantActor>>>,
    clock: BusinessClock,
}

impl MerchantRegistry {
    pub fn new(clock: BusinessClock) -> MerchantRegistry {
        MerchantRegistry {
            actors: Mutex::new(HashMap::new()),
            clock,
        }
    }

    pub fn clock(&self) -> BusinessClock {
        self.clock
    }

    /// The running actor for `key`, if this node has one.
    pub fn running(&self, key: &StreamKey) -> Option<Addr<MerchantActor>> {
        let actors = self
            .actors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        actors.get(key).filter(|addr| addr.connected()).cloned()
    }

    /// The running actor for `key`, or a new one. An actor that stopped (idle)
    /// is replaced.
    pub fn actor_for(&self, key: StreamKey, db: &Db) -> Addr<MerchantActor> {
        let mut actors = self
            .actors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(addr) = actors.get(&key).filter(|addr| addr.connected()) {
            return addr.clone();
        }
        let addr = MerchantActor::new(key.clone(), db.clone(), self.clock).start();
        actors.insert(key, addr.clone());
        addr
    }
}
