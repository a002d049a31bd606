//! Members and invites through the real app: the invite's life (sign-up
//! from the mail, reuse, expiry by the invite clock, resend, revoke, a
//! signed-in user with the wrong address), the role ceiling, and a role
//! change or removal reaching the member's open socket at once.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use crate::team_support::invites::{post, token_in_mail};
use common::members::{add_member, on_merchant};
use common::{Browser, Database, Socket, TestApp, customer_input};
use paydesk::domain::teams::InviteClock;
use protocol::{Change, Command, ErrorCode, Mode, Query, ReplyBody, Role, ServerFrame};

const OWNER: &str = "owner@karoo.co.za";
const INVITEE: &str = "thandi@karoo.co.za";

async fn start(db: Database) -> (TestApp, InviteClock) {
    let clock = InviteClock::default();
    let shared = clock.clone();
    let app = TestApp::start_with(db, move |config| config.invite_clock = shared).await;
    (app, clock)
}

async fn owner_socket(app: &TestApp, owner: &Browser) -> Socket {
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    on_merchant(owner, &merchant_id, Mode::Live).await.0
}

async fn invite(socket: &mut Socket, id: &str, email: &str, role: Role) -> ServerFrame {
    let command = Command::InviteMember {
        email: email.into(),
        role,
        role_id: None,
    };
    socket.command(id, command).await
}

/// The token of a newer invite link than `old` mailed to `to` (the mail
/// worker delivers it a moment after the command).
async fn newer_token_in_mail(app: &TestApp, to: &str, old: &str) -> String {
    for _ in 0..50 {
        let token = token_in_mail(app, to).await;
        if token != old {
            return token;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("no new invite link was mailed to {to}");
}

fn code_of(body: &serde_json::Value) -> String {
    body["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

async fn sign_up_from(app: &TestApp, token: &str) -> (Browser, u16, serde_json::Value) {
    let browser = app.browser();
    let (status, body) = post(
        &browser,
        "/signup",
        serde_json::json!({"token": token, "name": "Thandi Dube", "password": "karoo-sunset-41"}),
    )
    .await;
    (browser, status, body)
}

fn team_of(frame: ServerFrame) -> protocol::Team {
    match frame {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Team { team }),
            ..
        } => *team,
        other => panic!("team: {other:?}"),
    }
}

fn field_code(frame: ServerFrame) -> ErrorCode {
    let error = common::error_of(frame);
    error.fields.first().map_or(error.code, |f| f.code)
}

/// The invitee signs up from the mailed link: the address is the invited
/// one and verified, they land on the owner's merchant with the invited
/// role, the owner's open tab hears of it, and the link is dead after.
async fn an_invitee_signs_up_from_the_mail_once(db: Database) {
    let (app, _) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner_socket(&app, &owner).await;
    common::committed_id(invite(&mut socket, "i1", INVITEE, Role::Operations).await);
    let token = token_in_mail(&app, INVITEE).await;

    let (status, details) = post(&app.browser(), "", serde_json::json!({"token": token})).await;
    assert_eq!(status, 200, "{details}");
    assert_eq!(details["email"], INVITEE);
    assert_eq!(details["role"], "operations");
    assert_eq!(details["hasAccount"], false);

    let (invitee, status, body) = sign_up_from(&app, &token).await;
    assert_eq!(status, 200, "{body}");
    let (_, welcome) = invitee.live().await;
    let ServerFrame::Welcome {
        merchant,
        merchants,
        user,
        ..
    } = welcome
    else {
        unreachable!()
    };
    assert_eq!(user.email, INVITEE);
    assert_eq!(merchant.role, Role::Operations);
    assert_eq!(merchants.len(), 1, "no business of their own");
    let joined = socket
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. }
                if changes.iter().any(|c| matches!(c, Change::MemberUpserted { .. })))
        })
        .await;
    assert!(matches!(joined, ServerFrame::Delta { .. }));

    // Used: dead for a second visitor, and for looking at.
    let (_, status, body) = sign_up_from(&app, &token).await;
    assert_eq!((status, code_of(&body).as_str()), (400, "invite_invalid"));
    let db = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let (verified,): (Option<i64>,) =
        sqlx::query_as("SELECT email_verified_at FROM users WHERE email = $1")
            .bind(INVITEE)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert!(verified.is_some(), "the invited address counts as verified");
    let (stored,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM invites WHERE token_hash = $1")
        .bind(&token)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(stored, 0, "only the token's hash is kept");
}

