//! The account history names the API token, invite or webhook endpoint an entry is
//! about, through the real app: each of their changes is its own entry with
//! the record's id and its name as it was then (a token's name, an
//! endpoint's address), removed endpoints included; and no token secret,
//! token hash or signing secret is in the history, or in the events it is
//! read from.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support;
use crate::common;
use crate::history::{detail, entry, history};
use crate::webhook_support;

use std::collections::HashMap;

use api_support::{create, grants, token_of};
use common::{Database, Socket, TestApp};
use paydesk::auth::keys::ServerKey;
use paydesk::store::Db;
use protocol::{
    Access, Command, HistoryAction, HistoryDetail, HistoryEntry, HistoryFilter, Mode, ReplyBody,
    Role, Section, ServerFrame,
};
use webhook_support::Receiver;

const OWNER: &str = "owner@karoo.co.za";
const TOKEN_NAME: &str = "Shop server";

async fn start(db: Database) -> TestApp {
    let key = ServerKey::generate().unwrap();
    TestApp::start_with(db, move |config| {
        config.secret_key = Some(key);
        // The receiver listens on this machine's loopback address.
        config.webhooks_allow_private_addresses = true;
    })
    .await
}

fn of_kind(kind: &str) -> HistoryFilter {
    HistoryFilter {
        record_kind: Some(kind.into()),
        ..Default::default()
    }
}

/// The new signing secret of a `WebhookSecret` reply, or none.
fn signing_secret(frame: ServerFrame) -> (String, Option<String>) {
    match frame {
        ServerFrame::Reply {
            ok:
                Some(ReplyBody::WebhookSecret {
                    endpoint_id,
                    secret,
                    ..
                }),
            ..
        } => (endpoint_id, secret),
        other => panic!("expected a webhook reply, got {other:?}"),
    }
}

/// Every text a column of the table holds, one row a line.
async fn texts(db: &Db, sql: &str) -> String {
    let rows: Vec<Option<String>> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_all(&db.pool)
        .await
        .unwrap();
    rows.into_iter().flatten().collect::<Vec<_>>().join("\n")
}

/// The history's rows in full (every column that holds text), and the
/// events they come from, as text.
async fn everything_the_history_keeps(db: &Db) -> String {
    let mut kept = String::new();
    for column in [
        "record_kind",
        "record_id",
        "fields",
        "before_json",
        "after_json",
        "actor_name",
        "command_id",
    ] {
        kept.push_str(&texts(db, &format!("SELECT {column} FROM history_entries")).await);
        kept.push('\n');
    }
    let events: Vec<Vec<u8>> = sqlx::query_scalar("SELECT changes FROM events")
        .fetch_all(&db.pool)
        .await
        .unwrap();
    for changes in events {
        kept.push_str(&String::from_utf8_lossy(&changes));
        kept.push('\n');
    }
    kept
}

fn assert_all_name(entries: &[HistoryEntry], id: &str, name: &str) {
    for entry in entries {
        assert_eq!(entry.record_id.as_deref(), Some(id), "{entry:?}");
        assert_eq!(entry.record_name.as_deref(), Some(name), "{entry:?}");
    }
}

/// Each entry of the list in full, by the command that made it.
async fn by_command(tab: &mut Socket, entries: &[HistoryEntry]) -> HashMap<String, HistoryDetail> {
    let mut found = HashMap::new();
    for listed in entries {
        let full = detail(entry(tab, &listed.id).await);
        assert_eq!(&full.entry, listed);
        found.insert(full.command_id.clone().unwrap_or_default(), full);
    }
    found
}

/// Makes, rolls and revokes a token; its id, and what must never be kept:
/// its secrets (less their mode's prefix) and their stored hashes.
async fn token_changes(tab: &mut Socket, db: &Db) -> (String, Vec<String>) {
    let reads = grants(&[(Section::Payments, Access::Read)]);
    let (token, made) = token_of(
        tab.command("make-token", create(TOKEN_NAME, Mode::Test, reads))
            .await,
    );
    let roll = Command::RollApiToken {
        token_id: token.id.clone(),
        grace_hours: 24,
    };
    let (_, rolled) = token_of(tab.command("roll-token", roll).await);
    // While both secrets open the API, both hashes are stored.
    let hashes = texts(
        db,
        "SELECT secret_hash FROM api_tokens UNION ALL SELECT previous_secret_hash FROM api_tokens",
    )
    .await;
    let revoke = Command::RevokeApiToken {
        token_id: token.id.clone(),
    };
    token_of(tab.command("revoke-token", revoke).await);
    let mut secrets: Vec<String> = hashes.lines().map(str::to_string).collect();
    assert_eq!(secrets.len(), 2, "{hashes}");
    for secret in [made, rolled].into_iter().flatten() {
        secrets.push(secret["pdk_test_".len()..].to_string());
    }
    assert_eq!(secrets.len(), 4);
    (token.id, secrets)
}

