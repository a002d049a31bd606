use proptest::prelude::*;
use protocol::{Mode, PaymentKind, PaymentMethod, Transaction, TransactionStatus, TransactionStep};
use time::{Date, Month};

use super::*;
use crate::domain::calendar::{add_business_days, iso_date};

/// A pending charge with no history: the payouts' tests build on it too.
pub(crate) fn charge(id: usize, method: PaymentMethod, amount_cents: i64) -> Transaction {
    Transaction {
        id: format!("txn_{id}"),
        mode: Mode::Test,
        payment_id: None,
        payment_kind: PaymentKind::Once,
        mandate_id: None,
        order_id: None,
        customer_id: None,
        customer_name: String::new(),
        method,
        bank: None,
        card_brand: None,
        account_last_digits: String::new(),
        failure: None,
        reference: String::new(),
        amount_cents,
        action_date: String::new(),
        status: TransactionStatus::Pending,
        unpaid_code: None,
        attempt: 1,
        history: Vec::new(),
        fee_cents: 0,
        net_cents: 0,
        follow_ups: Vec::new(),
        created_at: 0,
        updated_at: 0,
    }
}

pub(crate) fn push_step(view: &mut Transaction, status: TransactionStatus, date: Date) {
    view.status = status;
    view.history.push(TransactionStep {
        status,
        date: iso_date(date),
        unpaid_code: None,
    });
}

fn start() -> Date {
    Date::from_calendar_date(2026, Month::March, 2).unwrap_or(Date::MIN)
}

#[test]
fn fees_round_and_never_exceed_the_collection() {
    let card = default_fee(PaymentMethod::Card);
    // 2.95 % of R100 is R2.95, plus R2.00.
    assert_eq!(card.of(10_000), 495);
    assert_eq!(card.of(100), 100);
    assert_eq!(default_fee(PaymentMethod::EftDebitOrder).of(250), 250);
    assert_eq!(default_fee(PaymentMethod::InstantEft).of(12_345), 247);
}

#[test]
fn a_paid_card_charge_settles_the_next_business_day() {
    let day = start();
    let mut view = charge(1, PaymentMethod::Card, 10_000);
    push_step(&mut view, TransactionStatus::Paid, day);
    let planned = planned_entries(&view).unwrap_or_default();
    let kinds: Vec<_> = planned.iter().map(|e| (e.kind, e.amount_cents)).collect();
    assert_eq!(
        kinds,
        vec![(EntryKind::Collection, 10_000), (EntryKind::Fee, -495)]
    );
    let entries: Vec<_> = planned
        .iter()
        .map(|e| (e.amount_cents, e.available_on))
        .collect();
    assert_eq!(balance_of(&entries, day).available_cents, 0);
    assert_eq!(balance_of(&entries, day).pending_cents, 9_505);
    let next = add_business_days(day, 1);
    assert_eq!(balance_of(&entries, next).available_cents, 9_505);
}

#[test]
fn a_dispute_takes_back_the_collection_and_returns_its_fee() {
    let day = start();
    let mut view = charge(1, PaymentMethod::EftDebitOrder, 5_000);
    push_step(&mut view, TransactionStatus::Paid, day);
    push_step(
        &mut view,
        TransactionStatus::Disputed,
        add_business_days(day, 3),
    );
    push_step(
        &mut view,
        TransactionStatus::Reversed,
        add_business_days(day, 5),
    );
    let planned = planned_entries(&view).unwrap_or_default();
    assert_eq!(planned.iter().map(|e| e.amount_cents).sum::<i64>(), 0);
    assert_eq!(planned.len(), 4);
}

#[test]
fn an_unpaid_that_was_never_paid_moves_no_money() {
    let mut view = charge(1, PaymentMethod::Debicheck, 5_000);
    push_step(&mut view, TransactionStatus::Unpaid, start());
    assert!(planned_entries(&view).unwrap_or_default().is_empty());
}