/// Seven days by the invite clock end a link; resending makes a new one
/// (the old stays dead); revoking ends it at once.
async fn invites_expire_are_resent_and_revoked(db: Database) {
    let (app, clock) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner_socket(&app, &owner).await;
    let invite_id = common::committed_id(invite(&mut socket, "i1", INVITEE, Role::Viewer).await);
    let first = token_in_mail(&app, INVITEE).await;

    clock.advance(7 * 24 * 3600 * 1000 - 60_000);
    let (status, _) = post(&app.browser(), "", serde_json::json!({"token": first})).await;
    assert_eq!(
        status, 200,
        "a minute before the seventh day ends it still works"
    );
    clock.advance(120_000);
    let (status, body) = post(&app.browser(), "", serde_json::json!({"token": first})).await;
    assert_eq!((status, code_of(&body).as_str()), (400, "invite_invalid"));
    let (_, status, body) = sign_up_from(&app, &first).await;
    assert_eq!((status, code_of(&body).as_str()), (400, "invite_invalid"));

    let resend = Command::ResendInvite {
        invite_id: invite_id.clone(),
    };
    common::committed_id(socket.command("r1", resend).await);
    let second = newer_token_in_mail(&app, INVITEE, &first).await;
    let (status, _) = post(&app.browser(), "", serde_json::json!({"token": second})).await;
    assert_eq!(status, 200);
    let (status, _) = post(&app.browser(), "", serde_json::json!({"token": first})).await;
    assert_eq!(status, 400, "the earlier link stays dead");

    let revoke = Command::RevokeInvite { invite_id };
    common::committed_id(socket.command("v1", revoke).await);
    let (_, status, body) = sign_up_from(&app, &second).await;
    assert_eq!((status, code_of(&body).as_str()), (400, "invite_invalid"));
    let team = team_of(socket.query("t1", Query::GetTeam {}).await);
    assert!(team.invites.is_empty(), "{:?}", team.invites);
}

/// A signed-in user with another address is refused; the invited address,
/// signed in, accepts and the merchant is theirs to switch to.
async fn only_the_invited_address_accepts(db: Database) {
    let (app, _) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner_socket(&app, &owner).await;
    common::committed_id(invite(&mut socket, "i1", INVITEE, Role::Finance).await);
    let token = token_in_mail(&app, INVITEE).await;

    let stranger = app.merchant("pieter@karoo.co.za").await;
    let (status, body) = post(&stranger, "/accept", serde_json::json!({"token": token})).await;
    assert_eq!(
        (status, code_of(&body).as_str()),
        (403, "invite_wrong_address")
    );
    let (status, body) = post(
        &app.browser(),
        "/accept",
        serde_json::json!({"token": token}),
    )
    .await;
    assert_eq!((status, code_of(&body).as_str()), (401, "unauthenticated"));

    let db = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let verified = |email: &'static str| {
        let db = &db;
        async move {
            let (at,): (Option<i64>,) =
                sqlx::query_as("SELECT email_verified_at FROM users WHERE email = $1")
                    .bind(email)
                    .fetch_one(&db.pool)
                    .await
                    .unwrap();
            at.is_some()
        }
    };
    let invitee = app.merchant(INVITEE).await;
    assert!(
        !verified(INVITEE).await,
        "a new sign-up is not verified yet"
    );
    let (status, body) = post(&invitee, "/accept", serde_json::json!({"token": token})).await;
    assert_eq!(status, 200, "{body}");
    let merchant_id = body["merchantId"].as_str().unwrap().to_string();
    // The invite reached this address, so it counts as verified; the
    // stranger's refused acceptance verified nothing of theirs.
    assert!(verified(INVITEE).await);
    assert!(!verified("pieter@karoo.co.za").await);
    let (_, welcome) = on_merchant(&invitee, &merchant_id, Mode::Live).await;
    let ServerFrame::Welcome {
        merchant,
        merchants,
        ..
    } = welcome
    else {
        unreachable!()
    };
    assert_eq!(merchant.role, Role::Finance);
    assert_eq!(merchants.len(), 2, "their own business and the new team");
    let (status, _) = post(&invitee, "/accept", serde_json::json!({"token": token})).await;
    assert_eq!(status, 400, "used once");
}

