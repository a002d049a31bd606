//! Custom roles through the real app: an owner or admin defines a matrix of
//! sections × access, never past their own; a role still held by members
//! or invites is not deleted; changing a role's grants reaches its members'
//! open sockets at once (the next command refused, deltas of the sections
//! it lost no longer sent), in both modes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::members::{add_member, on_merchant};
use common::{Browser, Database, Socket, TestApp, customer_input};
use protocol::{
    Access, Command, ErrorCode, Mode, Permissions, Query, ReplyBody, Role, RoleList, Section,
    ServerFrame,
};

const OWNER: &str = "owner@karoo.co.za";
const MEMBER: &str = "thandi@karoo.co.za";

async fn owner_socket(app: &TestApp, owner: &Browser) -> Socket {
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    on_merchant(owner, &merchant_id, Mode::Live).await.0
}

fn field_code(frame: ServerFrame) -> ErrorCode {
    let error = common::error_of(frame);
    error.fields.first().map_or(error.code, |f| f.code)
}

fn grants(pairs: &[(Section, Access)]) -> Permissions {
    pairs
        .iter()
        .fold(Permissions::all(Access::None), |p, (s, a)| p.with(*s, *a))
}

async fn create_role(
    socket: &mut Socket,
    id: &str,
    name: &str,
    grants: Permissions,
) -> ServerFrame {
    let command = Command::CreateRole {
        name: name.into(),
        grants,
    };
    socket.command(id, command).await
}

async fn give_role(socket: &mut Socket, id: &str, user_id: &str, role_id: &str) -> ServerFrame {
    let command = Command::ChangeMemberRole {
        user_id: user_id.into(),
        role: Role::Custom,
        role_id: Some(role_id.into()),
    };
    socket.command(id, command).await
}

fn roles_of(frame: ServerFrame) -> RoleList {
    match frame {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Roles { roles }),
            ..
        } => *roles,
        other => panic!("roles: {other:?}"),
    }
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

