//! Collections through the live socket, as the collection and money tests
//! need them: a customer, a monthly payment on a new mandate, and waiting
//! until the payer's real-time DebiCheck approval has it running.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use protocol::*;

use crate::common::{Socket, committed_id};

pub async fn customer(socket: &mut Socket) -> String {
    let input = CustomerInput {
        name: "Thabo Mokoena".into(),
        email: "thabo@example.co.za".into(),
        cellphone: "+27821234567".into(),
        id_type: Some(IdType::SouthAfricanId),
        id_number: "8801235111088".into(),
        ..Default::default()
    };
    committed_id(
        socket
            .command("c1", Command::CreateCustomer { input })
            .await,
    )
}

/// A mandate on a new Capitec savings account of the customer's.
pub fn new_mandate(method: PaymentMethod, account_number: &str, contract: &str) -> MandateInput {
    MandateInput {
        method,
        bank_account: BankAccountChoice::New {
            input: BankAccountInput {
                bank: Some(BankId::Capitec),
                branch_code: "470010".into(),
                account_type: AccountType::Savings,
                holder_name: "T Mokoena".into(),
                account_number: account_number.into(),
            },
        },
        client_type: ClientType::ResidentIndividual,
        industry: Industry::Subscription,
        contract_reference: contract.into(),
        maximum_collection_cents: Some(15_000),
        allow_tracking: true,
        tracking_days: Some(10),
        allow_date_adjustment: false,
        variable_amount: false,
        adjustment_category: AdjustmentCategory::Never,
        adjustment_type: None,
        adjustment_rate: String::new(),
        adjustment_amount_cents: None,
        approval_window: Some(ApprovalWindow::Tt1RealTime),
        abbreviated_name: "KAROO GYM".into(),
    }
}

/// A once-off R250 debit on 3 March 2026, running at once.
pub fn once_under(customer_id: &str, mandate: MandateChoice) -> PaymentInput {
    PaymentInput {
        customer_id: customer_id.into(),
        mandate: Some(mandate),
        kind: PaymentKind::Once,
        amount_cents: Some(25_000),
        date_to_process: Some("2026-03-03".into()),
        transaction_reference: String::new(),
        start_date: None,
        end_date: None,
        interval: None,
        day_to_process: None,
        first_collection_cents: None,
        start_running: true,
    }
}

/// An EFT debit order on a new account: no tracking, approval window or
/// maximum, which only DebiCheck and registered mandates have.
pub fn eft_mandate(account_number: &str, contract: &str) -> MandateInput {
    let mut mandate = new_mandate(PaymentMethod::EftDebitOrder, account_number, contract);
    mandate.allow_tracking = false;
    mandate.tracking_days = None;
    mandate.approval_window = None;
    mandate.maximum_collection_cents = None;
    mandate
}

/// R100 on the 5th of every month from 2 March 2026, running at once.
pub fn monthly(customer_id: &str, mandate: MandateInput) -> PaymentInput {
    PaymentInput {
        customer_id: customer_id.into(),
        mandate: Some(MandateChoice::New {
            input: Box::new(mandate),
        }),
        kind: PaymentKind::Recurring,
        amount_cents: Some(10_000),
        date_to_process: None,
        transaction_reference: String::new(),
        start_date: Some("2026-03-02".into()),
        end_date: None,
        interval: Some(Interval::Monthly),
        day_to_process: Some(5),
        first_collection_cents: None,
        start_running: true,
    }
}

pub fn monthly_debicheck(customer_id: &str, account_number: &str, contract: &str) -> PaymentInput {
    let mandate = new_mandate(PaymentMethod::Debicheck, account_number, contract);
    monthly(customer_id, mandate)
}

pub async fn running(socket: &mut Socket, payment_id: &str) {
    // The payer approves in real time, on the same business day.
    for _ in 0..50 {
        let reply = socket
            .query(
                "p",
                Query::GetPayment {
                    payment_id: payment_id.into(),
                },
            )
            .await;
        if let ServerFrame::Reply {
            ok: Some(ReplyBody::Payment { payment }),
            ..
        } = reply
            && payment.status == PaymentStatus::Running
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("payment {payment_id} never ran");
}

/// The merchant's debits that match `filter`, oldest first.
pub async fn transactions(socket: &mut Socket, filter: TransactionFilter) -> Vec<Transaction> {
    match socket
        .query(
            "t",
            Query::ListTransactions {
                filter,
                sort: SortOrder::Oldest,
                cursor: None,
                limit: None,
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::TransactionPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

/// The fields an error names, with their codes, in order.
pub fn named(error: &WireError) -> Vec<(&str, ErrorCode)> {
    error
        .fields
        .iter()
        .map(|f| (f.field.as_str(), f.code))
        .collect()
}

/// The customer has no bank account and the merchant no mandate, once-off
/// payment or schedule.
pub async fn nothing_written(socket: &mut Socket, customer_id: &str) {
    let accounts = socket
        .query(
            "a",
            Query::ListBankAccounts {
                customer_id: customer_id.into(),
            },
        )
        .await;
    match accounts {
        ServerFrame::Reply {
            ok: Some(ReplyBody::BankAccounts { accounts }),
            ..
        } => assert!(accounts.is_empty(), "{accounts:?}"),
        other => panic!("{other:?}"),
    }
    let mandates = socket
        .query(
            "m",
            Query::ListMandates {
                filter: MandateFilter::default(),
                sort: SortOrder::Newest,
                cursor: None,
                limit: None,
            },
        )
        .await;
    match mandates {
        ServerFrame::Reply {
            ok: Some(ReplyBody::MandatePage { items, .. }),
            ..
        } => assert!(items.is_empty(), "{items:?}"),
        other => panic!("{other:?}"),
    }
    // Neither kind: a form may have made a schedule as well as a once-off payment.
    for kind in [PaymentKind::Once, PaymentKind::Recurring] {
        let payments = socket
            .query(
                &format!("p-{kind:?}"),
                Query::ListPayments {
                    kind,
                    filter: PaymentFilter::default(),
                    sort: SortOrder::Newest,
                    cursor: None,
                    limit: None,
                },
            )
            .await;
        match payments {
            ServerFrame::Reply {
                ok: Some(ReplyBody::PaymentPage { items, .. }),
                ..
            } => assert!(items.is_empty(), "{kind:?}: {items:?}"),
            other => panic!("{other:?}"),
        }
    }
}

/// The payment `id` as the merchant reads it now.
pub async fn payment(socket: &mut Socket, id: &str) -> Payment {
    match socket
        .query(
            "p",
            Query::GetPayment {
                payment_id: id.into(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Payment { payment }),
            ..
        } => *payment,
        other => panic!("{other:?}"),
    }
}

/// The mandate `id` as the merchant reads it now.
pub async fn mandate(socket: &mut Socket, id: &str) -> Mandate {
    match socket
        .query(
            "m",
            Query::GetMandate {
                mandate_id: id.into(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Mandate { mandate }),
            ..
        } => *mandate,
        other => panic!("{other:?}"),
    }
}

/// The bank accounts of customer `customer_id`.
pub async fn bank_accounts(socket: &mut Socket, customer_id: &str) -> Vec<BankAccount> {
    match socket
        .query(
            "list",
            Query::ListBankAccounts {
                customer_id: customer_id.into(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::BankAccounts { accounts }),
            ..
        } => accounts,
        other => panic!("{other:?}"),
    }
}
