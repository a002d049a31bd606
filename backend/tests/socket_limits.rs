//! The socket's limits through the real server: frame size checked at the
//! header (single frames and fragmented messages), a frame budget per socket,
//! a socket cap per user, and command ids that cannot be reused for another
//! command.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Database, Socket, TestApp, customer_input};
use protocol::*;
use tokio::io::AsyncWriteExt;

const FIN: u8 = 0x80;
const BINARY: u8 = 0x2;
const CONTINUATION: u8 = 0x0;

/// A client frame header as the wire has it: masked, with a zero mask so the
/// payload goes as it is.
fn raw_header(fin: bool, opcode: u8, length: u64) -> Vec<u8> {
    let mut out = vec![if fin { FIN | opcode } else { opcode }];
    if length < 126 {
        out.push(0x80 | length as u8);
    } else if length <= u64::from(u16::MAX) {
        out.push(0x80 | 126);
        out.extend_from_slice(&(length as u16).to_be_bytes());
    } else {
        out.push(0x80 | 127);
        out.extend_from_slice(&length.to_be_bytes());
    }
    out.extend_from_slice(&[0, 0, 0, 0]);
    out
}

fn raw_frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = raw_header(fin, opcode, payload.len() as u64);
    out.extend_from_slice(payload);
    out
}

/// Writes bytes straight to the socket's TCP stream, past the client's framing.
async fn write_raw(socket: &mut Socket, bytes: &[u8]) {
    let tcp = socket.stream.get_mut();
    tcp.write_all(bytes).await.unwrap();
    tcp.flush().await.unwrap();
}

fn list_customers() -> Query {
    Query::ListCustomers {
        search: None,
        status: CustomerStatus::All,
        cursor: None,
        limit: None,
    }
}

async fn a_huge_frame_header_closes_the_socket_before_any_payload(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    // The header alone, declaring 2^63 - 1 bytes: the server must not wait for them.
    write_raw(&mut tab, &raw_header(true, BINARY, i64::MAX as u64)).await;
    assert_eq!(tab.closed().await, Some(1009));

    let (mut tab, _) = owner.live().await;
    write_raw(
        &mut tab,
        &raw_header(true, BINARY, MAX_FRAME_BYTES as u64 + 1),
    )
    .await;
    assert_eq!(tab.closed().await, Some(1009));
}

async fn a_fragmented_message_is_limited_by_its_total(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;

    // Within the limit, a message in fragments is served like any other.
    let (mut tab, _) = owner.live().await;
    let ping = encode(&ClientFrame::Ping {}).unwrap();
    let (head, tail) = ping.split_at(1);
    let mut bytes = raw_frame(false, BINARY, head);
    bytes.extend(raw_frame(true, CONTINUATION, tail));
    write_raw(&mut tab, &bytes).await;
    assert_eq!(tab.next().await, ServerFrame::Pong {});

    // Fragments each under the limit, their total over it: refused at the
    // header that crosses the limit, before its payload.
    let (mut tab, _) = owner.live().await;
    let part = vec![0u8; 40 * 1024];
    let mut bytes = raw_frame(false, BINARY, &part);
    bytes.extend(raw_frame(false, CONTINUATION, &part[..20 * 1024]));
    bytes.extend(raw_header(true, CONTINUATION, 10 * 1024));
    write_raw(&mut tab, &bytes).await;
    assert_eq!(tab.closed().await, Some(1009));
}

