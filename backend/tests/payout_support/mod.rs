//! What the payout tests share: card money in through a pay page, a
//! settlement account, and reading balances and payouts over the socket.

#![allow(dead_code)]

use crate::common::orders::pay_card_page;
use crate::common::{Browser, Socket, TestApp};
use protocol::*;

/// A payer pays R150 by card on a new pay page: R143.57 net of the card
/// fee, available the next business day.
pub async fn pay_by_card(app: &TestApp, tab: &mut Socket, reference: &str) {
    pay_by_card_with(&app.browser(), tab, reference).await;
}

/// The same, the payer's browser given (a server started as a process).
pub async fn pay_by_card_with(browser: &Browser, tab: &mut Socket, reference: &str) {
    pay_card_page(browser, tab, reference, "Lerato Dlamini").await;
}

pub const NET_OF_ONE_CARD: i64 = 14_357;
pub const PASSWORD: &str = "karoo-sunset-41";

pub fn account(number: &str) -> BankAccountInput {
    BankAccountInput {
        bank: Some(BankId::Fnb),
        branch_code: "250655".into(),
        account_type: AccountType::Current,
        holder_name: "Karoo Gym (Pty) Ltd".into(),
        account_number: number.into(),
    }
}

pub fn set_account(number: &str, confirmation: &str) -> Command {
    Command::SetSettlementAccount {
        input: account(number),
        confirmation: confirmation.into(),
    }
}

pub async fn balance(socket: &mut Socket) -> (i64, i64) {
    match socket.query("b", Query::GetBalance {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Balance { balance }),
            ..
        } => (balance.available_cents, balance.pending_cents),
        other => panic!("{other:?}"),
    }
}

pub async fn payouts(socket: &mut Socket) -> Vec<Payout> {
    match socket
        .query(
            "payouts",
            Query::ListPayouts {
                cursor: None,
                limit: None,
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Payouts { payouts, .. }),
            ..
        } => payouts,
        other => panic!("{other:?}"),
    }
}

pub async fn payout(socket: &mut Socket, id: &str) -> PayoutDetail {
    match socket
        .query(
            "payout",
            Query::GetPayout {
                payout_id: id.into(),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Payout { detail }),
            ..
        } => *detail,
        other => panic!("{other:?}"),
    }
}

/// Waits until `watcher` hears that the payout reached `status`.
pub async fn payout_reaches(watcher: &mut Socket, id: &str, status: PayoutStatus) -> Payout {
    loop {
        if let ServerFrame::Delta { changes, .. } = watcher.next().await {
            for change in changes {
                if let Change::PayoutUpserted { payout } = change
                    && payout.id == id
                    && payout.status == status
                {
                    return *payout;
                }
            }
        }
    }
}