/// A lead (a custom role with Team and Customers write) may define roles
/// within what they hold, and neither define nor hand out one beyond it.
async fn roles_are_capped_by_their_makers_own(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let lead = app.merchant("lead@karoo.co.za").await;
    let _member = app.merchant(MEMBER).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (member_id, _) = app.owner_ids(MEMBER).await;
    let (lead_id, _) = app.owner_ids("lead@karoo.co.za").await;
    add_member(&app, OWNER, "lead@karoo.co.za", Role::Viewer).await;
    // Support is within the lead's own role: theirs to manage.
    add_member(&app, OWNER, MEMBER, Role::Support).await;
    let mut socket = owner_socket(&app, &owner).await;

    let lead_grants = grants(&[
        (Section::Team, Access::Write),
        (Section::Customers, Access::Write),
        (Section::Payments, Access::Read),
        (Section::Settings, Access::Read),
    ]);
    let lead_role =
        common::committed_id(create_role(&mut socket, "r1", "Team lead", lead_grants).await);
    let wide = grants(&[(Section::Payments, Access::Write)]);
    let wide_role = common::committed_id(create_role(&mut socket, "r2", "Collections", wide).await);
    assert_eq!(
        field_code(create_role(&mut socket, "r3", " team LEAD ", lead_grants).await),
        ErrorCode::RoleNameTaken
    );
    assert_eq!(
        field_code(create_role(&mut socket, "r4", "  ", lead_grants).await),
        ErrorCode::Required
    );
    common::committed_id(give_role(&mut socket, "g1", &lead_id, &lead_role).await);

    let (mut lead_socket, _) = on_merchant(&lead, &merchant_id, Mode::Live).await;
    let above = grants(&[
        (Section::Customers, Access::Write),
        (Section::Payments, Access::Write),
    ]);
    assert_eq!(
        field_code(create_role(&mut lead_socket, "l1", "Helpers", above).await),
        ErrorCode::RoleAboveYours
    );
    let within = grants(&[(Section::Customers, Access::Read)]);
    let helpers =
        common::committed_id(create_role(&mut lead_socket, "l2", "Helpers", within).await);
    // Handing out a role beyond their own, or changing one.
    assert_eq!(
        field_code(give_role(&mut lead_socket, "l3", &member_id, &wide_role).await),
        ErrorCode::RoleAboveYours
    );
    let update = Command::UpdateRole {
        role_id: wide_role.clone(),
        name: "Collections".into(),
        grants: Permissions::all(Access::None),
    };
    assert_eq!(
        common::error_of(lead_socket.command("l4", update).await).code,
        ErrorCode::RoleAboveYours
    );
    let update = Command::UpdateRole {
        role_id: helpers.clone(),
        name: "Helpers".into(),
        grants: above,
    };
    assert_eq!(
        field_code(lead_socket.command("l5", update).await),
        ErrorCode::RoleAboveYours
    );
    common::committed_id(give_role(&mut lead_socket, "l6", &member_id, &helpers).await);
    let invite = Command::InviteMember {
        email: "sipho@karoo.co.za".into(),
        role: Role::Custom,
        role_id: Some(wide_role.clone()),
    };
    assert_eq!(
        field_code(lead_socket.command("l7", invite).await),
        ErrorCode::RoleAboveYours
    );
    // A custom role without its id is no choice at all.
    let invite = Command::InviteMember {
        email: "sipho@karoo.co.za".into(),
        role: Role::Custom,
        role_id: None,
    };
    assert_eq!(
        field_code(lead_socket.command("l8", invite).await),
        ErrorCode::InvalidChoice
    );

    // Everyone with Team read sees the presets and the merchant's own roles.
    let listed = roles_of(lead_socket.query("q1", Query::ListRoles {}).await);
    assert_eq!(listed.presets.len(), Role::PRESETS.len());
    let names: Vec<_> = listed.custom.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Collections", "Helpers", "Team lead"]);
    let team = team_of(socket.query("q2", Query::GetTeam {}).await);
    let member = team
        .members
        .iter()
        .find(|m| m.user_id == member_id)
        .unwrap();
    assert_eq!(member.role, Role::Custom);
    assert_eq!(member.role_name.as_deref(), Some("Helpers"));
    assert_eq!(member.role_id.as_deref(), Some(helpers.as_str()));
    assert_eq!(member.permissions, within);

    // A member without Team write defines nothing.
    let (mut member_socket, _) = on_merchant(&_member, &merchant_id, Mode::Live).await;
    assert_eq!(
        common::error_of(create_role(&mut member_socket, "m1", "Mine", within).await).code,
        ErrorCode::Forbidden
    );
}

/// A role held by a member, or offered by an open invite, is not deleted;
/// once nobody holds it, it is, and the history names who did each step.
async fn a_role_in_use_is_not_deleted(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let _member = app.merchant(MEMBER).await;
    add_member(&app, OWNER, MEMBER, Role::Viewer).await;
    let (member_id, _) = app.owner_ids(MEMBER).await;
    let mut socket = owner_socket(&app, &owner).await;
    let reader = grants(&[(Section::Customers, Access::Read)]);
    let role = common::committed_id(create_role(&mut socket, "r1", "Readers", reader).await);
    common::committed_id(give_role(&mut socket, "g1", &member_id, &role).await);

    let delete = || Command::DeleteRole {
        role_id: role.clone(),
    };
    assert_eq!(
        common::error_of(socket.command("d1", delete()).await).code,
        ErrorCode::RoleInUse
    );
    let invite = Command::InviteMember {
        email: "sipho@karoo.co.za".into(),
        role: Role::Custom,
        role_id: Some(role.clone()),
    };
    let invite_id = common::committed_id(socket.command("i1", invite).await);
    let team = team_of(socket.query("q1", Query::GetTeam {}).await);
    assert_eq!(team.invites[0].role_name.as_deref(), Some("Readers"));
    let back = Command::ChangeMemberRole {
        user_id: member_id.clone(),
        role: Role::Viewer,
        role_id: None,
    };
    common::committed_id(socket.command("g2", back).await);
    assert_eq!(
        common::error_of(socket.command("d2", delete()).await).code,
        ErrorCode::RoleInUse,
        "the open invite still offers it"
    );
    common::committed_id(
        socket
            .command("i2", Command::RevokeInvite { invite_id })
            .await,
    );
    common::committed_id(socket.command("d3", delete()).await);
    let listed = roles_of(socket.query("q2", Query::ListRoles {}).await);
    assert!(listed.custom.is_empty());

    // Each step is one entry of the history, by the owner.
    let history = socket
        .query(
            "h1",
            serde_json::from_value(serde_json::json!({"t": "ListHistory"})).unwrap(),
        )
        .await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::HistoryPage { items, .. }),
        ..
    } = history
    else {
        panic!("history: {history:?}")
    };
    let steps: Vec<_> = items
        .iter()
        .filter(|e| e.record_kind == "role")
        .map(|e| (e.action, e.actor_name.clone().unwrap_or_default()))
        .collect();
    assert_eq!(
        steps,
        [
            (protocol::HistoryAction::Removed, "Thandi Nkosi".to_string()),
            (protocol::HistoryAction::Created, "Thandi Nkosi".to_string()),
        ]
    );
}

