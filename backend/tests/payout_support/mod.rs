//! What the payout tests share: card money in through a pay page, a
//! settlement account, and reading balances and payouts over the socket.

#![allow(dead_code)]

use crate::common::{Browser, Socket, TestApp, committed_id};
use protocol::*;

fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..].chars().take_while(|c| *c != '"').collect()
}

/// A payer pays R150 by card on a new pay page: R143.57 net of the card
/// fee, available the next business day.
pub async fn pay_by_card(app: &TestApp, tab: &mut Socket, reference: &str) {
    pay_by_card_with(&app.browser(), tab, reference).await;
}

/// The same, the payer's browser given (a server started as a process).
pub async fn pay_by_card_with(browser: &Browser, tab: &mut Socket, reference: &str) {
    let input = PayPageInput {
        title: "Yoga class".into(),
        description: "One drop-in class.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Once,
        interval: None,
        methods: vec![PaymentMethod::Card],
        expires_on: None,
        max_uses: None,
        reference: reference.into(),
        success_url: None,
        colour: "#1e3a8a".into(),
    };
    let page_id = committed_id(
        tab.command(
            &format!("page-{reference}"),
            Command::CreatePayPage {
                input: Box::new(input),
            },
        )
        .await,
    );
    let html = browser
        .http
        .get(format!("{}/pay/{page_id}?method=card", browser.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let (csrf, attempt) = (hidden(&html, "csrfToken"), hidden(&html, "attempt"));
    let paid = browser
        .post_form(
            &format!("/pay/{page_id}"),
            &[
                ("csrfToken", csrf.as_str()),
                ("attempt", attempt.as_str()),
                ("method", "card"),
                ("name", "Lerato Dlamini"),
                ("email", "lerato@example.co.za"),
                ("cardNumber", "4242424242424242"),
                ("expiry", "12/29"),
                ("cvv", "123"),
            ],
        )
        .await;
    assert_eq!(paid.status(), 303);
}

pub const NET_OF_ONE_CARD: i64 = 14_357;
pub const PASSWORD: &str = "karoo-sunset-41";

pub fn account(number: &str) -> BankAccountInput {
    BankAccountInput {
        bank: BankId::Fnb,
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