async fn a_flooding_socket_is_closed_and_other_merchants_carry_on(db: Database) {
    let app = TestApp::start(db).await;
    let flooder = app.merchant("flood@example.co.za").await;
    let neighbour = app.merchant("neighbour@example.co.za").await;
    let (mut flood, _) = flooder.live().await;
    let (mut calm, _) = neighbour.live().await;

    // 8,000 queries as fast as one socket can send them.
    let mut bytes = Vec::new();
    for n in 0..8_000 {
        let frame = ClientFrame::Query {
            id: format!("q{n}"),
            query: list_customers(),
        };
        let payload = encode(&frame).unwrap();
        bytes.extend(raw_frame(true, BINARY, &payload));
    }
    // The server may close while this is still being written.
    let _ = flood.stream.get_mut().write_all(&bytes).await;
    let mut replies = 0;
    let code = loop {
        match flood.next_within(std::time::Duration::from_secs(30)).await {
            Ok(ServerFrame::Reply { .. }) => replies += 1,
            Ok(_) => {}
            Err(common::Ended::Closed(code)) => break code,
            Err(common::Ended::TimedOut) => panic!("the flooding socket stayed open"),
        }
    };
    assert_eq!(code, Some(1008), "closed for policy");
    assert!(replies < 8_000, "not every frame was served: {replies}");

    let reply = calm
        .command(
            "still-here",
            Command::CreateCustomer {
                input: customer_input("Calm", "calm@example.co.za"),
            },
        )
        .await;
    assert!(matches!(reply, ServerFrame::Reply { ok: Some(_), .. }));
    assert!(matches!(
        calm.query("list", list_customers()).await,
        ServerFrame::Reply {
            ok: Some(ReplyBody::CustomerPage { .. }),
            ..
        }
    ));
}

async fn a_user_has_at_most_twenty_sockets_on_a_node(db: Database) {
    let app = TestApp::start(db).await;
    let laptop = app.merchant("owner@example.co.za").await;
    let phone = app.browser();
    assert_eq!(
        phone
            .sign_in("owner@example.co.za", "karoo-sunset-41", "/")
            .await
            .status(),
        200
    );
    // Twenty tabs over two sessions fit.
    let mut tabs = Vec::new();
    for n in 0..20 {
        let browser = if n % 2 == 0 { &laptop } else { &phone };
        tabs.push(browser.live().await.0);
    }
    // The next one is told why, with its own close code.
    let mut one_too_many = phone.socket().await;
    assert_eq!(one_too_many.closed().await, Some(4002));

    // Someone else is not affected.
    let colleague = app.merchant("colleague@example.co.za").await;
    let (mut other, _) = colleague.live().await;
    assert!(matches!(
        other.query("list", list_customers()).await,
        ServerFrame::Reply { ok: Some(_), .. }
    ));

    // A closed tab makes room for a new one.
    let mut closing = tabs.pop().unwrap();
    closing.stream.close(None).await.unwrap();
    closing.closed().await;
    let mut reopened = None;
    for _ in 0..50 {
        let mut socket = laptop.socket().await;
        socket
            .send(&ClientFrame::Hello {
                resume: None,
                build: "test".into(),
                merchant_id: None,
                mode: None,
            })
            .await;
        match socket.next_within(std::time::Duration::from_secs(5)).await {
            Ok(ServerFrame::Welcome { .. }) => {
                reopened = Some(socket);
                break;
            }
            Ok(other) => panic!("expected Welcome, got {other:?}"),
            // The server has not yet noticed the closed tab.
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    assert!(reopened.is_some(), "a closed tab frees its place");
}

async fn a_command_id_is_not_reused_for_another_command(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    let first = Command::CreateCustomer {
        input: customer_input("First", "first@example.co.za"),
    };
    let second = Command::CreateCustomer {
        input: customer_input("Second", "second@example.co.za"),
    };
    let ran = tab.command("cmd-1", first.clone()).await;
    assert!(matches!(ran, ServerFrame::Reply { ok: Some(_), .. }));

    // The same id with the same body is a retry: the first reply again.
    assert_eq!(tab.command("cmd-1", first).await, ran);
    // The same id with another body is refused, not answered with the first reply.
    let refused = common::error_of(tab.command("cmd-1", second.clone()).await);
    assert_eq!(refused.code, ErrorCode::CommandIdReused);
    let names: Vec<String> = match tab.query("list", list_customers()).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::CustomerPage { items, .. }),
            ..
        } => items.into_iter().map(|c| c.name).collect(),
        other => panic!("expected a page, got {other:?}"),
    };
    assert_eq!(names, vec!["First".to_string()], "the second never ran");
    // Under a fresh id it runs.
    assert!(matches!(
        tab.command("cmd-2", second).await,
        ServerFrame::Reply { ok: Some(_), .. }
    ));
}

on_both_databases!(
    a_huge_frame_header_closes_the_socket_before_any_payload,
    a_fragmented_message_is_limited_by_its_total,
    a_flooding_socket_is_closed_and_other_merchants_carry_on,
    a_user_has_at_most_twenty_sockets_on_a_node,
    a_command_id_is_not_reused_for_another_command,
);
