//! The customer page's lists: one customer's mandates, payments and
//! transactions, and nothing of another customer's or another merchant's.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support;
use crate::common;

use std::time::Duration;

use collection_support::{customer, monthly_debicheck, running};
use common::{Database, Socket, TestApp, committed_id};
use protocol::*;

async fn second_customer(socket: &mut Socket) -> String {
    let input = CustomerInput {
        name: "Lerato Dlamini".into(),
        email: "lerato@example.co.za".into(),
        cellphone: "+27827654321".into(),
        id_type: Some(IdType::SouthAfricanId),
        id_number: "8801235111088".into(),
        ..Default::default()
    };
    committed_id(
        socket
            .command("c2", Command::CreateCustomer { input })
            .await,
    )
}

async fn mandates_of(socket: &mut Socket, customer_id: &str) -> Vec<Mandate> {
    let filter = MandateFilter {
        customer_id: Some(customer_id.into()),
        ..Default::default()
    };
    let query = Query::ListMandates {
        filter,
        sort: SortOrder::Newest,
        cursor: None,
        limit: None,
    };
    match socket.query("m", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::MandatePage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

async fn payments_of(socket: &mut Socket, customer_id: &str, kind: PaymentKind) -> Vec<Payment> {
    let filter = PaymentFilter {
        customer_id: Some(customer_id.into()),
        ..Default::default()
    };
    let query = Query::ListPayments {
        kind,
        filter,
        sort: SortOrder::Newest,
        cursor: None,
        limit: None,
    };
    match socket.query("p", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PaymentPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

async fn transactions_of(socket: &mut Socket, customer_id: &str) -> Vec<Transaction> {
    let filter = TransactionFilter {
        customer_id: Some(customer_id.into()),
        ..Default::default()
    };
    let query = Query::ListTransactions {
        filter,
        sort: SortOrder::Newest,
        cursor: None,
        limit: None,
    };
    match socket.query("t", query).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::TransactionPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

async fn the_lists_filter_by_customer_within_the_merchant(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let other = app.merchant("other@elsewhere.test").await;
    let mut stranger = other.open(Mode::Test).await;

    let thabo = customer(&mut tab).await;
    let lerato = second_customer(&mut tab).await;
    let mut payments = Vec::new();
    for (command_id, customer_id, account, contract) in [
        ("pay1", &thabo, "4000000001", "GYMTHABO"),
        ("pay2", &lerato, "4000000002", "GYMLERATO"),
    ] {
        let input = Box::new(monthly_debicheck(customer_id, account, contract));
        let id = committed_id(
            tab.command(command_id, Command::CreatePayment { input })
                .await,
        );
        running(&mut tab, &id).await;
        payments.push(id);
    }
    // A month of the test clock debits each of them once.
    tab.command(
        "clock",
        Command::AdvanceTestClock {
            step: ClockStep::Month,
        },
    )
    .await;
    let mut debited = Vec::new();
    for _ in 0..100 {
        debited = transactions_of(&mut tab, &thabo).await;
        if !debited.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let mandates = mandates_of(&mut tab, &thabo).await;
    assert_eq!(mandates.len(), 1, "{mandates:?}");
    assert_eq!(mandates[0].contract_reference, "GYMTHABO");
    let recurring = payments_of(&mut tab, &thabo, PaymentKind::Recurring).await;
    let ids: Vec<_> = recurring.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, [payments[0].as_str()]);
    assert!(
        payments_of(&mut tab, &thabo, PaymentKind::Once)
            .await
            .is_empty()
    );
    assert!(!debited.is_empty(), "the month debited Thabo");
    assert!(
        debited
            .iter()
            .all(|t| t.customer_id.as_deref() == Some(thabo.as_str())),
        "{debited:?}"
    );
    let lerato_debits = transactions_of(&mut tab, &lerato).await;
    assert!(!lerato_debits.is_empty(), "the month debited Lerato");
    assert!(
        lerato_debits
            .iter()
            .all(|t| t.customer_id.as_deref() == Some(lerato.as_str())),
        "{lerato_debits:?}"
    );
    assert_eq!(
        mandates_of(&mut tab, &lerato).await[0].contract_reference,
        "GYMLERATO"
    );

    // Another merchant asking for this merchant's customer sees nothing.
    assert!(mandates_of(&mut stranger, &thabo).await.is_empty());
    assert!(
        payments_of(&mut stranger, &thabo, PaymentKind::Recurring)
            .await
            .is_empty()
    );
    assert!(transactions_of(&mut stranger, &thabo).await.is_empty());
}

on_both_databases!(the_lists_filter_by_customer_within_the_merchant);
