//! The money side of an order: the transaction that carries a card or
//! pay-by-bank payment, from pending to paid or refused. These are not debit
//! orders: the bank answers at once, so the transaction has no scripted
//! reports for the scheduler to play.

use protocol::{
    BankId, CardBrand, Mode, Order, OrderItem, OrderStatus, PayFailure, PaymentKind, PaymentMethod,
    Transaction, TransactionStatus, TransactionStep,
};

use time::Date;

use crate::domain::debits::step;
use crate::domain::lifecycle::transaction::TransactionEvent;
use crate::error::AppResult;
use crate::ids::new_id;
use crate::store::transactions::TransactionRecord;

/// How the payer pays: the bank they chose, or the card's brand and last four.
#[derive(Clone, Debug)]
pub enum Source {
    Bank(BankId),
    Card { brand: CardBrand, last_four: String },
}

/// Who pays and for what.
pub struct ChargeRequest<'a> {
    pub mode: Mode,
    pub page_id: Option<&'a str>,
    pub description: &'a str,
    pub amount_cents: i64,
    pub reference: &'a str,
    pub payer_name: &'a str,
    pub payer_email: Option<&'a str>,
    pub customer_id: Option<&'a str>,
    pub kind: PaymentKind,
    pub method: PaymentMethod,
    pub source: Source,
    /// The stream's business date, `YYYY-MM-DD`.
    pub today: &'a str,
    /// Now by the stream's clock (`scope::stream_now_ms`).
    pub now: i64,
}

/// A new order and its pending transaction.
pub fn open_charge(request: &ChargeRequest) -> (Order, TransactionRecord) {
    let now = request.now;
    let order_id = new_id("ord");
    let transaction_id = new_id("txn");
    let mut order = Order {
        id: order_id.clone(),
        mode: request.mode,
        page_id: request.page_id.map(str::to_string),
        items: vec![OrderItem {
            description: request.description.to_string(),
            quantity: 1,
            unit_cents: request.amount_cents,
        }],
        amount_cents: request.amount_cents,
        payer_name: request.payer_name.to_string(),
        payer_email: request.payer_email.map(str::to_string),
        customer_id: request.customer_id.map(str::to_string),
        method: request.method,
        status: OrderStatus::Pending,
        failure: None,
        reference: request.reference.to_string(),
        transaction_id: Some(transaction_id.clone()),
        refunded_cents: 0,
        fee_cents: 0,
        net_cents: 0,
        refunds: Vec::new(),
        created_at: now,
        updated_at: now,
    };
    let (bank, card_brand, last_digits) = match &request.source {
        Source::Bank(bank) => (Some(*bank), None, String::new()),
        Source::Card { brand, last_four } => (None, Some(*brand), last_four.clone()),
    };
    let view = Transaction {
        id: transaction_id,
        mode: request.mode,
        payment_id: None,
        payment_kind: request.kind,
        mandate_id: None,
        order_id: Some(order_id),
        customer_id: request.customer_id.map(str::to_string),
        customer_name: request.payer_name.to_string(),
        method: request.method,
        bank,
        card_brand,
        account_last_digits: last_digits,
        reference: request.reference.to_string(),
        amount_cents: request.amount_cents,
        action_date: request.today.to_string(),
        status: TransactionStatus::Pending,
        unpaid_code: None,
        failure: None,
        attempt: 1,
        history: vec![TransactionStep {
            status: TransactionStatus::Pending,
            date: request.today.to_string(),
            unpaid_code: None,
        }],
        fee_cents: 0,
        net_cents: 0,
        follow_ups: Vec::new(),
        created_at: now,
        updated_at: now,
    };
    crate::domain::ledger::price_order(&mut order, 0);
    let record = TransactionRecord {
        view: crate::domain::ledger::priced(view),
        script: String::new(),
        script_step: 0,
        settled_on: None,
    };
    (order, record)
}

