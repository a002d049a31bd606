//! A customer's bank account is checked at capture the way a sponsoring
//! bank would (docs/bank-accounts.md): its length against the bank's
//! numbering, then the bank's account verification. The same refusals reach
//! the live socket, the machine API and a spreadsheet import, and nothing
//! refused is written.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support::{Api, grants, make_token};
use crate::collection_support::bank_accounts;
use crate::common::{Database, TestApp, committed_id, customer_input, error_of};
use crate::import_support::{HEADER, upload};
use protocol::*;

fn account(bank: BankId, account_type: AccountType, number: &str) -> BankAccountInput {
    BankAccountInput {
        bank: Some(bank),
        branch_code: bank.listed().branch_code.into(),
        account_type,
        holder_name: "T Nkosi".into(),
        account_number: number.into(),
    }
}

/// Each account the bank would refuse, with the field and code it is told on.
fn refused_accounts() -> Vec<(BankAccountInput, &'static str, ErrorCode)> {
    use AccountType::{Current, Savings};
    vec![
        // The defect as found: five digits for FNB, whose numbers have 10 or 11.
        (
            account(BankId::Fnb, Current, "12345"),
            "accountNumber",
            ErrorCode::AccountNumberLength,
        ),
        (
            account(BankId::Capitec, Savings, "12345678901"),
            "accountNumber",
            ErrorCode::AccountNumberLength,
        ),
        (
            account(BankId::Absa, Current, "0000000000"),
            "accountNumber",
            ErrorCode::InvalidAccountNumber,
        ),
        (
            account(BankId::Absa, Current, "4200000001"),
            "accountNumber",
            ErrorCode::BankAccountNotFound,
        ),
        (
            account(BankId::Absa, Current, "4200000002"),
            "accountNumber",
            ErrorCode::BankAccountClosed,
        ),
        (
            account(BankId::Nedbank, Current, "4200000004"),
            "holderName",
            ErrorCode::BankAccountHolderMismatch,
        ),
        (
            account(BankId::StandardBank, Savings, "4200000005"),
            "accountType",
            ErrorCode::BankAccountTypeMismatch,
        ),
        (
            account(BankId::Capitec, Savings, "4200000006"),
            "accountNumber",
            ErrorCode::BankAccountNoDebits,
        ),
    ]
}

async fn the_socket_refuses_every_account_the_bank_would(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Live).await;
    let customer = committed_id(
        tab.command(
            "c",
            Command::CreateCustomer {
                input: customer_input("Thandi", "t@example.co.za"),
            },
        )
        .await,
    );
    for (index, (input, field, code)) in refused_accounts().into_iter().enumerate() {
        let number = input.account_number.clone();
        let error = error_of(
            tab.command(
                &format!("refused-{index}"),
                Command::AddBankAccount {
                    customer_id: customer.clone(),
                    input,
                },
            )
            .await,
        );
        assert_eq!(
            error.fields,
            vec![FieldError {
                field: field.into(),
                code
            }],
            "{number}"
        );
    }
    assert!(bank_accounts(&mut tab, &customer).await.is_empty());

    // The length is told with the form's other mistakes, at one press.
    let mut two_mistakes = account(BankId::Tymebank, AccountType::Savings, "1234567890");
    two_mistakes.holder_name = String::new();
    let error = error_of(
        tab.command(
            "two",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: two_mistakes,
            },
        )
        .await,
    );
    let codes: Vec<(String, ErrorCode)> = error
        .fields
        .into_iter()
        .map(|f| (f.field, f.code))
        .collect();
    assert_eq!(
        codes,
        [
            ("holderName".to_string(), ErrorCode::Required),
            ("accountNumber".to_string(), ErrorCode::AccountNumberLength)
        ]
    );

    // A number of the bank's length verifies; so does a published test
    // number at a bank whose numbers are longer.
    for (id, input) in [
        (
            "tyme",
            account(BankId::Tymebank, AccountType::Savings, "51012345678"),
        ),
        (
            "magic",
            account(BankId::Tymebank, AccountType::Savings, "4000000002"),
        ),
        (
            "fnb",
            account(BankId::Fnb, AccountType::Current, "62001234567"),
        ),
    ] {
        committed_id(
            tab.command(
                id,
                Command::AddBankAccount {
                    customer_id: customer.clone(),
                    input,
                },
            )
            .await,
        );
    }
    assert_eq!(bank_accounts(&mut tab, &customer).await.len(), 3);
}

