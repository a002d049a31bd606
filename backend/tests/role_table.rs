//! Every command and query the server knows, against every preset role,
//! through the real app: each is refused (`forbidden`, or `owners_only` for
//! the owner's own decisions) exactly when the routing table says the role
//! lacks what it needs, and otherwise passes the check (whatever the
//! command itself then answers). The list of variants comes from the wire
//! types, so a new command or query fails this test until it has a sample.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::team_support;

use std::collections::BTreeSet;

use common::{Browser, Database, TestApp};
use paydesk::domain::permissions::{Grant, Needs};
use paydesk::domain::routes::{command_route, query_route};
use protocol::{ErrorCode, Role, ServerFrame};
use team_support::samples::{commands, queries};
use team_support::{add_member, on_merchant_of, tag_of, wire_variants};

const OWNER: &str = "owner@karoo.co.za";

#[test]
fn every_command_and_query_has_a_sample() {
    let commands: BTreeSet<String> = commands().iter().map(tag_of).collect();
    let known: BTreeSet<String> = wire_variants("Command").into_iter().collect();
    assert_eq!(commands, known, "commands without a sample, or unknown");
    let queries: BTreeSet<String> = queries().iter().map(tag_of).collect();
    let known: BTreeSet<String> = wire_variants("Query").into_iter().collect();
    assert_eq!(queries, known, "queries without a sample, or unknown");
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

/// The refusal of a reply for the member's role, if refused for it.
fn refusal(frame: &ServerFrame) -> Option<ErrorCode> {
    match frame {
        ServerFrame::Reply {
            error: Some(error), ..
        } if matches!(error.code, ErrorCode::Forbidden | ErrorCode::OwnersOnly) => Some(error.code),
        ServerFrame::Reply { .. } => None,
        other => panic!("not a reply: {other:?}"),
    }
}

fn wanted(grant: &Grant, needs: Needs) -> Option<ErrorCode> {
    grant.check(needs).err()
}

async fn every_command_and_query_against_every_preset_role(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut checked = 0;
    for role in ROLES {
        if role == Role::Owner {
            checked += run_every_sample(&app, &owner, role).await;
        } else {
            let email = format!("{}@karoo.co.za", role.as_str());
            let member = app.merchant(&email).await;
            add_member(&app, OWNER, &email, role).await;
            checked += run_every_sample(&app, &member, role).await;
        }
    }
    assert_eq!(checked, ROLES.len() * (commands().len() + queries().len()));
}

async fn run_every_sample(app: &TestApp, browser: &Browser, role: Role) -> usize {
    let (mut socket, _) = on_merchant_of(app, OWNER, browser).await;
    let grant = Grant::preset(role).unwrap();
    let mut checked = 0;
    for (n, sample) in commands().into_iter().enumerate() {
        let expected = wanted(&grant, command_route(&sample).needs);
        let name = tag_of(&sample);
        let reply = socket.command(&format!("c{n}"), sample).await;
        assert_eq!(refusal(&reply), expected, "{role:?} {name}: {reply:?}");
        checked += 1;
    }
    for (n, sample) in queries().into_iter().enumerate() {
        let expected = wanted(&grant, query_route(&sample).needs);
        let name = tag_of(&sample);
        let reply = socket.query(&format!("q{n}"), sample).await;
        assert_eq!(refusal(&reply), expected, "{role:?} {name}: {reply:?}");
        checked += 1;
    }
    checked
}

on_both_databases!(every_command_and_query_against_every_preset_role);
