//! The permission table through the real app: a member of each preset role
//! runs commands and queries of several sections on another person's
//! merchant, and the server answers each as the role allows (`forbidden`
//! otherwise, `owners_only` for the owner's own decisions). Also: a refused
//! command writes nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Browser, Database, Socket, TestApp, customer_input};
use protocol::{Command, ErrorCode, Query, ReplyBody, Role, ServerFrame};

const OWNER: &str = "owner@karoo.co.za";

/// Makes `email` (signed up with a merchant of their own) a member of the
/// owner's merchant with `role`.
async fn add_member(app: &TestApp, email: &str, role: Role) {
    common::members::add_member(app, OWNER, email, role).await;
}

/// A socket of `browser` on the owner's merchant, with its welcome.
async fn on_owners_merchant(app: &TestApp, browser: &Browser) -> (Socket, ServerFrame) {
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    common::members::on_merchant(browser, &merchant_id, protocol::Mode::Test).await
}

fn query(json: serde_json::Value) -> Query {
    serde_json::from_value(json).unwrap()
}

/// The refusal of a reply, if it was refused for the member's role.
fn refusal(frame: &ServerFrame) -> Option<ErrorCode> {
    match frame {
        ServerFrame::Reply {
            error: Some(error), ..
        } if matches!(error.code, ErrorCode::Forbidden | ErrorCode::OwnersOnly) => Some(error.code),
        ServerFrame::Reply { error: Some(e), .. } => panic!("unexpected error {e:?}"),
        _ => None,
    }
}

const ROLES: [Role; 7] = [
    Role::Owner,
    Role::Admin,
    Role::Operations,
    Role::Finance,
    Role::Developer,
    Role::Support,
    Role::Viewer,
];

/// What each preset role may do, per the product's definition of the roles,
/// in the order of `ROLES`: Owner, Admin, Operations, Finance, Developer,
/// Support, Viewer.
const PROBES: [(&str, [bool; 7]); 9] = [
    (
        "create_customer",
        [true, true, true, false, false, true, false],
    ),
    (
        "list_customers",
        [true, true, true, false, false, true, true],
    ),
    (
        "get_business_info",
        [true, true, true, true, true, true, true],
    ),
    (
        "update_business_info",
        [true, true, false, false, false, false, false],
    ),
    (
        "list_transactions",
        [true, true, false, true, false, false, true],
    ),
    (
        "get_dashboard",
        [true, true, false, true, false, false, true],
    ),
    ("list_payments", [true, true, true, false, true, true, true]),
    (
        "list_pay_pages",
        [true, true, true, false, false, false, true],
    ),
    (
        "require_two_factor",
        [true, false, false, false, false, false, false],
    ),
];

async fn probe(socket: &mut Socket, name: &str, n: usize) -> ServerFrame {
    let id = format!("{name}_{n}");
    match name {
        "create_customer" => {
            let input = customer_input(&format!("Probe {n}"), &format!("p{n}@example.co.za"));
            socket.command(&id, Command::CreateCustomer { input }).await
        }
        "list_customers" => {
            socket
                .query(&id, query(serde_json::json!({"t": "ListCustomers"})))
                .await
        }
        "get_business_info" => socket.query(&id, Query::GetBusinessInfo {}).await,
        "update_business_info" => {
            // What is stored with the required names filled in: valid, so an
            // allowed member's save commits.
            let info = match socket
                .query(&format!("{id}_read"), Query::GetBusinessInfo {})
                .await
            {
                ServerFrame::Reply {
                    ok: Some(ReplyBody::BusinessInfo { info, .. }),
                    ..
                } => *info,
                other => panic!("business info: {other:?}"),
            };
            let info = protocol::BusinessInfo {
                legal_name: format!("Karoo Gym {n} (Pty) Ltd"),
                statement_name: "KAROO GYM".into(),
                ..info
            };
            socket
                .command(
                    &id,
                    Command::UpdateBusinessInfo {
                        info,
                        base_version: None,
                    },
                )
                .await
        }
        "list_transactions" => {
            socket
                .query(&id, query(serde_json::json!({"t": "ListTransactions"})))
                .await
        }
        "get_dashboard" => socket.query(&id, Query::GetDashboard {}).await,
        "list_payments" => {
            let q = query(serde_json::json!({"t": "ListPayments", "kind": "once"}));
            socket.query(&id, q).await
        }
        "list_pay_pages" => {
            socket
                .query(&id, query(serde_json::json!({"t": "ListPayPages"})))
                .await
        }
        "require_two_factor" => {
            socket
                .command(&id, Command::RequireTwoFactor { required: false })
                .await
        }
        other => panic!("no probe {other}"),
    }
}

async fn each_preset_role_is_answered_by_the_table(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    for (n, role) in ROLES.into_iter().enumerate() {
        // The owner probes as themselves; every other role is a new member.
        let (mut socket, welcome) = if role == Role::Owner {
            on_owners_merchant(&app, &owner).await
        } else {
            let email = format!("{}@karoo.co.za", role.as_str());
            let member = app.merchant(&email).await;
            add_member(&app, &email, role).await;
            on_owners_merchant(&app, &member).await
        };
        let ServerFrame::Welcome { merchant, .. } = welcome else {
            unreachable!()
        };
        assert_eq!(merchant.role, role);
        let expected = paydesk::domain::permissions::preset(role).unwrap();
        assert_eq!(merchant.permissions, expected, "{role:?} welcome");
        for (name, allowed) in PROBES {
            let reply = probe(&mut socket, name, n).await;
            let refused = refusal(&reply);
            assert_eq!(refused.is_none(), allowed[n], "{role:?} {name}: {reply:?}");
            if let Some(code) = refused {
                let wanted = if name == "require_two_factor" {
                    ErrorCode::OwnersOnly
                } else {
                    ErrorCode::Forbidden
                };
                assert_eq!(code, wanted, "{role:?} {name}");
            }
        }
    }
}