async fn the_api_refuses_with_a_translated_field_message(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut socket = owner.open(Mode::Test).await;
    let writes = grants(&[(Section::Customers, Access::Write)]);
    let (_, secret) = make_token(&mut socket, "shop", Mode::Test, writes).await;
    let api = Api::new(&app, &secret);
    let customer = api
        .post(
            "/customers",
            "c1",
            &serde_json::to_value(customer_input("Thandi", "t@example.co.za")).unwrap(),
        )
        .await;
    assert_eq!(customer.status, 201, "{}", customer.json);
    let customer_id = customer.json["id"].as_str().unwrap().to_string();
    let path = format!("/customers/{customer_id}/bank-accounts");

    let body = serde_json::to_value(account(BankId::Fnb, AccountType::Current, "12345")).unwrap();
    let en = api.post_in(&path, "a1", &body, "en").await;
    let af = api.post_in(&path, "a2", &body, "af").await;
    for answer in [&en, &af] {
        assert_eq!(answer.status, 422, "{}", answer.json);
        let field = &answer.json["error"]["fields"][0];
        assert_eq!(field["field"], "accountNumber", "{}", answer.json);
        assert_eq!(field["code"], "account_number_length", "{}", answer.json);
        assert!(!field["message"].as_str().unwrap_or("").is_empty());
    }
    assert_ne!(
        en.json["error"]["fields"][0]["message"],
        af.json["error"]["fields"][0]["message"]
    );

    let holder =
        serde_json::to_value(account(BankId::Absa, AccountType::Current, "4200000004")).unwrap();
    let answer = api.post(&path, "a3", &holder).await;
    assert_eq!(answer.status, 422, "{}", answer.json);
    assert_eq!(
        answer.json["error"]["fields"][0]["code"],
        "bank_account_holder_mismatch"
    );
    let listed = api.get(&path).await;
    assert_eq!(listed.status, 200, "{}", listed.json);
    assert!(
        listed.json["accounts"].as_array().unwrap().is_empty(),
        "{}",
        listed.json
    );
}

async fn an_import_lists_the_rows_the_bank_would_refuse(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.business_date = Some(time::macros::date!(2026 - 03 - 02));
    })
    .await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let row = |reference: &str, number: &str, bank: &str, branch: &str| {
        format!(
            "{reference},Thandi,Mokoena,t@example.co.za,T Mokoena,{number},Current,{bank},{branch},120.00,2026-03-10,Subscription,no\n"
        )
    };
    let csv = [
        format!("{HEADER}\n"),
        row("GOOD-1", "62001234567", "FNB", "250655"),
        row("SHORT-1", "12345", "FNB", "250655"),
        row("GONE-1", "4200000001", "Absa", "632005"),
        row("NAME-1", "4200000004", "Absa", "632005"),
        row("TYPE-1", "4200000005", "Absa", "632005"),
        row("CREDIT-1", "4200000006", "Absa", "632005"),
    ]
    .concat();
    let preview = upload(&mut tab, "march.csv", csv.as_bytes()).await.unwrap();
    assert_eq!((preview.rows, preview.valid, preview.invalid), (6, 1, 5));
    let issue = |row: u32, column: &str, code: ErrorCode| ImportIssue {
        row,
        column: column.into(),
        code,
    };
    // Row 1 is the header: the data starts on row 2.
    for expected in [
        issue(3, "Bank account number", ErrorCode::AccountNumberLength),
        issue(4, "Bank account number", ErrorCode::BankAccountNotFound),
        issue(
            5,
            "Bank account holder name",
            ErrorCode::BankAccountHolderMismatch,
        ),
        issue(6, "Bank account type", ErrorCode::BankAccountTypeMismatch),
        issue(7, "Bank account number", ErrorCode::BankAccountNoDebits),
    ] {
        assert!(
            preview.issues.contains(&expected),
            "{expected:?} not in {:?}",
            preview.issues
        );
    }
    assert_eq!(preview.issue_count, 5, "{:?}", preview.issues);
}

on_both_databases!(
    the_socket_refuses_every_account_the_bank_would,
    the_api_refuses_with_a_translated_field_message,
    an_import_lists_the_rows_the_bank_would_refuse
);
