//! The live socket through the real server: authentication of the upgrade,
//! commands, deltas, resume, idempotency, limits and tenant isolation (presence: presence.rs).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::{Database, TestApp, customer_input};
use protocol::*;

fn committed_seq(reply: &ServerFrame) -> u64 {
    match reply {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Committed { seq, .. }),
            ..
        } => *seq,
        other => panic!("expected a committed reply, got {other:?}"),
    }
}

fn created_id(reply: &ServerFrame) -> String {
    match reply {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Committed { id: Some(id), .. }),
            ..
        } => id.clone(),
        other => panic!("expected a committed reply with an id, got {other:?}"),
    }
}

fn reply_error(reply: &ServerFrame) -> WireError {
    match reply {
        ServerFrame::Reply {
            error: Some(error), ..
        } => error.clone(),
        other => panic!("expected an error reply, got {other:?}"),
    }
}

fn position(welcome: &ServerFrame) -> (String, u64) {
    match welcome {
        ServerFrame::Welcome { epoch, seq, .. } => (epoch.clone(), *seq),
        other => panic!("expected Welcome, got {other:?}"),
    }
}

async fn list(socket: &mut common::Socket, status: CustomerStatus) -> Vec<Customer> {
    let query = Query::ListCustomers {
        search: None,
        status,
        cursor: None,
        limit: None,
    };
    match socket.query("list", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::CustomerPage { items, .. }),
            ..
        } => items,
        other => panic!("expected a page, got {other:?}"),
    }
}

async fn upgrade_is_refused_without_session_or_from_a_foreign_origin(db: Database) {
    let app = TestApp::start(db).await;
    let stranger = app.browser();
    assert!(
        stranger.try_socket(&app.origin()).await.is_err(),
        "no session cookie"
    );
    let owner = app.merchant("owner@example.co.za").await;
    assert!(
        owner.try_socket("https://evil.example.com").await.is_err(),
        "foreign origin"
    );
    assert!(owner.try_socket(&app.origin()).await.is_ok());
}

async fn welcome_tells_who_and_where(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (_socket, welcome) = owner.live().await;
    match welcome {
        ServerFrame::Welcome {
            seq,
            build,
            user,
            merchant,
            mode,
            merchants,
            ..
        } => {
            assert_eq!(seq, 0);
            assert_eq!(build, "test-build");
            assert_eq!(user.email, "owner@example.co.za");
            assert_eq!(merchant.name, "Karoo Gym");
            assert_eq!(merchant.role, Role::Owner);
            assert_eq!(mode, Mode::Live);
            assert_eq!(merchants, vec![merchant]);
        }
        other => panic!("{other:?}"),
    }
}

