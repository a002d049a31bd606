//! Every command and query, sent with an API token that holds every
//! section's write access, in both modes: over the token's socket (where a
//! token may send any command) and over `/api/v1` (each command endpoint).
//! Each either runs or is refused with a code of its own; none answers
//! `internal`, and no request a 5xx. What only a person may decide (the
//! team, the ownership, the payout account, an account of one's own) is
//! refused with `forbidden`, as the routing table says.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support;
use crate::common;
use crate::team_support;

use api_support::{make_token, token_socket};
use backend::http::api::endpoints::{Body, ENDPOINTS, Kind, Method};
use common::{Browser, Database, TestApp};
use paydesk::domain::permissions::Grant;
use paydesk::domain::routes::{command_route, query_route};
use protocol::{Access, ErrorCode, Mode, Permissions, Role, ServerFrame};
use serde_json::Value;
use team_support::samples::{commands, queries};
use team_support::tag_of;

const OWNER: &str = "owner@karoo.co.za";

/// What a token's socket answered a frame: its error code, if refused.
fn refused_with(frame: &ServerFrame) -> Option<ErrorCode> {
    match frame {
        ServerFrame::Reply { error, .. } => error.as_ref().map(|e| e.code),
        other => panic!("not a reply: {other:?}"),
    }
}

/// A token of the owner's in `mode` that may write every section: the
/// widest a token can be.
async fn widest_token(owner: &Browser, mode: Mode, name: &str) -> String {
    let mut socket = owner.open(mode).await;
    let all = Permissions::all(Access::Write);
    make_token(&mut socket, name, mode, all).await.1
}

/// The code a command or query must be refused with when sent by a token
/// holding every section's write access, if any.
fn wanted(tokens_may: bool, allowed: Result<(), ErrorCode>) -> Option<ErrorCode> {
    if !tokens_may {
        return Some(ErrorCode::Forbidden);
    }
    allowed.err()
}

async fn every_command_over_a_tokens_socket(app: &TestApp, owner: &Browser, mode: Mode) -> usize {
    let secret = widest_token(owner, mode, "socket").await;
    let mut socket = token_socket(app, &secret).await;
    let grant = Grant {
        role: Role::Custom,
        permissions: Permissions::all(Access::Write),
    };
    let mut checked = 0;
    for (n, sample) in commands().into_iter().enumerate() {
        let route = command_route(&sample);
        let expected = wanted(route.tokens, grant.check(route.needs));
        let name = tag_of(&sample);
        let reply = socket.command(&format!("c{n}"), sample).await;
        let code = refused_with(&reply);
        assert!(
            !matches!(code, Some(ErrorCode::Internal | ErrorCode::Busy)),
            "{mode:?} {name}: {reply:?}"
        );
        if expected.is_some() {
            assert_eq!(code, expected, "{mode:?} {name}: {reply:?}");
        } else {
            assert_ne!(
                code,
                Some(ErrorCode::Forbidden),
                "{mode:?} {name}: {reply:?}"
            );
        }
        checked += 1;
    }
    for (n, sample) in queries().into_iter().enumerate() {
        let expected = match query_route(&sample).needs {
            paydesk::domain::permissions::Needs::OwnAccount => Some(ErrorCode::Forbidden),
            needs => grant.check(needs).err(),
        };
        let name = tag_of(&sample);
        let reply = socket.query(&format!("q{n}"), sample).await;
        let code = refused_with(&reply);
        assert!(
            !matches!(code, Some(ErrorCode::Internal | ErrorCode::Busy)),
            "{mode:?} {name}: {reply:?}"
        );
        if expected.is_some() {
            assert_eq!(code, expected, "{mode:?} {name}: {reply:?}");
        }
        checked += 1;
    }
    checked
}

/// `{name}` segments of an endpoint's path filled from the sample's fields.
fn path_of(path: &str, sample: &Value) -> String {
    path.split('/')
        .map(
            |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(field) => match &sample[field] {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                },
                None => segment.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

/// Every command endpoint of `/api/v1`, with the sample of its command.
async fn every_command_endpoint(app: &TestApp, owner: &Browser, mode: Mode) -> usize {
    let secret = widest_token(owner, mode, "server").await;
    let http = reqwest::Client::new();
    let samples: Vec<Value> = commands()
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    let mut checked = 0;
    for (n, endpoint) in ENDPOINTS.iter().enumerate() {
        if endpoint.kind != Kind::Command {
            continue;
        }
        let sample = samples
            .iter()
            .find(|s| s["t"] == endpoint.name)
            .unwrap_or_else(|| panic!("no sample of {}", endpoint.name));
        let url = app.url(&format!("/api/v1{}", path_of(endpoint.path, sample)));
        let request = match endpoint.method {
            Method::Get => http.get(url),
            Method::Post => http.post(url),
            Method::Put => http.put(url),
            Method::Delete => http.delete(url),
        };
        let request = match endpoint.body {
            Body::None => request,
            Body::Raw(field) => {
                let bytes: Vec<u8> = serde_json::from_value(sample[field].clone()).unwrap();
                request.body(bytes)
            }
            Body::Wrap(field, _) => request.json(&sample[field]),
            Body::Fields(_) => request.json(sample),
        };
        let response = request
            .bearer_auth(&secret)
            .header("idempotency-key", format!("k{n}"))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body = response.text().await.unwrap();
        assert!(status < 500, "{mode:?} {}: {status} {body}", endpoint.name);
        assert!(
            !body.contains("\"internal\""),
            "{mode:?} {}: {body}",
            endpoint.name
        );
        checked += 1;
    }
    checked
}

/// Every command a token sends runs or is refused, clearly, in both modes.
async fn no_command_a_token_sends_fails_inside(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let per_mode = commands().len() + queries().len();
    for mode in [Mode::Test, Mode::Live] {
        assert_eq!(
            every_command_over_a_tokens_socket(&app, &owner, mode).await,
            per_mode
        );
        let endpoints = ENDPOINTS.iter().filter(|e| e.kind == Kind::Command).count();
        assert_eq!(every_command_endpoint(&app, &owner, mode).await, endpoints);
    }
}

/// A token that may write the team section is still refused every team
/// command, with `forbidden` and words that say why, on both surfaces;
/// nothing is written and no mail goes out.
async fn a_token_cannot_invite_anyone(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let secret = widest_token(&owner, Mode::Test, "widest").await;
    let mut socket = token_socket(&app, &secret).await;
    let invite = protocol::Command::InviteMember {
        email: "stranger@example.co.za".into(),
        role: Role::Admin,
        role_id: None,
    };
    let reply = socket.command("i1", invite).await;
    assert_eq!(refused_with(&reply), Some(ErrorCode::Forbidden));
    let store = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let (invites,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM invites")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(invites, 0);
    assert_eq!(app.mails_to("stranger@example.co.za"), 0);
}

on_both_databases!(
    no_command_a_token_sends_fails_inside,
    a_token_cannot_invite_anyone
);
