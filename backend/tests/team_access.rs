//! Team and access as merchants met it: a business that has only used
//! test mode takes on members (the live stream its join writes to is made
//! by that first write); handing the ownership on, changing a member's role
//! and removing them are recorded with who they were before and after, and
//! mailed to the people concerned in their own language.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::team_support;

use crate::history::{detail, entry, history};
use common::members::{add_member, on_merchant};
use common::{Browser, Database, Socket, TestApp, committed_id};
use paydesk::store::Db;
use protocol::{
    Command, HistoryAction, HistoryEntry, HistoryFilter, Language, Mode, Query, ReplyBody, Role,
    ServerFrame,
};
use team_support::invites::{invite, post, sign_up_from, token_in_mail};

const OWNER: &str = "olivia@karoo.co.za";
const INVITEE: &str = "thandi@karoo.co.za";
const PASSWORD: &str = "karoo-sunset-41";

/// A browser signed up as `name` with a business of their own.
async fn person(app: &TestApp, name: &str, email: &str, business: &str) -> Browser {
    let browser = app.browser();
    let response = browser.sign_up(name, email, PASSWORD, business).await;
    assert_eq!(response.status(), 200, "sign-up of {email}");
    browser
}

/// The history's entries of team members, newest first.
async fn member_entries(socket: &mut Socket, id: &str) -> Vec<HistoryEntry> {
    let filter = HistoryFilter {
        record_kind: Some("member".into()),
        ..Default::default()
    };
    history(socket, id, filter).await
}

/// An entry's `field` before and after, as the entry's page shows them.
async fn before_after(socket: &mut Socket, entry_id: &str, field: &str) -> (String, String) {
    let shown = detail(entry(socket, entry_id).await);
    let change = shown
        .changes
        .into_iter()
        .find(|c| c.field == field)
        .unwrap_or_else(|| panic!("no {field} in {entry_id}"));
    (
        change.before.unwrap_or_default(),
        change.after.unwrap_or_default(),
    )
}

async fn stream_seq(store: &Db, merchant_id: &str, mode: Mode) -> Option<i64> {
    sqlx::query_scalar("SELECT seq FROM merchant_streams WHERE merchant_id = $1 AND mode = $2")
        .bind(merchant_id)
        .bind(mode.as_str())
        .fetch_optional(&store.pool)
        .await
        .unwrap()
}

/// Only the test stream was ever opened: accepting signed in and signing
/// up from an invite both join, each one event of the live stream, which
/// the first of them made. The owner's live tab opened afterwards starts
/// after those events and lists both members.
async fn a_business_that_only_used_test_mode_takes_on_members(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let mut test = owner.open(Mode::Test).await;
    let store = Db::connect(&app.database_url).await.unwrap();
    assert_eq!(stream_seq(&store, &merchant_id, Mode::Live).await, None);

    committed_id(invite(&mut test, "i1", INVITEE, Role::Operations).await);
    let token = token_in_mail(&app, INVITEE).await;
    let invitee = app.merchant(INVITEE).await;
    let (status, body) = post(&invitee, "/accept", serde_json::json!({"token": token})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["merchantId"], merchant_id.as_str());
    assert_eq!(stream_seq(&store, &merchant_id, Mode::Live).await, Some(1));

    let newcomer = "sipho@karoo.co.za";
    committed_id(invite(&mut test, "i2", newcomer, Role::Viewer).await);
    let token = token_in_mail(&app, newcomer).await;
    let (_, status, body) = sign_up_from(&app, &token, "Sipho Dube").await;
    assert_eq!(status, 200, "{body}");

    // The join, then the newcomer's first sign-in told to the team.
    let causes = app.event_causes(OWNER, Mode::Live).await;
    let seqs: Vec<i64> = causes.iter().map(|c| c.seq).collect();
    assert_eq!(seqs, [1, 2, 3], "{causes:?}");
    assert!(causes.iter().all(|c| c.actor_kind == "user"), "{causes:?}");

    let (mut live, welcome) = on_merchant(&owner, &merchant_id, Mode::Live).await;
    let ServerFrame::Welcome { seq, .. } = welcome else {
        unreachable!()
    };
    assert_eq!(seq, 3);
    let team = match live.query("t", Query::GetTeam {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Team { team }),
            ..
        } => team,
        other => panic!("{other:?}"),
    };
    let mut emails: Vec<&str> = team.members.iter().map(|m| m.email.as_str()).collect();
    emails.sort_unstable();
    assert_eq!(emails, [OWNER, newcomer, INVITEE]);
}

