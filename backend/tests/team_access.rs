//! Team and access as merchants met it: a business that has only used
//! test mode takes on members (the live stream its join writes to is made
//! by that first write).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::team_support;

use common::members::on_merchant;
use common::{Database, TestApp, committed_id};
use paydesk::store::Db;
use protocol::{Mode, Query, ReplyBody, Role, ServerFrame};
use team_support::invites::{invite, post, sign_up_from, token_in_mail};

const OWNER: &str = "olivia@karoo.co.za";
const INVITEE: &str = "thandi@karoo.co.za";

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

on_both_databases!(a_business_that_only_used_test_mode_takes_on_members);