/// Changing a role's grants reaches the open sockets of every member who
/// holds it, in both modes: the tab is told, the next command of a section
/// it lost is refused, and deltas of that section stop arriving.
async fn new_grants_reach_the_holders_open_sockets(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let member = app.merchant(MEMBER).await;
    add_member(&app, OWNER, MEMBER, Role::Viewer).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (member_id, _) = app.owner_ids(MEMBER).await;
    let mut socket = owner_socket(&app, &owner).await;
    let clerks = grants(&[(Section::Customers, Access::Write)]);
    let role = common::committed_id(create_role(&mut socket, "r1", "Clerks", clerks).await);
    common::committed_id(give_role(&mut socket, "g1", &member_id, &role).await);
    let (mut live, _) = on_merchant(&member, &merchant_id, Mode::Live).await;
    let (mut test, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    let input = customer_input("Lerato", "lerato@example.co.za");
    common::committed_id(live.command("m1", Command::CreateCustomer { input }).await);

    let narrower = grants(&[(Section::Payments, Access::Read)]);
    let update = Command::UpdateRole {
        role_id: role.clone(),
        name: "Clerks".into(),
        grants: narrower,
    };
    common::committed_id(socket.command("u1", update).await);
    for tab in [&mut live, &mut test] {
        let access = tab
            .next_matching(|f| matches!(f, ServerFrame::Access { .. }))
            .await;
        let ServerFrame::Access { merchant } = access else {
            unreachable!()
        };
        assert_eq!(merchant.role, Role::Custom);
        assert_eq!(merchant.permissions, narrower);
    }
    let input = customer_input("Sipho", "sipho@example.co.za");
    let refused = live.command("m2", Command::CreateCustomer { input }).await;
    assert_eq!(common::error_of(refused).code, ErrorCode::Forbidden);
    let query = serde_json::json!({"t": "ListCustomers"});
    let listed = test
        .query("q1", serde_json::from_value(query).unwrap())
        .await;
    assert_eq!(common::error_of(listed).code, ErrorCode::Forbidden);

    // The owner's next customer is not sent to the member's tab.
    let input = customer_input("Naledi", "naledi@example.co.za");
    let reply = socket
        .command("c1", Command::CreateCustomer { input })
        .await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::Committed { seq, .. }),
        ..
    } = reply
    else {
        panic!("commit: {reply:?}")
    };
    let delta = live
        .next_matching(|f| matches!(f, ServerFrame::Delta { seq: s, .. } if *s == seq))
        .await;
    assert!(
        matches!(&delta, ServerFrame::Delta { changes, .. } if changes.is_empty()),
        "{delta:?}"
    );
}

