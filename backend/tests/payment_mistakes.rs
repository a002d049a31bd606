//! A new payment's mistakes in one answer. A form sent before its bank,
//! amount or mandate is chosen hears of them together with what only the
//! server can tell (a date in the past, an account number, a reference it
//! refuses), and nothing of the payment is written: no bank account, no
//! mandate, no payment.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support::{Api, shop_token};
use crate::collection_support::{customer, eft_mandate, named, nothing_written, once_under};
use crate::common::{Database, Socket, TestApp, error_of};
use protocol::*;

/// An EFT debit order on a new account at no bank yet, with no amount, due
/// before the pinned business date (2 March 2026).
fn unfinished(customer_id: &str, account_number: &str) -> PaymentInput {
    let mut mandate = eft_mandate(account_number, "GYM2026");
    if let BankAccountChoice::New { input } = &mut mandate.bank_account {
        input.bank = None;
    }
    let mut input = once_under(
        customer_id,
        MandateChoice::New {
            input: Box::new(mandate),
        },
    );
    input.amount_cents = None;
    input.date_to_process = Some("2026-02-27".into());
    input
}

async fn create(socket: &mut Socket, input: PaymentInput) -> WireError {
    error_of(
        socket
            .command(
                "pay",
                Command::CreatePayment {
                    input: Box::new(input),
                },
            )
            .await,
    )
}

async fn no_bank_and_no_amount_are_told_with_what_only_the_server_finds(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let customer_id = customer(&mut tab).await;
    let mut input = unfinished(&customer_id, "4000 00a 001");
    input.transaction_reference = "INV 1".into();
    let error = create(&mut tab, input).await;
    assert_eq!(error.code, ErrorCode::InvalidInput);
    assert_eq!(
        named(&error),
        [
            ("amountCents", ErrorCode::Required),
            ("transactionReference", ErrorCode::InvalidCharacters),
            ("dateToProcess", ErrorCode::DateInPast),
            ("mandate.bankAccount.bank", ErrorCode::Required),
            (
                "mandate.bankAccount.accountNumber",
                ErrorCode::InvalidAccountNumber
            ),
        ]
    );
    nothing_written(&mut tab, &customer_id).await;

    // A mandate not chosen yet is told the same way, with the payment's own mistakes.
    let mut input = unfinished(&customer_id, "4000000001");
    input.mandate = None;
    let error = create(&mut tab, input).await;
    assert_eq!(
        named(&error),
        [
            ("amountCents", ErrorCode::Required),
            ("dateToProcess", ErrorCode::DateInPast),
            ("mandate", ErrorCode::Required),
        ]
    );
    nothing_written(&mut tab, &customer_id).await;
}

async fn the_api_names_each_missing_field_in_the_language_asked_for(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut socket = owner.open(Mode::Test).await;
    let customer_id = customer(&mut socket).await;
    let secret = shop_token(&mut socket).await;
    let api = Api::new(&app, &secret);
    let mut body = serde_json::to_value(unfinished(&customer_id, "4000000001")).unwrap();
    // The JSON leaves the missing fields out, as a form does.
    assert!(body.get("amountCents").is_none());
    assert!(
        body["mandate"]["input"]["bankAccount"]["input"]
            .get("bank")
            .is_none()
    );
    body["mandate"]["input"]["bankAccount"]["input"]["accountNumber"] = "".into();

    let af = api.post_in("/payments", "pay-1", &body, "af-ZA").await;
    assert_eq!(af.status, 422, "{}", af.json);
    let fields: Vec<(&str, &str, &str)> = af.json["error"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["field"].as_str().unwrap(),
                f["code"].as_str().unwrap(),
                f["message"].as_str().unwrap(),
            )
        })
        .collect();
    let required = "Hierdie veld is verpligtend.";
    assert_eq!(
        fields,
        [
            ("amountCents", "required", required),
            (
                "dateToProcess",
                "date_in_past",
                "Kies vandag of 'n latere datum."
            ),
            ("mandate.bankAccount.bank", "required", required),
            ("mandate.bankAccount.accountNumber", "required", required),
        ]
    );
    nothing_written(&mut socket, &customer_id).await;
}

on_both_databases!(
    no_bank_and_no_amount_are_told_with_what_only_the_server_finds,
    the_api_names_each_missing_field_in_the_language_asked_for
);
