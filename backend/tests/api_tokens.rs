//! API tokens over the real socket: made with a secret shown once (the
//! reply kept for retries has none, the database only a keyed hash), listed
//! with their prefix and creator, rolled with a grace period, revoked; each
//! one event caused by the member; members without developer access are
//! refused, and another merchant's token is not found.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support;
use crate::common;

use api_support::{code_of, create, grants, make_token, token_of};
use common::{Database, TestApp, error_of};
use paydesk::auth::keys::ServerKey;
use paydesk::store::Db;
use protocol::{
    Access, ApiTokenState, Change, Command, ErrorCode, Mode, Query, ReplyBody, Section, ServerFrame,
};

const OWNER: &str = "owner@example.co.za";

async fn start(db: Database) -> TestApp {
    let key = ServerKey::generate().unwrap();
    TestApp::start_with(db, move |config| config.secret_key = Some(key)).await
}

async fn text_of_table(db: &Db, sql: &str) -> String {
    let rows: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_all(&db.pool)
        .await
        .unwrap();
    rows.join("\n")
}

async fn stored_reply(db: &Db, command_id: &str) -> Vec<u8> {
    sqlx::query_scalar("SELECT reply FROM command_results WHERE command_id = $1")
        .bind(command_id)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

async fn tokens_are_made_listed_rolled_and_revoked(db: Database) {
    let app = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let store = Db::connect(&app.database_url).await.unwrap();
    let read_payments = grants(&[(Section::Payments, Access::Read)]);

    // Made: the secret, once, with the mode's prefix.
    let (token, secret) = make_token(&mut socket, "shop", Mode::Test, read_payments).await;
    assert!(secret.starts_with("pdk_test_"), "{secret}");
    assert!(secret.starts_with(&token.prefix));
    assert_eq!(token.state, ApiTokenState::Active);
    assert_eq!(token.permissions, read_payments);
    assert_eq!(token.mode, Mode::Test);
    let random_part = &secret["pdk_test_".len()..];
    // Neither the kept reply nor any column holds the secret.
    let kept = stored_reply(&store, "shop").await;
    assert!(!String::from_utf8_lossy(&kept).contains(random_part));
    match protocol::decode::<ReplyBody>(&kept).unwrap() {
        ReplyBody::ApiTokenSecret {
            secret: None,
            token: kept,
            ..
        } => assert_eq!(kept.id, token.id),
        other => panic!("{other:?}"),
    }
    let columns = text_of_table(
        &store,
        "SELECT secret_hash || ' ' || prefix || ' ' || name FROM api_tokens",
    )
    .await;
    assert!(!columns.contains(random_part), "{columns}");
    // A retry answers from the kept reply: the same token, no secret.
    let retried = token_of(
        socket
            .command("shop", create("shop", Mode::Test, read_payments))
            .await,
    );
    assert_eq!((retried.0.id, retried.1), (token.id.clone(), None));

    // Listed with who made it; the other mode lists none.
    let listed = match socket.query("list", Query::ListApiTokens {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokens { tokens }),
            ..
        } => tokens,
        other => panic!("{other:?}"),
    };
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].prefix, token.prefix);
    assert_eq!(listed[0].created_by_name, "Thandi Nkosi");
    let mut live = owner.open(Mode::Live).await;
    match live.query("list", Query::ListApiTokens {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokens { tokens }),
            ..
        } => assert!(tokens.is_empty()),
        other => panic!("{other:?}"),
    }
    // Its id means nothing on the live stream.
    let revoke_live = Command::RevokeApiToken {
        token_id: token.id.clone(),
    };
    assert_eq!(
        code_of(live.command("rl", revoke_live).await),
        ErrorCode::NotFound
    );

    // Rolled with a grace period: a new secret; the old one's end is shown.
    let roll = Command::RollApiToken {
        token_id: token.id.clone(),
        grace_hours: 24,
    };
    let (rolled, new_secret) = token_of(socket.command("roll", roll).await);
    let new_secret = new_secret.expect("the rolled secret");
    assert!(new_secret.starts_with("pdk_test_") && new_secret != secret);
    assert!(rolled.previous_secret_until.is_some());
    assert_eq!(rolled.prefix, new_secret[..rolled.prefix.len()]);
    let kept = stored_reply(&store, "roll").await;
    assert!(!String::from_utf8_lossy(&kept).contains(&new_secret["pdk_test_".len()..]));

    // Revoked; rolling it afterwards finds nothing to roll.
    let revoke = Command::RevokeApiToken {
        token_id: token.id.clone(),
    };
    let (revoked, none) = token_of(socket.command("revoke", revoke).await);
    assert_eq!((revoked.state, none), (ApiTokenState::Revoked, None));
    assert!(revoked.previous_secret_until.is_none());
    let roll = Command::RollApiToken {
        token_id: token.id.clone(),
        grace_hours: 0,
    };
    assert_eq!(
        code_of(socket.command("roll2", roll).await),
        ErrorCode::NotFound
    );

    // Each was one event, caused by the owner from their session, and the
    // event carries the token as it became (what the history shows).
    let (owner_id, _) = app.owner_ids(OWNER).await;
    let causes = app.event_causes(OWNER, Mode::Test).await;
    let ours: Vec<_> = causes
        .iter()
        .filter(|c| matches!(c.command_id.as_deref(), Some("shop" | "roll" | "revoke")))
        .collect();
    assert_eq!(ours.len(), 3, "{causes:?}");
    for cause in ours {
        assert_eq!(cause.actor_kind, "user");
        assert_eq!(cause.actor_id.as_deref(), Some(owner_id.as_str()));
    }
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let last: Vec<u8> = sqlx::query_scalar(
        "SELECT changes FROM events WHERE merchant_id = $1 AND mode = 'test' ORDER BY seq DESC LIMIT 1",
    )
    .bind(&merchant_id)
    .fetch_one(&store.pool)
    .await
    .unwrap();
    match protocol::decode::<Vec<Change>>(&last).unwrap().as_slice() {
        // Then the history's entry for it, which the history reads live.
        [
            Change::ApiTokenUpserted { token: t },
            Change::HistoryEntryAdded { entry },
        ] => {
            assert_eq!(t.state, ApiTokenState::Revoked);
            assert_eq!(entry.record_kind, "api_token");
            assert_eq!(entry.record_id.as_deref(), Some(t.id.as_str()));
        }
        other => panic!("{other:?}"),
    }
}

