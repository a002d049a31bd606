//! Presence over the real socket: a tab gets who is online once, then only
//! what changes, coalesced; many tabs opening at once (a restart) cost each
//! tab one small snapshot and a few small changes, and every tab's list
//! converges to who is really online.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::members::{add_member, on_merchant};
use common::{Database, Socket, TestApp};
use futures_util::future::join_all;
use protocol::{ClientFrame, Mode, PresenceMember, Role, ServerFrame};

const OWNER: &str = "owner@karoo.co.za";
const TEAM: [(&str, &str); 3] = [
    ("Pieter", "pieter@karoo.co.za"),
    ("Lerato", "lerato@karoo.co.za"),
    ("Sipho", "sipho@karoo.co.za"),
];
const TABS: usize = 200;

/// What one tab knows of who is online, built only from the frames it got.
#[derive(Default)]
struct Seen {
    people: BTreeMap<String, PresenceMember>,
    snapshots: usize,
    changes: usize,
    largest: usize,
}

impl Seen {
    /// Applies a presence frame; false for any other frame.
    fn apply(&mut self, frame: &ServerFrame) -> bool {
        let bytes = serde_json::to_vec(frame).unwrap().len();
        match frame {
            ServerFrame::Presence { members } => {
                self.snapshots += 1;
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
                assert!(
                    !(joined.is_empty() && moved.is_empty() && left.is_empty()),
                    "an empty change is not sent"
                );
                self.changes += 1;
                for person in joined.iter().chain(moved) {
                    self.people.insert(person.user_id.clone(), person.clone());
                }
                for user_id in left {
                    self.people.remove(user_id);
                }
            }
            _ => return false,
        }
        self.largest = self.largest.max(bytes);
        true
    }
}

/// Reads presence frames until the tab's list is `truth` (other frames are
/// not expected here). Fails if the socket goes quiet first.
async fn converge(socket: &mut Socket, seen: &mut Seen, truth: &BTreeMap<String, PresenceMember>) {
    while &seen.people != truth {
        let frame = socket
            .next_within(Duration::from_secs(10))
            .await
            .unwrap_or_else(|e| {
                panic!(
                    "list never became the truth: {e:?}; it is {:?}",
                    seen.people
                )
            });
        assert!(seen.apply(&frame), "unexpected frame {frame:?}");
    }
}

fn person(user_id: &str, name: &str, viewing: Vec<String>) -> PresenceMember {
    PresenceMember {
        user_id: user_id.into(),
        name: name.into(),
        viewing,
        editing: Vec::new(),
    }
}

async fn a_join_storm_sends_each_tab_one_snapshot_and_few_small_changes(db: Database) {
    let app = TestApp::start_with(db, |config| config.sockets_per_user = TABS).await;
    let owner = app.merchant(OWNER).await;
    let (owner_id, merchant_id) = app.owner_ids(OWNER).await;
    let mut people = vec![(owner_id, "Thandi Nkosi".to_string(), owner)];
    for (name, email) in TEAM {
        let browser = app.browser();
        let response = browser
            .sign_up(name, email, "karoo-sunset-41", "Their Own Shop")
            .await;
        assert_eq!(response.status(), 200);
        add_member(&app, OWNER, email, Role::Admin).await;
        let (user_id, _) = app.owner_ids(email).await;
        people.push((user_id, name.to_string(), browser));
    }

    // Every tab of all four people opens at once.
    let opening = (0..TABS).map(|i| {
        let browser = &people[i % people.len()].2;
        let merchant_id = merchant_id.clone();
        async move {
            on_merchant(browser, &merchant_id, protocol::Mode::Test)
                .await
                .0
        }
    });
    let mut tabs: Vec<(Socket, Seen)> = join_all(opening)
        .await
        .into_iter()
        .map(|socket| (socket, Seen::default()))
        .collect();

    let mut truth: BTreeMap<String, PresenceMember> = people
        .iter()
        .map(|(id, name, _)| (id.clone(), person(id, name, Vec::new())))
        .collect();
    join_all(
        tabs.iter_mut()
            .map(|(socket, seen)| converge(socket, seen, &truth)),
    )
    .await;
    for (_, seen) in &tabs {
        assert_eq!(seen.snapshots, 1, "one snapshot per tab");
        // After its snapshot a tab hears only of people it did not know of:
        // more tabs of someone already listed change nothing.
        assert!(
            seen.changes < people.len(),
            "{} change frames for {} people",
            seen.changes,
            people.len()
        );
        assert!(seen.largest < 1_024, "a frame of {} bytes", seen.largest);
    }

    // Half the tabs open the customers list at once: coalesced moves, each
    // frame naming at most the four people.
    let moving = tabs.iter_mut().step_by(2).map(|(socket, _)| async move {
        socket
            .send(&ClientFrame::Presence {
                viewing: Some("/customers".into()),
                editing: None,
            })
            .await;
    });
    join_all(moving).await;
    for (i, (user_id, _, _)) in people.iter().enumerate() {
        let on_list = (0..TABS)
            .step_by(2)
            .filter(|t| t % people.len() == i)
            .count();
        truth.get_mut(user_id).unwrap().viewing = vec!["/customers".into(); on_list.min(8)];
    }
    let before: Vec<usize> = tabs.iter().map(|(_, seen)| seen.changes).collect();
    join_all(
        tabs.iter_mut()
            .map(|(socket, seen)| converge(socket, seen, &truth)),
    )
    .await;
    for ((_, seen), before) in tabs.iter().zip(before) {
        assert_eq!(seen.snapshots, 1, "no second snapshot");
        assert!(seen.changes > before, "the moves arrived as changes");
        assert!(seen.largest < 2_048, "a frame of {} bytes", seen.largest);
    }

    // Every tab of the last person closes: the others hear they left.
    let gone = people.len() - 1;
    let mut index = 0;
    tabs.retain(|_| {
        index += 1;
        (index - 1) % people.len() != gone
    });
    truth.remove(&people[gone].0);
    join_all(
        tabs.iter_mut()
            .map(|(socket, seen)| converge(socket, seen, &truth)),
    )
    .await;
    for (_, seen) in &tabs {
        assert_eq!(seen.snapshots, 1);
    }
}

