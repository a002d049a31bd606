//! A token lives no longer, and reaches no further, than whoever made it:
//! removing a member revokes the tokens they made (in both modes, and the
//! tokens those made); a token makes or rolls no token wider, longer-lived
//! or open to more addresses than itself; revoking a token revokes those it
//! made, however deep.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support;
use crate::common;

use api_support::{Api, grants, token_of, token_socket};
use common::members::{add_member, on_merchant};
use common::{Browser, Database, Socket, TestApp, error_of};
use protocol::{
    Access, ApiToken, ApiTokenState, Change, Command, ErrorCode, Mode, Permissions, Query,
    ReplyBody, Role, Section, ServerFrame,
};

const OWNER: &str = "olivia@karoo.co.za";
const MEMBER: &str = "thandi@karoo.co.za";
const DAY_MS: i64 = 24 * 3600 * 1000;

fn customers_and_tokens() -> Permissions {
    grants(&[
        (Section::Customers, Access::Write),
        (Section::Developers, Access::Write),
    ])
}

fn create(name: &str, mode: Mode, permissions: Permissions) -> Command {
    Command::CreateApiToken {
        name: name.into(),
        mode,
        permissions,
        expires_at: None,
        allowed_addresses: Vec::new(),
    }
}

/// Makes a token with `command` on `socket`: the token and its secret.
async fn made(socket: &mut Socket, id: &str, command: Command) -> (ApiToken, String) {
    let (token, secret) = token_of(socket.command(id, command).await);
    (token, secret.expect("a new token's secret"))
}

/// Whether the token's secret still opens the API.
async fn opens(app: &TestApp, secret: &str) -> bool {
    let answer = Api::new(app, secret).get("/customers").await;
    match answer.status {
        200 => true,
        401 => false,
        other => panic!("{other}: {}", answer.json),
    }
}

async fn listed(socket: &mut Socket) -> Vec<ApiToken> {
    match socket.query("tokens", Query::ListApiTokens {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokens { tokens }),
            ..
        } => tokens,
        other => panic!("{other:?}"),
    }
}

/// The ids of the tokens the next delta carrying any tells as revoked.
async fn revoked_in_next_delta(socket: &mut Socket) -> Vec<String> {
    let is_revoked = |c: &Change| matches!(c, Change::ApiTokenUpserted { token } if token.state == ApiTokenState::Revoked);
    let delta = socket
        .next_matching(
            |f| matches!(f, ServerFrame::Delta { changes, .. } if changes.iter().any(is_revoked)),
        )
        .await;
    let ServerFrame::Delta { changes, .. } = delta else {
        unreachable!()
    };
    let mut ids: Vec<String> = changes
        .iter()
        .filter_map(|c| match c {
            Change::ApiTokenUpserted { token } if token.state == ApiTokenState::Revoked => {
                Some(token.id.clone())
            }
            _ => None,
        })
        .collect();
    ids.sort();
    ids
}

fn sorted(mut ids: Vec<String>) -> Vec<String> {
    ids.sort();
    ids
}

/// A member made a token in each mode, and their test token made one of
/// its own. Removed from the team, all three stop working at once: the
/// tabs of both modes hear of them (the test one on its own stream), the
/// test token's open socket closes, and the list shows them revoked under
/// the member's name. The owner's token keeps working.
/// The owner's business with an admin member: both signed in.
struct Team {
    app: TestApp,
    owner: Browser,
    member: Browser,
    merchant_id: String,
    member_id: String,
}

async fn team(db: Database) -> Team {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let member = app.merchant(MEMBER).await;
    add_member(&app, OWNER, MEMBER, Role::Admin).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let (member_id, _) = app.owner_ids(MEMBER).await;
    Team {
        app,
        owner,
        member,
        merchant_id,
        member_id,
    }
}