async fn bad_tokens_and_strangers_are_refused(db: Database) {
    let app = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let reads = grants(&[(Section::Customers, Access::Read)]);

    // Made for the other mode than the socket's stream.
    let wrong_mode = socket.command("a", create("x", Mode::Live, reads)).await;
    assert_eq!(error_of(wrong_mode).fields[0].field, "mode");
    let unnamed = socket.command("b", create("  ", Mode::Test, reads)).await;
    assert_eq!(error_of(unnamed).fields[0].code, ErrorCode::Required);
    let past = Command::CreateApiToken {
        name: "old".into(),
        mode: Mode::Test,
        permissions: reads,
        expires_at: Some(1_000),
        allowed_addresses: Vec::new(),
    };
    assert_eq!(
        error_of(socket.command("c", past).await).fields[0].code,
        ErrorCode::DateInPast
    );
    let bad_list = Command::CreateApiToken {
        name: "office".into(),
        mode: Mode::Test,
        permissions: reads,
        expires_at: None,
        allowed_addresses: vec!["office.example.com".into()],
    };
    let refused = error_of(socket.command("d", bad_list).await);
    assert_eq!(refused.fields[0].field, "allowedAddresses");
    assert_eq!(refused.fields[0].code, ErrorCode::InvalidIpAddress);
    let roll = Command::RollApiToken {
        token_id: "tok_x".into(),
        grace_hours: 10_000,
    };
    assert_eq!(
        error_of(socket.command("e", roll).await).fields[0].field,
        "graceHours"
    );

    let (token, _) = make_token(&mut socket, "shop", Mode::Test, reads).await;

    // Another merchant's token is not found.
    let stranger = app.merchant("other@example.co.za").await;
    let mut theirs = stranger.open(Mode::Test).await;
    let revoke = Command::RevokeApiToken {
        token_id: token.id.clone(),
    };
    assert_eq!(
        code_of(theirs.command("x", revoke).await),
        ErrorCode::NotFound
    );
    match theirs.query("l", Query::ListApiTokens {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokens { tokens }),
            ..
        } => assert!(tokens.is_empty()),
        other => panic!("{other:?}"),
    }
}

on_both_databases!(
    tokens_are_made_listed_rolled_and_revoked,
    bad_tokens_and_strangers_are_refused,
);