/// A refused command writes nothing: no customer appears for anyone.
async fn a_refused_command_changes_nothing(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let finance = app.merchant("finance@karoo.co.za").await;
    add_member(&app, "finance@karoo.co.za", Role::Finance).await;
    let (mut member, _) = on_owners_merchant(&app, &finance).await;
    let input = customer_input("Sipho", "sipho@example.co.za");
    let reply = member
        .command("c1", Command::CreateCustomer { input })
        .await;
    assert_eq!(common::error_of(reply).code, ErrorCode::Forbidden);
    let (mut socket, _) = on_owners_merchant(&app, &owner).await;
    let listed = socket
        .query("l1", query(serde_json::json!({"t": "ListCustomers"})))
        .await;
    match listed {
        ServerFrame::Reply {
            ok: Some(ReplyBody::CustomerPage { items, .. }),
            ..
        } => assert!(items.is_empty(), "{items:?}"),
        other => panic!("customers: {other:?}"),
    }
}

/// The changes of the next delta a socket receives.
async fn next_delta(socket: &mut Socket) -> Vec<protocol::Change> {
    match socket
        .next_matching(|f| matches!(f, ServerFrame::Delta { .. }))
        .await
    {
        ServerFrame::Delta { changes, .. } => changes,
        _ => unreachable!(),
    }
}

/// A member's sockets get only the changes of sections their role reads:
/// finance sees the business info change but not the new customer, whose
/// delta reaches them empty (so their position stays contiguous).
async fn deltas_of_unreadable_sections_are_not_sent(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let finance = app.merchant("finance@karoo.co.za").await;
    add_member(&app, "finance@karoo.co.za", Role::Finance).await;
    let support = app.merchant("support@karoo.co.za").await;
    add_member(&app, "support@karoo.co.za", Role::Support).await;
    let (mut owner_socket, _) = on_owners_merchant(&app, &owner).await;
    let (mut finance_socket, _) = on_owners_merchant(&app, &finance).await;
    let (mut support_socket, _) = on_owners_merchant(&app, &support).await;

    let input = customer_input("Sipho", "sipho@example.co.za");
    common::committed_id(
        owner_socket
            .command("c1", Command::CreateCustomer { input })
            .await,
    );
    assert_eq!(next_delta(&mut finance_socket).await, vec![]);
    let to_support = next_delta(&mut support_socket).await;
    assert!(
        matches!(
            to_support.as_slice(),
            [protocol::Change::CustomerUpserted { .. }]
        ),
        "{to_support:?}"
    );

    let info = protocol::BusinessInfo {
        legal_name: "Karoo Gym (Pty) Ltd".into(),
        statement_name: "KAROO GYM".into(),
        ..Default::default()
    };
    let reply = owner_socket
        .command(
            "b1",
            Command::UpdateBusinessInfo {
                info,
                base_version: None,
            },
        )
        .await;
    common::committed_id(reply);
    let to_finance = next_delta(&mut finance_socket).await;
    assert!(
        matches!(
            to_finance.as_slice(),
            [protocol::Change::BusinessInfoUpdated { .. }]
        ),
        "{to_finance:?}"
    );
}

/// Sets a member's role as the row holds it (changing roles from the team
/// screen is still to come; this is the state such a change leaves).
async fn set_role(app: &TestApp, email: &str, role: Role) {
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (user_id, _) = app.owner_ids(email).await;
    let db = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query("UPDATE memberships SET role = $1 WHERE merchant_id = $2 AND user_id = $3")
        .bind(role.as_str())
        .bind(&merchant_id)
        .bind(&user_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// A member demoted while their socket is open is refused from their next
/// command on, on that same socket, and nothing is written.
async fn a_demotion_takes_effect_on_the_next_command(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let ops = app.merchant("ops@karoo.co.za").await;
    add_member(&app, "ops@karoo.co.za", Role::Operations).await;
    let (mut socket, _) = on_owners_merchant(&app, &ops).await;
    let input = customer_input("Sipho", "sipho@example.co.za");
    common::committed_id(
        socket
            .command("c1", Command::CreateCustomer { input })
            .await,
    );

    set_role(&app, "ops@karoo.co.za", Role::Viewer).await;
    let input = customer_input("Lerato", "lerato@example.co.za");
    let reply = socket
        .command("c2", Command::CreateCustomer { input })
        .await;
    assert_eq!(common::error_of(reply).code, ErrorCode::Forbidden);

    let (mut owner_socket, _) = on_owners_merchant(&app, &owner).await;
    let listed = owner_socket
        .query("l1", query(serde_json::json!({"t": "ListCustomers"})))
        .await;
    match listed {
        ServerFrame::Reply {
            ok: Some(ReplyBody::CustomerPage { items, .. }),
            ..
        } => assert_eq!(items.len(), 1, "{items:?}"),
        other => panic!("customers: {other:?}"),
    }
}

on_both_databases!(
    a_demotion_takes_effect_on_the_next_command,
    deltas_of_unreadable_sections_are_not_sent,
    each_preset_role_is_answered_by_the_table,
    a_refused_command_changes_nothing
);