/// Adds, pauses, rolls, tests and removes an endpoint; its id, and its
/// signing secrets, plain (less `whsec_`) and sealed as stored.
async fn endpoint_changes(tab: &mut Socket, db: &Db, url: &str) -> (String, Vec<String>) {
    let create = Command::CreateWebhookEndpoint {
        url: url.into(),
        description: "Shop".into(),
        event_types: vec!["customer.created".into()],
    };
    let (endpoint_id, first) = signing_secret(tab.command("add", create).await);
    let pause = Command::UpdateWebhookEndpoint {
        endpoint_id: endpoint_id.clone(),
        description: "Shop".into(),
        event_types: vec!["customer.created".into()],
        enabled: false,
    };
    signing_secret(tab.command("pause", pause).await);
    let roll = Command::RollWebhookSecret {
        endpoint_id: endpoint_id.clone(),
    };
    let (_, rolled) = signing_secret(tab.command("roll-endpoint", roll).await);
    let test = Command::SendTestWebhookEvent {
        endpoint_id: endpoint_id.clone(),
    };
    signing_secret(tab.command("test", test).await);
    // The secrets as stored (sealed) too, before the endpoint goes.
    let sealed = texts(
        db,
        "SELECT secret FROM webhook_endpoints UNION ALL SELECT previous_secret FROM webhook_endpoints",
    )
    .await;
    let delete = Command::DeleteWebhookEndpoint {
        endpoint_id: endpoint_id.clone(),
    };
    signing_secret(tab.command("delete", delete).await);
    let mut secrets: Vec<String> = sealed.lines().map(str::to_string).collect();
    assert_eq!(secrets.len(), 2, "{sealed}");
    for secret in [first, rolled].into_iter().flatten() {
        secrets.push(secret.trim_start_matches("whsec_").to_string());
    }
    assert_eq!(secrets.len(), 4);
    (endpoint_id, secrets)
}

async fn token_and_endpoint_entries_name_their_record_and_keep_no_secret(db: Database) {
    let app = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let store = Db::connect(&app.database_url).await.unwrap();
    let receiver = Receiver::start(0).await;

    let (token_id, token_secrets) = token_changes(&mut tab, &store).await;
    let (endpoint_id, endpoint_secrets) = endpoint_changes(&mut tab, &store, &receiver.url).await;

    // The token: made, rolled and revoked, each an entry naming it.
    let tokens = history(&mut tab, "h-tokens", of_kind("api_token")).await;
    assert_eq!(tokens.len(), 3, "{tokens:?}");
    assert_all_name(&tokens, &token_id, TOKEN_NAME);
    let tokens = by_command(&mut tab, &tokens).await;
    assert_eq!(tokens["make-token"].entry.action, HistoryAction::Created);
    assert_eq!(tokens["roll-token"].entry.action, HistoryAction::Updated);
    let revoked = &tokens["revoke-token"];
    assert_eq!(revoked.entry.action, HistoryAction::Revoked);
    assert!(
        revoked.entry.fields.contains(&"state".to_string()),
        "{revoked:?}"
    );
    let state = revoked.changes.iter().find(|c| c.field == "state").unwrap();
    assert_eq!(state.after.as_deref(), Some("\"revoked\""));

    // The endpoint: each of its commands is an entry of it, none "many
    // changed", its removal included, named by the address it had.
    let endpoints = history(&mut tab, "h-endpoints", of_kind("webhook_endpoint")).await;
    assert_eq!(endpoints.len(), 5, "{endpoints:?}");
    let url = endpoints[0].record_name.clone().unwrap_or_default();
    assert!(
        url.starts_with(receiver.url.trim_end_matches('/')),
        "{endpoints:?}"
    );
    assert_all_name(&endpoints, &endpoint_id, &url);
    let endpoints = by_command(&mut tab, &endpoints).await;
    let action = |command: &str| endpoints[command].entry.action;
    assert_eq!(action("add"), HistoryAction::Created);
    assert_eq!(action("pause"), HistoryAction::Updated);
    assert_eq!(action("roll-endpoint"), HistoryAction::Updated);
    assert_eq!(action("test"), HistoryAction::Updated);
    assert_eq!(action("delete"), HistoryAction::Removed);
    let fields = |command: &str| endpoints[command].entry.fields.clone();
    assert!(fields("pause").contains(&"enabled".to_string()));
    assert_eq!(
        fields("roll-endpoint"),
        vec!["previousSecretUntil".to_string()]
    );
    // A test event changes the endpoint in nothing; who sent it still shows.
    assert!(fields("test").is_empty());
    let gone = &endpoints["delete"];
    let address = gone.changes.iter().find(|c| c.field == "url").unwrap();
    assert_eq!(address.before, Some(serde_json::json!(url).to_string()));
    assert_eq!(address.after, None);

    // What the history keeps holds no secret, hashed, sealed or plain.
    let kept = everything_the_history_keeps(&store).await;
    assert!(kept.contains(TOKEN_NAME) && kept.contains(&url));
    for secret in token_secrets.iter().chain(&endpoint_secrets) {
        assert!(secret.len() >= 16, "{secret}");
        assert!(
            !kept.contains(secret.as_str()),
            "a secret is kept: {secret}"
        );
    }
}

on_both_databases!(token_and_endpoint_entries_name_their_record_and_keep_no_secret);

/// A revoked invite reads "revoked" in the history, as a revoked token does
/// above; what changed is still its status.
async fn a_revoked_invite_is_named_revoked(db: Database) {
    let app = start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Live).await;
    let invite = Command::InviteMember {
        email: "thandi@karoo.co.za".into(),
        role: Role::Viewer,
        role_id: None,
    };
    let invite_id = common::committed_id(tab.command("invite", invite).await);
    let revoke = Command::RevokeInvite { invite_id };
    common::committed_id(tab.command("revoke-invite", revoke).await);

    let invites = history(&mut tab, "h-invites", of_kind("invite")).await;
    let invites = by_command(&mut tab, &invites).await;
    assert_eq!(invites.len(), 2, "{invites:?}");
    assert_eq!(invites["invite"].entry.action, HistoryAction::Created);
    let revoked = &invites["revoke-invite"];
    assert_eq!(revoked.entry.action, HistoryAction::Revoked);
    let status = revoked
        .changes
        .iter()
        .find(|c| c.field == "status")
        .unwrap();
    assert_eq!(status.after.as_deref(), Some("\"revoked\""));
}

on_both_databases!(a_revoked_invite_is_named_revoked);