/// Nobody grants past their own role: not the owner role, not above a
/// custom role's matrix; members without team access are refused; the
/// owner's role changes only by handing the ownership on.
async fn roles_are_capped_by_the_inviters_own(db: Database) {
    let (app, _) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner_socket(&app, &owner).await;
    assert_eq!(
        field_code(invite(&mut socket, "i1", INVITEE, Role::Owner).await),
        ErrorCode::InvalidChoice
    );

    // A custom role that manages the team and customers only.
    let (owner_id, merchant_id) = app.owner_ids(OWNER).await;
    let lead = app.merchant("lead@karoo.co.za").await;
    add_member(&app, OWNER, "lead@karoo.co.za", Role::Viewer).await;
    let db = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query("INSERT INTO custom_roles (id, merchant_id, name, permissions, created_at, updated_at) VALUES ('rol_lead', $1, 'Team lead', '{\"team\":\"write\",\"customers\":\"write\"}', 0, 0)")
        .bind(&merchant_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("UPDATE memberships SET role = 'custom', custom_role_id = 'rol_lead' WHERE merchant_id = $1 AND user_id <> $2")
        .bind(&merchant_id)
        .bind(&owner_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (mut lead_socket, _) = on_merchant(&lead, &merchant_id, Mode::Live).await;
    let reply = invite(&mut lead_socket, "l1", INVITEE, Role::Admin).await;
    assert_eq!(field_code(reply), ErrorCode::RoleAboveYours);
    let reply = invite(&mut lead_socket, "l2", INVITEE, Role::Viewer).await;
    assert_eq!(
        field_code(reply),
        ErrorCode::RoleAboveYours,
        "a viewer reads sections the lead cannot"
    );
    let change = Command::ChangeMemberRole {
        user_id: owner_id.clone(),
        role: Role::Viewer,
        role_id: None,
    };
    assert_eq!(
        common::error_of(lead_socket.command("l3", change).await).code,
        ErrorCode::OwnerRoleFixed
    );

    let viewer = app.merchant("viewer@karoo.co.za").await;
    add_member(&app, OWNER, "viewer@karoo.co.za", Role::Viewer).await;
    let (mut viewer_socket, _) = on_merchant(&viewer, &merchant_id, Mode::Live).await;
    let reply = invite(&mut viewer_socket, "v1", INVITEE, Role::Viewer).await;
    assert_eq!(common::error_of(reply).code, ErrorCode::Forbidden);
    assert_eq!(app.mails_to(INVITEE), 0, "no refused invite was mailed");
}

/// Removing a member closes their sockets for that merchant (4003) at
/// once, and they cannot open it again.
async fn removal_closes_the_members_sockets(db: Database) {
    let (app, _) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let member = app.merchant(INVITEE).await;
    add_member(&app, OWNER, INVITEE, Role::Operations).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (mut member_live, _) = on_merchant(&member, &merchant_id, Mode::Live).await;
    let (mut member_test, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    let (mut own, _) = member.live().await;
    let (user_id, _) = app.owner_ids(INVITEE).await;

    let mut socket = owner_socket(&app, &owner).await;
    common::committed_id(
        socket
            .command("r1", Command::RemoveMember { user_id })
            .await,
    );
    assert_eq!(member_live.closed().await, Some(4003));
    assert_eq!(
        member_test.closed().await,
        Some(4003),
        "the other mode's tab too"
    );
    let mut again = member.socket().await;
    again
        .send(&protocol::ClientFrame::Hello {
            resume: None,
            build: "test".into(),
            merchant_id: Some(merchant_id),
            mode: Some(Mode::Live),
        })
        .await;
    assert!(again.closed().await.is_some(), "no longer a member");
    // Their own business's socket stays open.
    let reply = own.query("p1", Query::GetProfile {}).await;
    assert!(matches!(reply, ServerFrame::Reply { ok: Some(_), .. }));
}

/// A member demoted while their socket is open: the tab is told its new
/// role, queries and commands of sections they lost are refused on that
/// same socket, and deltas of those sections stop arriving.
async fn a_demotion_reaches_the_open_socket(db: Database) {
    let (app, _) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let member = app.merchant(INVITEE).await;
    add_member(&app, OWNER, INVITEE, Role::Operations).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (user_id, _) = app.owner_ids(INVITEE).await;
    let (mut member_socket, _) = on_merchant(&member, &merchant_id, Mode::Live).await;
    let (mut member_test, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    let mut socket = owner_socket(&app, &owner).await;

    let change = Command::ChangeMemberRole {
        user_id,
        role: Role::Finance,
        role_id: None,
    };
    common::committed_id(socket.command("c1", change).await);
    let access = member_socket
        .next_matching(|f| matches!(f, ServerFrame::Access { .. }))
        .await;
    let ServerFrame::Access { merchant } = access else {
        unreachable!()
    };
    assert_eq!(merchant.role, Role::Finance);
    assert_eq!(merchant.permissions.customers, protocol::Access::None);

    let listed = member_socket
        .query(
            "q1",
            serde_json::from_value(serde_json::json!({"t": "ListCustomers"})).unwrap(),
        )
        .await;
    assert_eq!(common::error_of(listed).code, ErrorCode::Forbidden);
    let input = customer_input("Lerato", "lerato@example.co.za");
    let reply = member_socket
        .command("m1", Command::CreateCustomer { input })
        .await;
    assert_eq!(common::error_of(reply).code, ErrorCode::Forbidden);

    // The same member's test-mode tab follows as well.
    member_test
        .next_matching(|f| matches!(f, ServerFrame::Access { .. }))
        .await;
    let query = serde_json::json!({"t": "ListCustomers"});
    let listed = member_test
        .query("q2", serde_json::from_value(query).unwrap())
        .await;
    assert_eq!(common::error_of(listed).code, ErrorCode::Forbidden);

    let input = customer_input("Sipho", "sipho@example.co.za");
    common::committed_id(
        socket
            .command("c2", Command::CreateCustomer { input })
            .await,
    );
    let delta = member_socket
        .next_matching(|f| matches!(f, ServerFrame::Delta { .. }))
        .await;
    assert!(
        matches!(&delta, ServerFrame::Delta { changes, .. } if changes.is_empty()),
        "{delta:?}"
    );
}

/// The owner hands the ownership on with their password: exactly one
/// owner before and after, the old owner stays on as an admin.
async fn ownership_is_handed_on_with_the_password(db: Database) {
    let (app, _) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let _member = app.merchant(INVITEE).await;
    add_member(&app, OWNER, INVITEE, Role::Admin).await;
    let (owner_id, _) = app.owner_ids(OWNER).await;
    let (user_id, _) = app.owner_ids(INVITEE).await;
    let mut socket = owner_socket(&app, &owner).await;

    let wrong = Command::TransferOwnership {
        user_id: user_id.clone(),
        confirmation: "not-my-password".into(),
    };
    assert_eq!(
        field_code(socket.command("t1", wrong).await),
        ErrorCode::WrongPassword
    );
    let right = Command::TransferOwnership {
        user_id: user_id.clone(),
        confirmation: "karoo-sunset-41".into(),
    };
    common::committed_id(socket.command("t2", right).await);
    let team = team_of(socket.query("q1", Query::GetTeam {}).await);
    let owners: Vec<_> = team
        .members
        .iter()
        .filter(|m| m.role == Role::Owner)
        .collect();
    assert_eq!(owners.len(), 1);
    assert_eq!(owners[0].user_id, user_id);
    let me = team.members.iter().find(|m| m.user_id == owner_id).unwrap();
    assert_eq!(me.role, Role::Admin);
}

/// Links that work never lock an address out; dead ones do, after 20.
async fn only_dead_invite_links_count_against_an_address(db: Database) {
    let (app, _) = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner_socket(&app, &owner).await;
    common::committed_id(invite(&mut socket, "i1", INVITEE, Role::Operations).await);
    let token = token_in_mail(&app, INVITEE).await;
    // One office address: everyone opening their invite, again and again.
    let office = app.browser();
    for n in 0..25 {
        let (status, body) = post(&office, "", serde_json::json!({"token": token})).await;
        assert_eq!(status, 200, "opening {n}: {body}");
    }
    let guesser = app.browser_from(std::net::Ipv4Addr::new(127, 0, 0, 9));
    for n in 0..20 {
        let (status, body) = post(
            &guesser,
            "",
            serde_json::json!({"token": format!("guess-{n}")}),
        )
        .await;
        assert_eq!(
            (status, code_of(&body)),
            (400, "invite_invalid".into()),
            "guess {n}"
        );
    }
    let (status, body) = post(&guesser, "", serde_json::json!({"token": token})).await;
    assert_eq!((status, code_of(&body)), (429, "rate_limited".into()));
    // The office is unaffected by the other address's guesses.
    let (status, _) = post(&office, "", serde_json::json!({"token": token})).await;
    assert_eq!(status, 200);
}

on_both_databases!(
    only_dead_invite_links_count_against_an_address,
    an_invitee_signs_up_from_the_mail_once,
    invites_expire_are_resent_and_revoked,
    only_the_invited_address_accepts,
    roles_are_capped_by_the_inviters_own,
    removal_closes_the_members_sockets,
    a_demotion_reaches_the_open_socket,
    ownership_is_handed_on_with_the_password
);