async fn a_form_open_shows_as_editing_until_it_closes(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (owner_id, _) = app.owner_ids(OWNER).await;
    let (mut watcher, _) = owner.live().await;
    let (mut editor, _) = owner.live().await;
    let mut seen = Seen::default();
    let path = "/customers/cus_1".to_string();
    editor
        .send(&ClientFrame::Presence {
            viewing: Some(path.clone()),
            editing: Some(path.clone()),
        })
        .await;
    let mut me = person(&owner_id, "Thandi Nkosi", vec![path.clone()]);
    me.editing = vec![path.clone()];
    let mut truth = BTreeMap::from([(owner_id.clone(), me.clone())]);
    converge(&mut watcher, &mut seen, &truth).await;

    // The form closes; the record stays open.
    editor
        .send(&ClientFrame::Presence {
            viewing: Some(path.clone()),
            editing: None,
        })
        .await;
    me.editing = Vec::new();
    truth.insert(owner_id.clone(), me.clone());
    converge(&mut watcher, &mut seen, &truth).await;

    // Editing again, then the tab goes: editing goes with it.
    editor
        .send(&ClientFrame::Presence {
            viewing: Some(path.clone()),
            editing: Some(path.clone()),
        })
        .await;
    me.editing = vec![path.clone()];
    truth.insert(owner_id.clone(), me);
    converge(&mut watcher, &mut seen, &truth).await;
    drop(editor);
    truth.insert(
        owner_id.clone(),
        person(&owner_id, "Thandi Nkosi", Vec::new()),
    );
    converge(&mut watcher, &mut seen, &truth).await;
    assert_eq!(seen.snapshots, 1);
}

/// A member is told where the others are only on screens their own role
/// opens; text that is no screen of the app is told to no one; a member
/// whose role changes is told again, as the new role reads it.
async fn a_member_is_told_only_of_screens_their_role_opens(db: Database) {
    const MEMBER: &str = "sipho@karoo.co.za";
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let member = app.merchant(MEMBER).await;
    add_member(&app, OWNER, MEMBER, Role::Support).await;
    let (owner_id, merchant_id) = app.owner_ids(OWNER).await;
    let (member_id, _) = app.owner_ids(MEMBER).await;
    let record = "/customers/cus_1".to_string();
    let payouts = "/account/payouts".to_string();
    let (mut on_record, _) = on_merchant(&owner, &merchant_id, Mode::Test).await;
    let (mut on_payouts, _) = on_merchant(&owner, &merchant_id, Mode::Test).await;
    let (mut elsewhere, _) = on_merchant(&owner, &merchant_id, Mode::Test).await;
    let (mut support, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    on_record
        .send(&ClientFrame::Presence {
            viewing: Some(record.clone()),
            editing: Some(record.clone()),
        })
        .await;
    on_payouts
        .send(&ClientFrame::Presence {
            viewing: Some(payouts.clone()),
            editing: None,
        })
        .await;
    elsewhere
        .send(&ClientFrame::Presence {
            viewing: Some("/about <script>".into()),
            editing: Some("/developers/tokens/secret".into()),
        })
        .await;

    // Support reads customers, not payouts.
    let mut owner_seen_by_support = person(&owner_id, "Thandi Nkosi", vec![record.clone()]);
    owner_seen_by_support.editing = vec![record.clone()];
    let sipho = person(&member_id, "Thandi Nkosi", Vec::new());
    let mut truth = BTreeMap::from([
        (owner_id.clone(), owner_seen_by_support),
        (member_id.clone(), sipho.clone()),
    ]);
    let mut seen = Seen::default();
    converge(&mut support, &mut seen, &truth).await;

    // The owner reads both; the text that is no screen is nowhere.
    let mut owner_seen_by_owner = person(
        &owner_id,
        "Thandi Nkosi",
        vec![payouts.clone(), record.clone()],
    );
    owner_seen_by_owner.editing = vec![record.clone()];
    let owner_truth = BTreeMap::from([
        (owner_id.clone(), owner_seen_by_owner),
        (member_id.clone(), sipho.clone()),
    ]);
    let mut owner_seen = Seen::default();
    converge(&mut elsewhere, &mut owner_seen, &owner_truth).await;

    // Support becomes finance: payouts, and no customers.
    let change = protocol::Command::ChangeMemberRole {
        user_id: member_id.clone(),
        role: Role::Finance,
        role_id: None,
    };
    common::committed_id(on_payouts.command("c1", change).await);
    truth.insert(
        owner_id.clone(),
        person(&owner_id, "Thandi Nkosi", vec![payouts.clone()]),
    );
    let snapshots = seen.snapshots;
    loop {
        let frame = support
            .next_within(Duration::from_secs(10))
            .await
            .unwrap_or_else(|e| panic!("the new role's view: {e:?}; it is {:?}", seen.people));
        if seen.apply(&frame) && seen.people == truth {
            break;
        }
    }
    assert_eq!(seen.snapshots, snapshots + 1, "told again, whole");
}

on_both_databases!(
    a_join_storm_sends_each_tab_one_snapshot_and_few_small_changes,
    a_form_open_shows_as_editing_until_it_closes,
    a_member_is_told_only_of_screens_their_role_opens,
);
