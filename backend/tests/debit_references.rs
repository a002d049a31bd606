//! The reference a debit goes to the bank with, which the payer reads on
//! their statement and the merchant reconciles by: the payment's own, else
//! the mandate's contract reference, else the customer's reference; only a
//! payment with none of these goes by its id.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use crate::collection_support::{eft_mandate, once_under, transactions};
use crate::common::{Database, Socket, TestApp, committed_id};
use protocol::*;

async fn customer(socket: &mut Socket, email: &str, reference: &str) -> String {
    let input = CustomerInput {
        name: "Thabo Mokoena".into(),
        email: email.into(),
        reference: reference.into(),
        ..Default::default()
    };
    committed_id(
        socket
            .command(email, Command::CreateCustomer { input })
            .await,
    )
}

/// A once-off EFT debit from a new account of the customer's.
async fn eft_once(
    socket: &mut Socket,
    customer_id: &str,
    account_number: &str,
    contract: &str,
    transaction_reference: &str,
) -> String {
    let mut input = once_under(
        customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate(account_number, contract)),
        },
    );
    input.transaction_reference = transaction_reference.into();
    committed_id(
        socket
            .command(
                account_number,
                Command::CreatePayment {
                    input: Box::new(input),
                },
            )
            .await,
    )
}

async fn a_debit_goes_by_the_nearest_reference_the_merchant_gave(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let member = customer(&mut tab, "thabo@example.co.za", "MEMBER-77").await;
    let walk_in = customer(&mut tab, "walkin@example.co.za", "").await;

    let invoiced = eft_once(&mut tab, &member, "4000000101", "", "INV-9").await;
    let contracted = eft_once(&mut tab, &member, "4000000102", "GYM2026", "").await;
    let by_customer = eft_once(&mut tab, &member, "4000000103", "", "").await;
    let by_id = eft_once(&mut tab, &walk_in, "4000000104", "", "").await;

    tab.command(
        "clock",
        Command::AdvanceTestClock {
            step: ClockStep::Week,
        },
    )
    .await;
    let mut raised = Vec::new();
    for _ in 0..100 {
        raised = transactions(&mut tab, TransactionFilter::default()).await;
        if raised.len() == 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let reference_of = |payment_id: &str| {
        raised
            .iter()
            .find(|debit| debit.payment_id.as_deref() == Some(payment_id))
            .map(|debit| debit.reference.clone())
            .unwrap_or_else(|| panic!("no debit for {payment_id} in {raised:?}"))
    };
    assert_eq!(reference_of(&invoiced), "INV-9");
    assert_eq!(reference_of(&contracted), "GYM2026");
    assert_eq!(reference_of(&by_customer), "MEMBER-77");
    assert_eq!(reference_of(&by_id), by_id);
}

on_both_databases!(a_debit_goes_by_the_nearest_reference_the_merchant_gave);
