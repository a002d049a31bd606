//! The merchant actor's fan-out, without a socket.

use super::*;
use crate::live::recording::{Flush, Recording};
use std::sync::{Arc, Mutex};

fn member(capacity: usize) -> (Member, Arc<Mutex<Vec<Outbound>>>, Addr<Recording>) {
    let (addr, seen) = Recording::start_with(capacity);
    let member = Member {
        tab: Tab::new("usr_test", "Test"),
        outbox: Arc::new(addr.clone().recipient()),
        permissions: Permissions::all(protocol::Access::Write),
        token_id: None,
        fresh: false,
    };
    (member, seen, addr)
}

#[actix::test]
async fn every_session_gets_the_same_bytes_and_a_full_one_is_dropped() {
    let mut sessions = HashMap::new();
    let (fast, fast_seen, fast_addr) = member(1_024);
    let (slow, slow_seen, slow_addr) = member(1);
    sessions.insert(SocketId::from("fast"), fast);
    sessions.insert(SocketId::from("slow"), slow);
    // Both actors have started and taken their mailbox bounds.
    fast_addr.send(Flush).await.unwrap();
    slow_addr.send(Flush).await.unwrap();

    let frames: Vec<Encoded> = (0..4u8).map(|n| Encoded::from(vec![n; 64])).collect();
    let mut dropped = Vec::new();
    for bytes in &frames {
        dropped.extend(fan_out(&sessions, |_| Some(bytes.clone())));
        sessions.retain(|id, _| !dropped.contains(id));
    }
    assert_eq!(dropped, vec![SocketId::from("slow")]);
    // Everything sent before has been handled.
    fast_addr.send(Flush).await.unwrap();
    slow_addr.send(Flush).await.unwrap();

    let fast_seen = fast_seen.lock().unwrap();
    assert_eq!(fast_seen.len(), frames.len());
    for (got, sent) in fast_seen.iter().zip(&frames) {
        let Outbound::Frame(got) = got else {
            panic!("one frame per delta, not a list");
        };
        // The very buffer that was encoded, not a copy of it.
        assert_eq!(got.as_ptr(), sent.as_ptr());
    }
    let slow_seen = slow_seen.lock().unwrap();
    assert!(matches!(slow_seen.last(), Some(Outbound::TooSlow)));
}
