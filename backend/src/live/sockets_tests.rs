//! The node's heartbeat pass over its sockets, without a socket.

use super::*;
use crate::live::recording::{Flush, Recording};

#[actix::test]
async fn only_sockets_silent_long_enough_are_poked_and_a_closed_one_no_more() {
    let registry = SocketRegistry::new(10);
    let (quiet, quiet_seen) = Recording::start_with(16);
    let (chatty, chatty_seen) = Recording::start_with(16);
    let quiet_heard = LastHeard::now();
    let chatty_heard = LastHeard::now();
    registry
        .add(
            &mut "ses_a".into(),
            &mut "usr_a".into(),
            &"sock_quiet".into(),
            Arc::new(quiet.clone().recipient()),
            quiet_heard,
        )
        .unwrap();
    registry
        .add(
            &mut "ses_b".into(),
            &mut "usr_b".into(),
            &"sock_chatty".into(),
            Arc::new(chatty.clone().recipient()),
            chatty_heard.clone(),
        )
        .unwrap();

    // Nobody has been silent for a minute: nothing is sent to anyone.
    assert_eq!(registry.poke_silent(Duration::from_secs(60)), 0);

    tokio::time::sleep(Duration::from_millis(120)).await;
    // The chatty client sent a frame meanwhile.
    chatty_heard.touch();
    assert_eq!(registry.poke_silent(Duration::from_millis(100)), 1);
    quiet.send(Flush).await.unwrap();
    chatty.send(Flush).await.unwrap();
    assert!(matches!(
        quiet_seen.lock().unwrap().as_slice(),
        [Outbound::Heartbeat]
    ));
    assert!(chatty_seen.lock().unwrap().is_empty());

    // A socket that went away is not looked at again.
    registry.remove("ses_a", "sock_quiet");
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_eq!(registry.poke_silent(Duration::from_millis(100)), 1);
    chatty.send(Flush).await.unwrap();
    assert_eq!(quiet_seen.lock().unwrap().len(), 1);
    assert!(matches!(
        chatty_seen.lock().unwrap().as_slice(),
        [Outbound::Heartbeat]
    ));
}

#[actix::test]
async fn a_second_tab_of_a_session_shares_the_held_session_and_user_ids() {
    let registry = SocketRegistry::new(10);
    let (tab, _) = Recording::start_with(4);
    let (mut first_hash, mut first_user): (Arc<str>, Arc<str>) = ("ses_a".into(), "usr_a".into());
    registry
        .add(
            &mut first_hash,
            &mut first_user,
            &"sock_1".into(),
            Arc::new(tab.clone().recipient()),
            LastHeard::now(),
        )
        .unwrap();
    let (mut second_hash, mut second_user): (Arc<str>, Arc<str>) = ("ses_a".into(), "usr_a".into());
    registry
        .add(
            &mut second_hash,
            &mut second_user,
            &"sock_2".into(),
            Arc::new(tab.recipient()),
            LastHeard::now(),
        )
        .unwrap();
    assert!(Arc::ptr_eq(&first_hash, &second_hash));
    assert!(Arc::ptr_eq(&first_user, &second_user));
    assert_eq!(registry.open_for("usr_a"), 2);
}