/// The bank's answer: paid or refused (settled today either way, so the
/// day's figures count it, as for a debit order), or withdrawn before the
/// bank answered: cancelled by the payer, or abandoned at the 3-D Secure or
/// bank step until it expired (neither ever reaches the bank).
pub fn settle(
    order: &mut Order,
    record: &mut TransactionRecord,
    result: Result<(), PayFailure>,
    (today, now): (Date, i64),
) -> AppResult<()> {
    use TransactionEvent as E;
    let events: &[TransactionEvent] = match result {
        Ok(()) => &[E::Send, E::Accept, E::Pay],
        Err(PayFailure::CancelledByPayer | PayFailure::Abandoned) => &[E::Cancel],
        Err(_) => &[E::Send, E::RejectByBank],
    };
    for event in events {
        step(record, *event, today)?;
    }
    record.view.failure = result.err();
    record.view.updated_at = now;
    order.status = match result {
        Ok(()) => OrderStatus::Paid,
        Err(PayFailure::CancelledByPayer) => OrderStatus::Cancelled,
        Err(PayFailure::Abandoned) => OrderStatus::Abandoned,
        Err(_) => OrderStatus::Failed,
    };
    order.failure = result.err();
    order.updated_at = now;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use time::macros::date;

    use super::*;

    fn request() -> ChargeRequest<'static> {
        ChargeRequest {
            mode: Mode::Test,
            page_id: Some("ppg_1"),
            description: "Yoga class",
            amount_cents: 15_000,
            reference: "YOGA-1",
            payer_name: "Thandi Nkosi",
            payer_email: None,
            customer_id: None,
            kind: PaymentKind::Once,
            method: PaymentMethod::Card,
            source: Source::Card {
                brand: CardBrand::Visa,
                last_four: "4242".into(),
            },
            today: "2026-03-02",
            now: 1_772_431_200_000,
        }
    }

    #[test]
    fn an_approved_charge_is_paid_and_settled_today() {
        let (mut order, mut record) = open_charge(&request());
        assert_eq!(
            order.transaction_id.as_deref(),
            Some(record.view.id.as_str())
        );
        assert_eq!(record.view.order_id.as_deref(), Some(order.id.as_str()));
        settle(
            &mut order,
            &mut record,
            Ok(()),
            (date!(2026 - 03 - 02), 1_772_431_200_000),
        )
        .unwrap();
        assert_eq!(order.status, OrderStatus::Paid);
        assert_eq!(record.view.status, TransactionStatus::Paid);
        assert_eq!(record.settled_on.as_deref(), Some("2026-03-02"));
        assert_eq!(record.view.history.len(), 4);
        assert!(
            record.script.is_empty(),
            "the scheduler has nothing to play"
        );
    }

    #[test]
    fn refusals_and_cancellations_keep_their_reason() {
        let (mut order, mut record) = open_charge(&request());
        settle(
            &mut order,
            &mut record,
            Err(PayFailure::InsufficientFunds),
            (date!(2026 - 03 - 02), 1_772_431_200_000),
        )
        .unwrap();
        assert_eq!(
            (order.status, order.failure),
            (OrderStatus::Failed, Some(PayFailure::InsufficientFunds))
        );
        assert_eq!(record.view.status, TransactionStatus::RejectedByBank);
        // Refused is a bank's answer: it counts on the day, as a debit's does.
        assert_eq!(record.settled_on.as_deref(), Some("2026-03-02"));
        let (mut order, mut record) = open_charge(&request());
        settle(
            &mut order,
            &mut record,
            Err(PayFailure::CancelledByPayer),
            (date!(2026 - 03 - 02), 1_772_431_200_000),
        )
        .unwrap();
        assert_eq!(order.status, OrderStatus::Cancelled);
        assert_eq!(record.view.status, TransactionStatus::Cancelled);
        assert_eq!(record.settled_on, None, "the bank never answered");
    }

    #[test]
    fn an_abandoned_step_is_withdrawn_and_never_charged() {
        let (mut order, mut record) = open_charge(&request());
        settle(
            &mut order,
            &mut record,
            Err(PayFailure::Abandoned),
            (date!(2026 - 03 - 03), 1_772_517_600_000),
        )
        .unwrap();
        assert_eq!(
            (order.status, order.failure),
            (OrderStatus::Abandoned, Some(PayFailure::Abandoned))
        );
        assert_eq!(record.view.status, TransactionStatus::Cancelled);
        assert_eq!(record.view.failure, Some(PayFailure::Abandoned));
        assert_eq!(record.settled_on, None, "the bank never answered");
        assert!(
            !record
                .view
                .history
                .iter()
                .any(|s| s.status == TransactionStatus::Paid),
            "{:?}",
            record.view.history
        );
    }
}