async fn removing_a_member_revokes_the_tokens_they_made(db: Database) {
    let Team {
        app,
        owner,
        member,
        merchant_id,
        member_id,
    } = team(db).await;
    let mut owner_test = owner.open(Mode::Test).await;
    let owners_command = create("Owner's", Mode::Test, customers_and_tokens());
    let (owners_token, owners) = made(&mut owner_test, "o1", owners_command).await;

    let (mut member_test, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    let (mut member_live, _) = on_merchant(&member, &merchant_id, Mode::Live).await;
    let test_command = create("Thandi's shop", Mode::Test, customers_and_tokens());
    let (test_token, test_secret) = made(&mut member_test, "m1", test_command).await;
    let live_command = create("Thandi's till", Mode::Live, customers_and_tokens());
    let (live_token, live_secret) = made(&mut member_live, "m2", live_command).await;
    let mut by_token = token_socket(&app, &test_secret).await;
    let child_command = create("Made by the shop", Mode::Test, customers_and_tokens());
    let (child, child_secret) = made(&mut by_token, "t1", child_command).await;
    for secret in [&test_secret, &live_secret, &child_secret, &owners] {
        assert!(opens(&app, secret).await);
    }

    let mut owner_live = owner.open(Mode::Live).await;
    let remove = Command::RemoveMember {
        user_id: member_id.clone(),
    };
    common::committed_id(owner_live.command("r1", remove).await);

    let live_ids = revoked_in_next_delta(&mut owner_live).await;
    assert_eq!(live_ids, vec![live_token.id]);
    let test_ids = sorted(vec![test_token.id.clone(), child.id.clone()]);
    assert_eq!(revoked_in_next_delta(&mut owner_test).await, test_ids);
    assert_eq!(by_token.closed().await, Some(4003));
    for secret in [&test_secret, &live_secret, &child_secret] {
        assert!(
            !opens(&app, secret).await,
            "a removed member's token still opens"
        );
    }
    assert!(
        opens(&app, &owners).await,
        "the owner's token is the owner's"
    );
    for token in listed(&mut owner_test).await {
        if token.id == test_token.id {
            assert_eq!(token.created_by_name, "Thandi Nkosi");
        }
        let expected = if token.id == owners_token.id {
            ApiTokenState::Active
        } else {
            ApiTokenState::Revoked
        };
        assert_eq!(token.state, expected, "{}", token.name);
    }
}

/// A token with an end and an allow-list makes and rolls only tokens that
/// are nothing more: no section it lacks, no later end (nor none), no
/// address it does not let in. The owner's wider token cannot be rolled by
/// it either (the new secret would open more than it may).
async fn a_token_makes_nothing_more_than_itself(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let ends = paydesk::ids::now_ms() + 30 * DAY_MS;
    let parent = Command::CreateApiToken {
        name: "Shop".into(),
        mode: Mode::Test,
        permissions: customers_and_tokens(),
        expires_at: Some(ends),
        allowed_addresses: vec!["127.0.0.0/8".into()],
    };
    let (_, secret) = made(&mut socket, "p", parent).await;
    let all = Permissions::all(Access::Write);
    let (wide, _) = made(&mut socket, "w", create("Wide", Mode::Test, all)).await;
    let mut shop = token_socket(&app, &secret).await;

    let child = |permissions: Permissions, expires_at: Option<i64>, addresses: &[&str]| {
        Command::CreateApiToken {
            name: "Child".into(),
            mode: Mode::Test,
            permissions,
            expires_at,
            allowed_addresses: addresses.iter().map(|a| a.to_string()).collect(),
        }
    };
    let reads = grants(&[(Section::Customers, Access::Read)]);
    let wider = grants(&[(Section::Payments, Access::Write)]);
    let early = Some(ends - DAY_MS);
    let refused = [
        (child(wider, early, &["127.0.0.1"]), None),
        (child(reads, None, &["127.0.0.1"]), Some("expiresAt")),
        (
            child(reads, Some(ends + DAY_MS), &["127.0.0.1"]),
            Some("expiresAt"),
        ),
        (child(reads, early, &[]), Some("allowedAddresses")),
        (child(reads, early, &["10.0.0.1"]), Some("allowedAddresses")),
    ];
    for (n, (command, field)) in refused.into_iter().enumerate() {
        let error = error_of(shop.command(&format!("c{n}"), command).await);
        match field {
            None => assert_eq!(error.code, ErrorCode::Forbidden, "{n}"),
            Some(field) => {
                assert_eq!(error.fields.len(), 1, "{n}: {error:?}");
                assert_eq!(error.fields[0].field, field, "{n}");
                assert_eq!(error.fields[0].code, ErrorCode::Forbidden, "{n}");
            }
        }
    }
    let (kept, _) = made(&mut shop, "ok", child(reads, early, &["127.0.0.1"])).await;
    assert_eq!(kept.expires_at, early);

    let roll = |token_id: &str| Command::RollApiToken {
        token_id: token_id.to_string(),
        grace_hours: 0,
    };
    assert_eq!(
        error_of(shop.command("r1", roll(&wide.id)).await).code,
        ErrorCode::Forbidden
    );
    let (rolled, new_secret) = token_of(shop.command("r2", roll(&kept.id)).await);
    assert_eq!(rolled.id, kept.id);
    assert!(new_secret.is_some());
    // A person rolls whatever their own matrix covers.
    token_of(socket.command("r3", roll(&wide.id)).await);
}

/// The owner's token made one, which made another: revoking the first
/// revokes all three in one event, and the middle one's socket closes.
async fn revoking_a_token_revokes_those_it_made(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let (first, first_secret) = made(
        &mut socket,
        "a",
        create("First", Mode::Test, customers_and_tokens()),
    )
    .await;
    let mut by_first = token_socket(&app, &first_secret).await;
    let (second, second_secret) = made(
        &mut by_first,
        "b",
        create("Second", Mode::Test, customers_and_tokens()),
    )
    .await;
    let mut by_second = token_socket(&app, &second_secret).await;
    let (third, third_secret) = made(
        &mut by_second,
        "c",
        create("Third", Mode::Test, customers_and_tokens()),
    )
    .await;
    let (other, other_secret) = made(
        &mut socket,
        "d",
        create("Other", Mode::Test, customers_and_tokens()),
    )
    .await;

    let revoke = Command::RevokeApiToken {
        token_id: first.id.clone(),
    };
    let (revoked, _) = token_of(socket.command("revoke", revoke).await);
    assert_eq!(revoked.state, ApiTokenState::Revoked);
    let all = sorted(vec![first.id.clone(), second.id.clone(), third.id.clone()]);
    assert_eq!(revoked_in_next_delta(&mut socket).await, all);
    assert_eq!(by_second.closed().await, Some(4003));
    for secret in [&first_secret, &second_secret, &third_secret] {
        assert!(!opens(&app, secret).await);
    }
    assert!(opens(&app, &other_secret).await);
    let states: Vec<(String, ApiTokenState)> = listed(&mut socket)
        .await
        .into_iter()
        .map(|t| (t.id, t.state))
        .collect();
    assert!(
        states.contains(&(other.id, ApiTokenState::Active)),
        "{states:?}"
    );
    assert!(
        states.contains(&(third.id, ApiTokenState::Revoked)),
        "{states:?}"
    );
}

/// Databases from before these rules hold tokens of members already
/// removed and tokens whose maker was revoked: the migration revokes them,
/// and those they made, and leaves every other token working.
async fn the_migration_revokes_tokens_left_behind(db: Database) {
    let migration = match &db {
        Database::Sqlite => include_str!("../../migrations/sqlite/0035_tokens_outlive_no_one.sql"),
        Database::Postgres(_) => {
            include_str!("../../migrations/postgres/0035_tokens_outlive_no_one.sql")
        }
    };
    let Team {
        app,
        owner,
        member,
        merchant_id,
        member_id,
    } = team(db).await;
    let (mut member_test, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    let (_, members) = made(
        &mut member_test,
        "m",
        create("Member's", Mode::Test, customers_and_tokens()),
    )
    .await;
    let mut socket = owner.open(Mode::Test).await;
    let (maker, maker_secret) = made(
        &mut socket,
        "a",
        create("Maker", Mode::Test, customers_and_tokens()),
    )
    .await;
    let mut by_maker = token_socket(&app, &maker_secret).await;
    let (_, made_secret) = made(
        &mut by_maker,
        "b",
        create("Made", Mode::Test, customers_and_tokens()),
    )
    .await;
    let (_, kept) = made(
        &mut socket,
        "k",
        create("Kept", Mode::Test, customers_and_tokens()),
    )
    .await;
    let mut by_kept = token_socket(&app, &kept).await;
    let (_, kept_child) = made(
        &mut by_kept,
        "c",
        create("Kept's", Mode::Test, customers_and_tokens()),
    )
    .await;

    // What the product did before: the membership went, the tokens stayed;
    // the maker was revoked alone.
    let store = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query("DELETE FROM memberships WHERE merchant_id = $1 AND user_id = $2")
        .bind(&merchant_id)
        .bind(&member_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("UPDATE api_tokens SET revoked_at = 1 WHERE id = $1")
        .bind(&maker.id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert!(opens(&app, &members).await && opens(&app, &made_secret).await);

    let mut tx = store.begin_write().await.unwrap();
    sqlx::raw_sql(sqlx::AssertSqlSafe(migration))
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert!(!opens(&app, &members).await, "a removed member's token");
    assert!(!opens(&app, &made_secret).await, "a revoked token's");
    assert!(opens(&app, &kept).await && opens(&app, &kept_child).await);
}

on_both_databases!(
    the_migration_revokes_tokens_left_behind,
    removing_a_member_revokes_the_tokens_they_made,
    a_token_makes_nothing_more_than_itself,
    revoking_a_token_revokes_those_it_made,
);