#[derive(Clone, Debug)]
enum Op {
    Collect { method: usize, amount: i64 },
    TakeBack { pick: usize, dispute: bool },
    Advance { days: i64 },
    PayOut { amount: i64 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0usize..5, 1i64..2_000_000).prop_map(|(method, amount)| Op::Collect { method, amount }),
        (any::<usize>(), any::<bool>()).prop_map(|(pick, dispute)| Op::TakeBack { pick, dispute }),
        (0i64..15).prop_map(|days| Op::Advance { days }),
        (1i64..5_000_000).prop_map(|amount| Op::PayOut { amount }),
    ]
}

/// The ledger as posted: every transaction's planned entries (re-posted
/// after each step, kept once per kind as the unique index does) plus
/// payouts, which are refused beyond the available balance.
#[derive(Default)]
struct Model {
    transactions: Vec<Transaction>,
    posted: Vec<(String, EntryKind, i64, Date)>,
    payouts: Vec<(i64, Date)>,
}

impl Model {
    fn post(&mut self, index: usize) {
        let view = &self.transactions[index];
        for entry in planned_entries(view).unwrap_or_default() {
            let known = self
                .posted
                .iter()
                .any(|(id, kind, _, _)| *id == view.id && *kind == entry.kind);
            if !known {
                self.posted.push((
                    view.id.clone(),
                    entry.kind,
                    entry.amount_cents,
                    entry.available_on,
                ));
            }
        }
    }

    fn entries(&self) -> Vec<(i64, Date)> {
        self.posted
            .iter()
            .map(|(_, _, amount, available_on)| (*amount, *available_on))
            .chain(self.payouts.iter().copied())
            .collect()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn balance_is_the_sum_of_entries_and_never_negative(ops in prop::collection::vec(op(), 1..400)) {
        let mut model = Model::default();
        let mut today = start();
        for op in ops {
            match op {
                Op::Collect { method, amount } => {
                    let method = PaymentMethod::ALL[method];
                    let mut view = charge(model.transactions.len(), method, amount);
                    push_step(&mut view, TransactionStatus::Paid, today);
                    model.transactions.push(view);
                    let last = model.transactions.len() - 1;
                    model.post(last);
                    // Posting again (a replayed step) adds nothing.
                    let before = model.posted.len();
                    model.post(last);
                    prop_assert_eq!(before, model.posted.len());
                }
                Op::TakeBack { pick, dispute } => {
                    if model.transactions.is_empty() {
                        continue;
                    }
                    let index = pick % model.transactions.len();
                    let view = &mut model.transactions[index];
                    // The bank can only take a debit back inside its window,
                    // which the settlement delay covers.
                    let paid_on = parse_iso_date(&view.history[0].date).unwrap_or(today);
                    let window_ends = add_business_days(paid_on, settlement_delay_days(view.method));
                    if view.status != TransactionStatus::Paid || today >= window_ends {
                        continue;
                    }
                    let status = if dispute { TransactionStatus::Disputed } else { TransactionStatus::Unpaid };
                    push_step(view, status, today);
                    model.post(index);
                }
                Op::Advance { days } => {
                    today = add_business_days(today, days);
                }
                Op::PayOut { amount } => {
                    if amount <= balance_of(&model.entries(), today).available_cents {
                        model.payouts.push((-amount, today));
                    }
                }
            }
            let entries = model.entries();
            let balance = balance_of(&entries, today);
            prop_assert_eq!(balance.total_cents(), entries.iter().map(|(a, _)| a).sum::<i64>());
            prop_assert!(balance.available_cents >= 0, "available {balance:?}");
            prop_assert!(balance.total_cents() >= 0, "total {balance:?}");
            // Availability never runs ahead of the day after.
            let later = balance_of(&entries, add_business_days(today, 60));
            prop_assert!(later.available_cents >= balance.available_cents);
        }
    }
}