/// Olivia hands the ownership of Karoo Gym on to Thandi, an admin who
/// reads Afrikaans. The history records it as a transfer: one entry for
/// each of them, each with their role before and after, caused by Olivia;
/// nothing reads as a member created. Each of them gets a mail in their
/// own language.
async fn the_ownership_is_recorded_as_handed_on_and_mailed_to_both(db: Database) {
    let app = TestApp::start(db).await;
    let owner = person(&app, "Olivia Owner", OWNER, "Karoo Gym").await;
    let thandi = person(&app, "Thandi Dube", INVITEE, "Dube Bakery").await;
    add_member(&app, OWNER, INVITEE, Role::Admin).await;
    let (mut own, _) = thandi.live().await;
    let afrikaans = Command::SetLanguage {
        language: Language::Afr,
    };
    assert!(matches!(
        own.command("lang", afrikaans).await,
        ServerFrame::Reply { ok: Some(_), .. }
    ));
    let (owner_id, merchant_id) = app.owner_ids(OWNER).await;
    let (thandi_id, _) = app.owner_ids(INVITEE).await;
    let (mut live, _) = on_merchant(&owner, &merchant_id, Mode::Live).await;

    let transfer = Command::TransferOwnership {
        user_id: thandi_id.clone(),
        confirmation: PASSWORD.into(),
    };
    committed_id(live.command("t1", transfer).await);

    let entries = member_entries(&mut live, "h1").await;
    assert!(
        entries
            .iter()
            .all(|e| e.action == HistoryAction::OwnershipTransferred),
        "{entries:?}"
    );
    assert_eq!(entries.len(), 2, "{entries:?}");
    for entry in &entries {
        assert_eq!(entry.actor_id.as_deref(), Some(owner_id.as_str()));
        assert_eq!(entry.actor_name.as_deref(), Some("Olivia Owner"));
        assert!(entry.fields.contains(&"role".to_string()), "{entry:?}");
    }
    let of = |user_id: &str| {
        entries
            .iter()
            .find(|e| e.record_id.as_deref() == Some(user_id))
            .unwrap()
            .clone()
    };
    let (to, by) = (of(&thandi_id), of(&owner_id));
    assert_eq!(to.record_name.as_deref(), Some("Thandi Dube"));
    assert_eq!(by.record_name.as_deref(), Some("Olivia Owner"));
    let quoted = |role: &str| format!("\"{role}\"");
    assert_eq!(
        before_after(&mut live, &to.id, "role").await,
        (quoted("admin"), quoted("owner"))
    );
    assert_eq!(
        before_after(&mut live, &by.id, "role").await,
        (quoted("owner"), quoted("admin"))
    );

    let handed = app
        .mails_containing(
            OWNER,
            "You handed the ownership of Karoo Gym on to Thandi Dube",
            1,
        )
        .await;
    assert!(
        handed[0].contains("Your role was Owner and is now Admin"),
        "{}",
        handed[0]
    );
    let received = app
        .mails_containing(INVITEE, "Jy is nou die eienaar van Karoo Gym op Paydesk", 1)
        .await;
    let words = &received[0];
    assert!(
        words.contains("jou rol was Administrateur en is nou Eienaar"),
        "{words}"
    );
    assert!(
        words.contains("bly in die span as Administrateur"),
        "{words}"
    );
    assert!(words.contains("/account/teams"), "{words}");
}

/// A viewer made finance hears of it; removed, they hear of that too. The
/// history shows the change with the role before (read from the command,
/// though the member joined with no entry of their own), and the removal
/// under their name.
async fn a_role_change_and_a_removal_are_recorded_and_mailed(db: Database) {
    let app = TestApp::start(db).await;
    let owner = person(&app, "Olivia Owner", OWNER, "Karoo Gym").await;
    let sipho = "sipho@karoo.co.za";
    person(&app, "Sipho Dlamini", sipho, "Dlamini Transport").await;
    add_member(&app, OWNER, sipho, Role::Viewer).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (sipho_id, _) = app.owner_ids(sipho).await;
    let (mut live, _) = on_merchant(&owner, &merchant_id, Mode::Live).await;

    let change = Command::ChangeMemberRole {
        user_id: sipho_id.clone(),
        role: Role::Finance,
        role_id: None,
    };
    committed_id(live.command("c1", change).await);
    let changed = app
        .mails_containing(sipho, "Your role on Karoo Gym is now Finance", 1)
        .await;
    assert!(
        changed[0].contains("Olivia Owner changed your role"),
        "{}",
        changed[0]
    );
    assert!(
        changed[0].contains("from Viewer to Finance"),
        "{}",
        changed[0]
    );
    let entries = member_entries(&mut live, "h1").await;
    let [updated] = entries.as_slice() else {
        panic!("{entries:?}")
    };
    assert_eq!(updated.action, HistoryAction::Updated);
    let quoted = |role: &str| format!("\"{role}\"");
    assert_eq!(
        before_after(&mut live, &updated.id, "role").await,
        (quoted("viewer"), quoted("finance"))
    );

    let remove = Command::RemoveMember {
        user_id: sipho_id.clone(),
    };
    committed_id(live.command("r1", remove).await);
    let removed = app
        .mails_containing(sipho, "You are no longer on the team of Karoo Gym", 1)
        .await;
    assert!(
        removed[0].contains("where your role was Finance"),
        "{}",
        removed[0]
    );
    let entries = member_entries(&mut live, "h2").await;
    let gone = &entries[0];
    assert_eq!(gone.action, HistoryAction::Removed);
    assert_eq!(gone.record_name.as_deref(), Some("Sipho Dlamini"));
}

on_both_databases!(
    a_business_that_only_used_test_mode_takes_on_members,
    the_ownership_is_recorded_as_handed_on_and_mailed_to_both,
    a_role_change_and_a_removal_are_recorded_and_mailed,
);