async fn a_change_in_one_tab_reaches_the_other(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab1, _) = owner.live().await;
    let (mut tab2, _) = owner.live().await;

    let mut input = customer_input("Pieter van der Merwe", "pieter@example.co.za");
    input.id_type = Some(IdType::SouthAfricanId);
    input.id_number = "8801235111088".into();
    input.cellphone = "+27 82 123 4567".into();
    input.reference = "CUST-001".into();
    let reply = tab1.command("c1", Command::CreateCustomer { input }).await;
    assert_eq!(committed_seq(&reply), 1);
    let id = created_id(&reply);

    for tab in [&mut tab1, &mut tab2] {
        match tab.next().await {
            ServerFrame::Delta { seq: 1, changes } => match &changes[..] {
                // The record first, then the account history's entry for it.
                [
                    Change::CustomerUpserted { customer },
                    Change::HistoryEntryAdded { entry },
                ] => {
                    assert_eq!(entry.record_id.as_deref(), Some(id.as_str()));
                    assert_eq!(customer.id, id);
                    assert_eq!(customer.cellphone, "+27821234567", "spaces dropped");
                    assert!(!customer.archived);
                }
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    }

    let mut edited = customer_input("Pieter van der Merwe", "pieter.vdm@example.co.za");
    edited.reference = "CUST-001".into();
    let reply = tab2
        .command(
            "c2",
            Command::UpdateCustomer {
                customer_id: id.clone(),
                input: edited,
                base_version: None,
            },
        )
        .await;
    assert_eq!(committed_seq(&reply), 2);
    let ServerFrame::Delta { seq: 2, changes } = tab1.next().await else {
        panic!("delta 2")
    };
    assert!(
        matches!(&changes[0], Change::CustomerUpserted { customer } if customer.email == "pieter.vdm@example.co.za")
    );

    assert_eq!(
        committed_seq(
            &tab1
                .command(
                    "c3",
                    Command::ArchiveCustomer {
                        customer_id: id.clone()
                    }
                )
                .await
        ),
        3
    );
    assert_eq!(
        reply_error(
            &tab1
                .command(
                    "c4",
                    Command::ArchiveCustomer {
                        customer_id: id.clone()
                    }
                )
                .await
        )
        .code,
        ErrorCode::AlreadyArchived
    );
    assert!(list(&mut tab2, CustomerStatus::Active).await.is_empty());
    assert_eq!(list(&mut tab2, CustomerStatus::Archived).await.len(), 1);
    assert_eq!(
        committed_seq(
            &tab2
                .command(
                    "c5",
                    Command::RestoreCustomer {
                        customer_id: id.clone()
                    }
                )
                .await
        ),
        4
    );
    assert_eq!(list(&mut tab1, CustomerStatus::Active).await[0].id, id);
}

async fn invalid_input_is_refused_whole_and_writes_nothing(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    let mut input = customer_input("", "someone@mailinator.com");
    input.id_type = Some(IdType::SouthAfricanId);
    input.id_number = "9202204720082".into();
    input.postal_code = "181".into();
    input.cellphone = "12".into();
    input.reference = "has space".into();
    let error = reply_error(&tab.command("bad", Command::CreateCustomer { input }).await);
    assert_eq!(error.code, ErrorCode::InvalidInput);
    let fields: Vec<(String, ErrorCode)> = error
        .fields
        .iter()
        .map(|f| (f.field.clone(), f.code))
        .collect();
    for expected in [
        ("name", ErrorCode::Required),
        ("email", ErrorCode::BlockedEmailDomain),
        ("idNumber", ErrorCode::InvalidSaId),
        ("postalCode", ErrorCode::InvalidPostalCode),
        ("cellphone", ErrorCode::InvalidCellphone),
        ("reference", ErrorCode::InvalidCharacters),
    ] {
        assert!(
            fields.contains(&(expected.0.to_string(), expected.1)),
            "{expected:?} in {fields:?}"
        );
    }
    tab.expect_silence(Duration::from_millis(300)).await;
    assert!(list(&mut tab, CustomerStatus::All).await.is_empty());

    let mut first = customer_input("Anna", "anna@example.co.za");
    first.reference = "REF-1".into();
    assert_eq!(
        committed_seq(
            &tab.command(
                "ok",
                Command::CreateCustomer {
                    input: first.clone()
                }
            )
            .await
        ),
        1,
        "the refused command used no seq"
    );
    let mut second = customer_input("Ben", "ben@example.co.za");
    second.reference = "REF-1".into();
    let error = reply_error(
        &tab.command("dup", Command::CreateCustomer { input: second })
            .await,
    );
    assert_eq!(
        error.fields,
        vec![FieldError {
            field: "reference".into(),
            code: ErrorCode::DuplicateReference
        }]
    );
    assert_eq!(list(&mut tab, CustomerStatus::All).await.len(), 1);
}

async fn search_and_paging(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    for i in 0..5 {
        let input = customer_input(&format!("Customer {i}"), &format!("c{i}@example.co.za"));
        committed_seq(
            &tab.command(&format!("c{i}"), Command::CreateCustomer { input })
                .await,
        );
    }
    let query = Query::ListCustomers {
        search: None,
        status: CustomerStatus::Active,
        cursor: None,
        limit: Some(2),
    };
    let ServerFrame::Reply {
        ok: Some(ReplyBody::CustomerPage { items, next_cursor }),
        ..
    } = tab.query("p1", query).await
    else {
        panic!()
    };
    assert_eq!(
        items.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["Customer 4", "Customer 3"]
    );
    let query = Query::ListCustomers {
        search: None,
        status: CustomerStatus::Active,
        cursor: next_cursor,
        limit: Some(2),
    };
    let ServerFrame::Reply {
        ok: Some(ReplyBody::CustomerPage { items, .. }),
        ..
    } = tab.query("p2", query).await
    else {
        panic!()
    };
    assert_eq!(
        items.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["Customer 2", "Customer 1"]
    );
    let query = Query::ListCustomers {
        search: Some("C3@EXAMPLE".into()),
        status: CustomerStatus::Active,
        cursor: None,
        limit: None,
    };
    let ServerFrame::Reply {
        ok: Some(ReplyBody::CustomerPage { items, next_cursor }),
        ..
    } = tab.query("s", query).await
    else {
        panic!()
    };
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].name, "Customer 3");
    assert_eq!(next_cursor, None);
}

