//! Sign-ins, failed sign-ins and two-factor changes reach open history
//! screens live: they happen over HTTP (or on the member's own account),
//! outside any merchant's actor, and are announced to every merchant the
//! member belongs to, in both modes, with the address and the browser and
//! never the password tried.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::team_support;

use common::{Database, Socket, TestApp};
use protocol::{Change, Command, HistoryAction, HistoryEntry, Mode, ReplyBody, Role, ServerFrame};
use team_support::{add_member, browser_with_agent};

const OWNER: &str = "owner@karoo.co.za";
const MEMBER: &str = "thandi@karoo.co.za";
const AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) LiveHistoryTest/1.0";
const WRONG: &str = "not-the-password-71";

/// The next history entry of `action` a delta brings to `tab`.
async fn next_entry(tab: &mut Socket, action: HistoryAction) -> (HistoryEntry, ServerFrame) {
    let frame = tab
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. } if changes.iter().any(|c|
                matches!(c, Change::HistoryEntryAdded { entry } if entry.action == action)))
        })
        .await;
    let ServerFrame::Delta { changes, .. } = &frame else {
        unreachable!()
    };
    let entry = changes
        .iter()
        .find_map(|c| match c {
            Change::HistoryEntryAdded { entry } if entry.action == action => {
                Some((**entry).clone())
            }
            _ => None,
        })
        .unwrap();
    (entry, frame)
}

async fn sign_ins_reach_open_history_screens(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let member = app.merchant(MEMBER).await;
    add_member(&app, OWNER, MEMBER, Role::Viewer).await;
    let (member_id, _) = app.owner_ids(MEMBER).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let mut live = common::members::on_merchant(&owner, &merchant_id, Mode::Live)
        .await
        .0;
    let mut test = common::members::on_merchant(&owner, &merchant_id, Mode::Test)
        .await
        .0;
    // The member's own merchant hears of it too.
    let (mut own, _) = member.live().await;

    let stranger = browser_with_agent(&app, AGENT);
    let refused = stranger.sign_in(MEMBER, WRONG, "/").await;
    assert_eq!(refused.status(), 401);
    for tab in [&mut live, &mut test, &mut own] {
        let (failed, frame) = next_entry(tab, HistoryAction::SignInFailed).await;
        assert_eq!(failed.actor_id.as_deref(), Some(member_id.as_str()));
        assert_eq!(failed.actor_name.as_deref(), Some("Thandi Nkosi"));
        assert_eq!(failed.user_agent.as_deref(), Some(AGENT));
        assert_eq!(failed.address.as_deref(), Some("127.0.0.1"));
        assert_eq!(failed.record_kind, "account");
        assert!(!format!("{frame:?}").contains(WRONG), "{frame:?}");
    }

    let signed_in = stranger.sign_in(MEMBER, "karoo-sunset-41", "/").await;
    assert_eq!(signed_in.status(), 200);
    for tab in [&mut live, &mut test, &mut own] {
        let (entry, _) = next_entry(tab, HistoryAction::SignedIn).await;
        assert_eq!(entry.actor_id.as_deref(), Some(member_id.as_str()));
        assert_eq!(entry.user_agent.as_deref(), Some(AGENT));
    }

    // A two-factor change on the member's own account.
    let mut member_tab = member.open(Mode::Test).await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::TwoFactorEnrolment { secret, .. }),
        ..
    } = member_tab.command("2fa", Command::BeginTwoFactor {}).await
    else {
        panic!("no enrolment")
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let code = paydesk::auth::totp::code_at(&secret, now).unwrap();
    let confirmed = member_tab
        .command("2fa_ok", Command::ConfirmTwoFactor { code })
        .await;
    assert!(
        matches!(
            confirmed,
            ServerFrame::Reply {
                ok: Some(ReplyBody::BackupCodes { .. }),
                ..
            }
        ),
        "{confirmed:?}"
    );
    let (enabled, _) = next_entry(&mut live, HistoryAction::TwoFactorEnabled).await;
    assert_eq!(enabled.actor_id.as_deref(), Some(member_id.as_str()));

    // The entry is listed once, as a row of the account: the events that
    // announced it add none.
    let listed = live
        .query(
            "h1",
            serde_json::from_value(serde_json::json!({"t": "ListHistory"})).unwrap(),
        )
        .await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::HistoryPage { items, .. }),
        ..
    } = listed
    else {
        panic!("history: {listed:?}")
    };
    let failed: Vec<_> = items
        .iter()
        .filter(|e| e.action == HistoryAction::SignInFailed)
        .collect();
    assert_eq!(failed.len(), 1, "{items:?}");
}

on_both_databases!(sign_ins_reach_open_history_screens);