/// An invite may offer one of the merchant's own roles: the invitee joins
/// holding it, and the invite page names it.
async fn an_invite_offers_a_custom_role(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner_socket(&app, &owner).await;
    let clerks = grants(&[(Section::Customers, Access::Write)]);
    let role = common::committed_id(create_role(&mut socket, "r1", "Clerks", clerks).await);
    let invite = Command::InviteMember {
        email: MEMBER.into(),
        role: Role::Custom,
        role_id: Some(role.clone()),
    };
    common::committed_id(socket.command("i1", invite).await);
    let link = app.link_in_mail(MEMBER, "/account/teams/invite/").await;
    let token = link.rsplit('/').next().unwrap().to_string();

    let browser = app.browser();
    let csrf = browser.csrf().await;
    let details = browser
        .http
        .post(format!("{}/api/auth/invite", browser.base))
        .json(&serde_json::json!({"token": token, "csrfToken": csrf}))
        .send()
        .await
        .unwrap();
    let details: serde_json::Value = details.json().await.unwrap();
    assert!(
        details.to_string().contains("\"roleName\":\"Clerks\""),
        "{details}"
    );
    let mut body = serde_json::json!({"token": token, "name": "Thandi Dube",
        "password": "karoo-sunset-41"});
    body["csrfToken"] = browser.csrf().await.into();
    let joined = browser
        .http
        .post(format!("{}/api/auth/invite/signup", browser.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 200);

    let team = team_of(socket.query("q1", Query::GetTeam {}).await);
    let member = team.members.iter().find(|m| m.email == MEMBER).unwrap();
    assert_eq!(member.role, Role::Custom);
    assert_eq!(member.role_id.as_deref(), Some(role.as_str()));
    assert_eq!(member.permissions, clerks);
}

/// Waits until the tab is told it holds `role`, named `name`.
async fn told(tab: &mut Socket, role: Role, name: Option<&str>) {
    // A change may reach a tab twice (its stream's delta, the team's
    // news): the last word is the one that counts, so wait for it.
    loop {
        let access = tab
            .next_matching(|f| matches!(f, ServerFrame::Access { .. }))
            .await;
        let ServerFrame::Access { merchant } = access else {
            unreachable!()
        };
        if merchant.role == role && merchant.role_name.as_deref() == name {
            return;
        }
    }
}

/// A tab is told the name of the role it now holds: a member moved from a
/// preset to a custom role, then that role renamed, then back to a preset,
/// in both modes (the other mode's tab hears of it apart from the delta).
async fn a_tab_is_told_its_new_roles_name(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let member = app.merchant(MEMBER).await;
    add_member(&app, OWNER, MEMBER, Role::Viewer).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (member_id, _) = app.owner_ids(MEMBER).await;
    let mut socket = owner_socket(&app, &owner).await;
    let (mut live, _) = on_merchant(&member, &merchant_id, Mode::Live).await;
    let (mut test, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    let clerks = grants(&[(Section::Customers, Access::Write)]);
    let role = common::committed_id(create_role(&mut socket, "r1", "Clerks", clerks).await);
    common::committed_id(give_role(&mut socket, "g1", &member_id, &role).await);
    told(&mut live, Role::Custom, Some("Clerks")).await;
    told(&mut test, Role::Custom, Some("Clerks")).await;

    let rename = Command::UpdateRole {
        role_id: role.clone(),
        name: "Night clerks".into(),
        grants: clerks,
    };
    common::committed_id(socket.command("u1", rename).await);
    told(&mut live, Role::Custom, Some("Night clerks")).await;
    told(&mut test, Role::Custom, Some("Night clerks")).await;

    let back = Command::ChangeMemberRole {
        user_id: member_id.clone(),
        role: Role::Support,
        role_id: None,
    };
    common::committed_id(socket.command("c1", back).await);
    told(&mut live, Role::Support, None).await;
    told(&mut test, Role::Support, None).await;
}

on_both_databases!(
    roles_are_capped_by_their_makers_own,
    a_role_in_use_is_not_deleted,
    new_grants_reach_the_holders_open_sockets,
    a_tab_is_told_its_new_roles_name,
    an_invite_offers_a_custom_role
);