async fn another_merchant_can_neither_read_nor_change(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, welcome) = owner.live().await;
    let ServerFrame::Welcome {
        merchant: first_merchant,
        ..
    } = welcome
    else {
        panic!()
    };
    let id = created_id(
        &tab.command(
            "c1",
            Command::CreateCustomer {
                input: customer_input("Anna", "anna@example.co.za"),
            },
        )
        .await,
    );
    assert!(matches!(
        tab.next().await,
        ServerFrame::Delta { seq: 1, .. }
    ));

    let rival = app.merchant("rival@example.co.za").await;
    let (mut other, _) = rival.live().await;
    assert!(list(&mut other, CustomerStatus::All).await.is_empty());
    assert_eq!(
        reply_error(
            &other
                .query(
                    "g",
                    Query::GetCustomer {
                        customer_id: id.clone()
                    }
                )
                .await
        )
        .code,
        ErrorCode::NotFound
    );
    let commands = [
        Command::UpdateCustomer {
            customer_id: id.clone(),
            input: customer_input("Hijacked", "x@example.co.za"),
            base_version: None,
        },
        Command::ArchiveCustomer {
            customer_id: id.clone(),
        },
        Command::RestoreCustomer {
            customer_id: id.clone(),
        },
    ];
    for (i, command) in commands.into_iter().enumerate() {
        assert_eq!(
            reply_error(&other.command(&format!("x{i}"), command).await).code,
            ErrorCode::NotFound
        );
    }
    tab.expect_silence(Duration::from_millis(300)).await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::Customer { customer }),
        ..
    } = tab
        .query(
            "g",
            Query::GetCustomer {
                customer_id: id.clone(),
            },
        )
        .await
    else {
        panic!()
    };
    assert_eq!(customer.name, "Anna");
    assert!(!customer.archived);

    // Asking to open the first merchant's stream is refused outright, with
    // the code that tells the web app to say so and open one of theirs.
    let mut intruder = rival.socket().await;
    intruder
        .send(&ClientFrame::Hello {
            resume: None,
            build: "t".into(),
            merchant_id: Some(first_merchant.id),
            mode: None,
        })
        .await;
    assert_eq!(intruder.closed().await, Some(4006));
}

async fn test_mode_is_a_separate_ledger(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut live, _) = owner.live().await;
    let mut test = owner.socket().await;
    test.send(&ClientFrame::Hello {
        resume: None,
        build: "t".into(),
        merchant_id: None,
        mode: Some(Mode::Test),
    })
    .await;
    let ServerFrame::Welcome { mode, .. } = test.next().await else {
        panic!()
    };
    assert_eq!(mode, Mode::Test);
    committed_seq(
        &test
            .command(
                "t1",
                Command::CreateCustomer {
                    input: customer_input("Test Only", "t@example.co.za"),
                },
            )
            .await,
    );
    live.expect_silence(Duration::from_millis(300)).await;
    assert!(list(&mut live, CustomerStatus::All).await.is_empty());
    assert_eq!(
        list(&mut test, CustomerStatus::All).await[0].mode,
        Mode::Test
    );
}

