//! Customers' bank accounts over the live socket: validation, live changes
//! in other tabs, duplicates, removal, and isolation between merchants.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use crate::collection_support::bank_accounts;
use common::{Database, TestApp, committed_id, customer_input, error_of};
use protocol::*;

fn capitec(number: &str) -> BankAccountInput {
    BankAccountInput {
        bank: Some(BankId::Capitec),
        branch_code: "470010".into(),
        account_type: AccountType::Savings,
        holder_name: "T Nkosi".into(),
        account_number: number.into(),
    }
}

async fn bank_accounts_are_added_live_and_removed(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab1, _) = owner.live().await;
    let (mut tab2, _) = owner.live().await;
    let customer = committed_id(
        tab1.command(
            "c",
            Command::CreateCustomer {
                input: customer_input("Thandi", "t@example.co.za"),
            },
        )
        .await,
    );
    tab2.next().await;

    let mut wrong = capitec("1234567890");
    wrong.branch_code = "123456".into();
    let error = error_of(
        tab1.command(
            "w",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: wrong,
            },
        )
        .await,
    );
    assert_eq!(
        error.fields,
        vec![FieldError {
            field: "branchCode".into(),
            code: ErrorCode::BranchCodeMismatch
        }]
    );

    let account = committed_id(
        tab1.command(
            "a",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: capitec("1234 567 890"),
            },
        )
        .await,
    );
    match tab2.next().await {
        ServerFrame::Delta { changes, .. } => match &changes[..] {
            // The record first, then the account history's entry for it.
            [
                Change::BankAccountAdded { account: added },
                Change::HistoryEntryAdded { .. },
            ] => {
                assert_eq!(
                    (
                        added.id.as_str(),
                        added.customer_id.as_str(),
                        added.account_number.as_str()
                    ),
                    (account.as_str(), customer.as_str(), "1234567890")
                );
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    let duplicate = error_of(
        tab2.command(
            "d",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: capitec("1234567890"),
            },
        )
        .await,
    );
    assert_eq!(duplicate.fields[0].code, ErrorCode::DuplicateBankAccount);
    assert_eq!(bank_accounts(&mut tab2, &customer).await.len(), 1);

    committed_id(
        tab2.command(
            "r",
            Command::RemoveBankAccount {
                bank_account_id: account.clone(),
            },
        )
        .await,
    );
    // The other tab hears of the removal (waits for the delta, or fails).
    tab1.next_matching(|f| matches!(f, ServerFrame::Delta { changes, .. } if matches!(&changes[0], Change::BankAccountRemoved { id, .. } if *id == account))).await;
    assert!(bank_accounts(&mut tab1, &customer).await.is_empty());
    assert_eq!(
        error_of(
            tab1.command(
                "r2",
                Command::RemoveBankAccount {
                    bank_account_id: account.clone()
                }
            )
            .await
        )
        .code,
        ErrorCode::NotFound
    );
    // Removed, the same account may be added again.
    committed_id(
        tab1.command(
            "a2",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: capitec("1234567890"),
            },
        )
        .await,
    );
}

/// One press names every mistake: an account the customer already has is
/// told with a missing holder name and a wrong branch code, not after them.
async fn a_duplicate_account_is_told_with_the_forms_other_mistakes(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    let customer = committed_id(
        tab.command(
            "c",
            Command::CreateCustomer {
                input: customer_input("Thandi", "t@example.co.za"),
            },
        )
        .await,
    );
    committed_id(
        tab.command(
            "a",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: capitec("1234567890"),
            },
        )
        .await,
    );
    let named = |error: WireError| -> Vec<(String, ErrorCode)> {
        error
            .fields
            .into_iter()
            .map(|f| (f.field, f.code))
            .collect()
    };

    let mut again = capitec("1234 567 890");
    again.holder_name = " ".into();
    again.branch_code = "123456".into();
    let error = error_of(
        tab.command(
            "again",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: again,
            },
        )
        .await,
    );
    assert_eq!(
        named(error),
        [
            ("branchCode".to_string(), ErrorCode::BranchCodeMismatch),
            ("holderName".to_string(), ErrorCode::Required),
            ("accountNumber".to_string(), ErrorCode::DuplicateBankAccount),
        ]
    );

    // Everything blank: every required field at once, and no duplicate
    // (there is no number to have twice).
    let blank = BankAccountInput {
        bank: Some(BankId::Capitec),
        branch_code: String::new(),
        account_type: AccountType::Savings,
        holder_name: String::new(),
        account_number: String::new(),
    };
    let error = error_of(
        tab.command(
            "blank",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: blank,
            },
        )
        .await,
    );
    assert_eq!(
        named(error),
        [
            ("branchCode".to_string(), ErrorCode::Required),
            ("holderName".to_string(), ErrorCode::Required),
            ("accountNumber".to_string(), ErrorCode::Required),
        ]
    );
    assert_eq!(bank_accounts(&mut tab, &customer).await.len(), 1);
}

async fn another_merchant_cannot_touch_the_accounts(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let (mut tab, _) = owner.live().await;
    let customer = committed_id(
        tab.command(
            "c",
            Command::CreateCustomer {
                input: customer_input("Thandi", "t@example.co.za"),
            },
        )
        .await,
    );
    let account = committed_id(
        tab.command(
            "a",
            Command::AddBankAccount {
                customer_id: customer.clone(),
                input: capitec("1234567890"),
            },
        )
        .await,
    );
    tab.next().await;
    tab.next().await;

    let rival = app.merchant("rival@example.co.za").await;
    let (mut other, _) = rival.live().await;
    // Another merchant's customer is not found, not merely without accounts.
    let listed = other
        .query(
            "list",
            Query::ListBankAccounts {
                customer_id: customer.clone(),
            },
        )
        .await;
    assert_eq!(error_of(listed).code, ErrorCode::NotFound);
    let add = error_of(
        other
            .command(
                "x1",
                Command::AddBankAccount {
                    customer_id: customer.clone(),
                    input: capitec("9999999999"),
                },
            )
            .await,
    );
    assert_eq!(add.code, ErrorCode::NotFound);
    let remove = error_of(
        other
            .command(
                "x2",
                Command::RemoveBankAccount {
                    bank_account_id: account,
                },
            )
            .await,
    );
    assert_eq!(remove.code, ErrorCode::NotFound);
    tab.expect_silence(Duration::from_millis(300)).await;
    assert_eq!(bank_accounts(&mut tab, &customer).await.len(), 1);
}

on_both_databases!(
    bank_accounts_are_added_live_and_removed,
    a_duplicate_account_is_told_with_the_forms_other_mistakes,
    another_merchant_cannot_touch_the_accounts
);