async fn resume_replays_every_missed_delta(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut writer, _) = owner.live().await;
    let (mut reader, welcome) = owner.live().await;
    let (epoch, _) = position(&welcome);
    committed_seq(
        &writer
            .command(
                "a",
                Command::CreateCustomer {
                    input: customer_input("A", "a@example.co.za"),
                },
            )
            .await,
    );
    let ServerFrame::Delta { seq: 1, .. } = reader.next().await else {
        panic!()
    };
    drop(reader);

    for name in ["B", "C", "D"] {
        let input = customer_input(name, &format!("{}@example.co.za", name.to_lowercase()));
        committed_seq(
            &writer
                .command(name, Command::CreateCustomer { input })
                .await,
        );
    }

    let mut back = owner.socket().await;
    back.send(&ClientFrame::Hello {
        resume: Some(Resume {
            epoch: epoch.clone(),
            seq: 1,
        }),
        build: "t".into(),
        merchant_id: None,
        mode: None,
    })
    .await;
    assert!(matches!(
        back.next().await,
        ServerFrame::Welcome { seq: 4, .. }
    ));
    let mut names = Vec::new();
    for expected in 2..=4 {
        match back.next().await {
            ServerFrame::Delta { seq, changes } => {
                assert_eq!(seq, expected);
                let Change::CustomerUpserted { customer } = &changes[0] else {
                    panic!()
                };
                names.push(customer.name.clone());
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(names, ["B", "C", "D"]);
    committed_seq(
        &writer
            .command(
                "E",
                Command::CreateCustomer {
                    input: customer_input("E", "e@example.co.za"),
                },
            )
            .await,
    );
    assert!(
        matches!(back.next().await, ServerFrame::Delta { seq: 5, .. }),
        "live deltas follow the replay"
    );

    let mut stale = owner.socket().await;
    stale
        .send(&ClientFrame::Hello {
            resume: Some(Resume {
                epoch: "ep_other".into(),
                seq: 3,
            }),
            build: "t".into(),
            merchant_id: None,
            mode: None,
        })
        .await;
    assert!(matches!(stale.next().await, ServerFrame::Welcome { .. }));
    assert_eq!(stale.next().await, ServerFrame::Resync { epoch, seq: 5 });
}

async fn a_retried_command_runs_once(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    let (mut watcher, _) = owner.live().await;
    let command = Command::CreateCustomer {
        input: customer_input("Once", "once@example.co.za"),
    };
    let first = tab.command("same-id", command.clone()).await;
    drop(tab);
    let (mut retry_tab, _) = owner.live().await;
    let second = retry_tab.command("same-id", command).await;
    assert_eq!(first, second, "the retry gets the first run's reply");
    assert!(matches!(
        watcher.next().await,
        ServerFrame::Delta { seq: 1, .. }
    ));
    watcher.expect_silence(Duration::from_millis(300)).await;
    assert_eq!(list(&mut retry_tab, CustomerStatus::All).await.len(), 1);
}

async fn an_oversize_frame_closes_with_1009(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    tab.send_raw(vec![0u8; MAX_FRAME_BYTES + 1]).await;
    assert_eq!(tab.closed().await, Some(1009));
}

async fn commands_before_hello_and_garbage_frames(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut socket = owner.socket().await;
    let reply = socket
        .command(
            "early",
            Command::ArchiveCustomer {
                customer_id: "cus_1".into(),
            },
        )
        .await;
    assert_eq!(reply_error(&reply).code, ErrorCode::NotWelcomed);
    socket.send_raw(vec![0xc1, 0x00]).await;
    assert_eq!(socket.closed().await, Some(1007));
}

async fn sign_out_closes_that_sessions_sockets(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab1, _) = owner.live().await;
    let (mut tab2, _) = owner.live().await;
    let other_device = app.browser();
    assert_eq!(
        other_device
            .sign_in("owner@example.co.za", "karoo-sunset-41", "/")
            .await
            .status(),
        200
    );
    let (mut elsewhere, _) = other_device.live().await;

    assert_eq!(owner.sign_out().await.status(), 200);
    assert_eq!(tab1.closed().await, Some(4001));
    assert_eq!(tab2.closed().await, Some(4001));
    assert!(
        owner.try_socket(&app.origin()).await.is_err(),
        "the old cookie no longer opens a socket"
    );
    let reply = elsewhere
        .command(
            "still",
            Command::CreateCustomer {
                input: customer_input("Still", "still@example.co.za"),
            },
        )
        .await;
    committed_seq(&reply);
}

on_both_databases!(
    upgrade_is_refused_without_session_or_from_a_foreign_origin,
    welcome_tells_who_and_where,
    a_change_in_one_tab_reaches_the_other,
    invalid_input_is_refused_whole_and_writes_nothing,
    search_and_paging,
    another_merchant_can_neither_read_nor_change,
    test_mode_is_a_separate_ledger,
    resume_replays_every_missed_delta,
    a_retried_command_runs_once,
    an_oversize_frame_closes_with_1009,
    commands_before_hello_and_garbage_frames,
    sign_out_closes_that_sessions_sockets,
);
