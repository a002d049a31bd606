//! Thousands of random collections, fees, refunds, disputes and payouts
//! (some refused by the bank) against the ledger's and the payouts' own
//! rules: the balance stays the sum of the entries and never goes below
//! zero, and every payout that stands settles lines adding up to it.

use proptest::prelude::*;
use protocol::{PaymentMethod, Transaction, TransactionStatus, TransactionStep};
use time::{Date, Month};

use super::rules::{allocate, customer_debit, settlement_debit};
use crate::domain::calendar::{add_business_days, iso_date, parse_iso_date};
use crate::domain::fees::DEFAULT_PAYOUT_FEE_CENTS as PAYOUT_FEE_CENTS;
use crate::domain::ledger::tests as ledger_tests;
use crate::domain::ledger::{
    EntryKind, balance_of, default_fee, planned_entries, settlement_delay_days,
};

#[derive(Clone, Debug)]
enum Op {
    Collect {
        method: usize,
        amount: i64,
    },
    TakeBack {
        pick: usize,
        dispute: bool,
    },
    Refund {
        pick: usize,
    },
    Advance {
        days: i64,
    },
    PayOut {
        amount: i64,
        to_customer: bool,
        refused: bool,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0usize..5, 1i64..2_000_000).prop_map(|(method, amount)| Op::Collect { method, amount }),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(pick, dispute)| Op::TakeBack { pick, dispute }),
        1 => any::<usize>().prop_map(|pick| Op::Refund { pick }),
        2 => (0i64..8).prop_map(|days| Op::Advance { days }),
        3 => (1i64..3_000_000, any::<bool>(), prop::bool::weighted(0.2))
            .prop_map(|(amount, to_customer, refused)| Op::PayOut { amount, to_customer, refused }),
    ]
}

struct Entry {
    id: String,
    /// Entries of payouts are never settled by payouts.
    payout_kind: bool,
    amount: i64,
    available_on: Date,
}

struct Payout {
    total: i64,
    lines: Vec<(String, i64)>,
    failed: bool,
    /// Refused by the bank on the next day played.
    refused: bool,
    id: usize,
}

#[derive(Default)]
struct Model {
    transactions: Vec<(Transaction, bool)>,
    posted: Vec<(String, EntryKind)>,
    entries: Vec<Entry>,
    payouts: Vec<Payout>,
}

impl Model {
    fn add(&mut self, id: String, payout_kind: bool, amount: i64, available_on: Date) {
        self.entries.push(Entry {
            id,
            payout_kind,
            amount,
            available_on,
        });
    }

    fn post(&mut self, index: usize) {
        let view = self.transactions[index].0.clone();
        for entry in planned_entries(&view).unwrap_or_default() {
            if !self.posted.contains(&(view.id.clone(), entry.kind)) {
                self.posted.push((view.id.clone(), entry.kind));
                let id = format!("{}:{}", view.id, entry.kind.as_str());
                self.add(id, false, entry.amount_cents, entry.available_on);
            }
        }
    }

    fn sums(&self) -> Vec<(i64, Date)> {
        self.entries
            .iter()
            .map(|e| (e.amount, e.available_on))
            .collect()
    }

    /// What `store::payouts::open_entries` reads: available entries less
    /// what payouts that stand have settled of them.
    fn open(&self, today: Date) -> Vec<(String, i64)> {
        self.entries
            .iter()
            .filter(|e| !e.payout_kind && e.available_on <= today)
            .map(|e| {
                let settled: i64 = self
                    .payouts
                    .iter()
                    .filter(|p| !p.failed)
                    .flat_map(|p| p.lines.iter())
                    .filter(|(id, _)| *id == e.id)
                    .map(|(_, cents)| cents)
                    .sum();
                (e.id.clone(), e.amount - settled)
            })
            .filter(|(_, open)| *open != 0)
            .collect()
    }
}

/// A charge the bank paid on `day`.
fn charge(id: usize, method: PaymentMethod, amount_cents: i64, day: Date) -> Transaction {
    let mut view = ledger_tests::charge(id, method, amount_cents);
    ledger_tests::push_step(&mut view, TransactionStatus::Paid, day);
    view
}

fn start() -> Date {
    Date::from_calendar_date(2026, Month::March, 2).unwrap_or(Date::MIN)
}

#[test]
fn debits_and_fees() {
    assert_eq!(settlement_debit(PAYOUT_FEE_CENTS), None);
    let out = settlement_debit(10_000).unwrap_or_else(|| panic!("debit"));
    assert_eq!(
        (out.total_cents, out.net_cents),
        (10_000, 10_000 - PAYOUT_FEE_CENTS)
    );
    let to = customer_debit(1_000).unwrap_or_else(|| panic!("debit"));
    assert_eq!(
        (to.total_cents, to.net_cents),
        (1_000 + PAYOUT_FEE_CENTS, 1_000)
    );
    assert_eq!(customer_debit(0), None);
}

#[test]
fn the_schedule_falls_on_its_day_or_the_next_business_day() {
    use protocol::{PayoutInterval, PayoutSchedule};
    use time::macros::date;
    let every = |interval, weekday, day_of_month| PayoutSchedule {
        interval,
        weekday,
        day_of_month,
        minimum_cents: 1_000,
    };
    let friday = every(PayoutInterval::Weekly, 5, 0);
    assert!(super::rules::schedule_due(&friday, date!(2026 - 03 - 06)));
    assert!(!super::rules::schedule_due(&friday, date!(2026 - 03 - 05)));
    // Good Friday 2026 (3 April) and Family Day (6 April): the Tuesday pays.
    assert!(!super::rules::schedule_due(&friday, date!(2026 - 04 - 03)));
    assert!(super::rules::schedule_due(&friday, date!(2026 - 04 - 07)));
    assert!(!super::rules::schedule_due(&friday, date!(2026 - 04 - 08)));
    // The 25th of April 2026 is a Saturday: Monday the 27th is Freedom Day.
    let monthly = every(PayoutInterval::Monthly, 0, 25);
    assert!(super::rules::schedule_due(&monthly, date!(2026 - 04 - 28)));
    assert!(!super::rules::schedule_due(&monthly, date!(2026 - 04 - 29)));
    assert!(super::rules::schedule_due(&monthly, date!(2026 - 03 - 25)));
    let daily = every(PayoutInterval::Daily, 0, 0);
    assert!(!super::rules::schedule_due(&daily, date!(2026 - 03 - 07)));
    assert!(!super::rules::schedule_due(
        &every(PayoutInterval::Off, 0, 0),
        date!(2026 - 03 - 06)
    ));
}

#[test]
fn allocation_settles_debts_first_and_adds_up() {
    let open = vec![
        ("a".to_string(), 1_000),
        ("fee".to_string(), -100),
        ("b".to_string(), 500),
    ];
    let lines = allocate(&open, 1_200).unwrap_or_default();
    assert_eq!(
        lines,
        vec![
            ("fee".to_string(), -100),
            ("a".into(), 1_000),
            ("b".into(), 300)
        ]
    );
    assert_eq!(allocate(&open, 1_401), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn payouts_keep_the_balance_the_sum_and_never_negative(ops in prop::collection::vec(op(), 1..300)) {
        let mut model = Model::default();
        let mut today = start();
        for op in ops {
            match op {
                Op::Collect { method, amount } => {
                    let method = PaymentMethod::ALL[method];
                    let view = charge(model.transactions.len(), method, amount, today);
                    model.transactions.push((view, false));
                    model.post(model.transactions.len() - 1);
                }
                Op::TakeBack { pick, dispute } => {
                    if model.transactions.is_empty() {
                        continue;
                    }
                    let index = pick % model.transactions.len();
                    let (view, refunded) = &mut model.transactions[index];
                    let paid_on = parse_iso_date(&view.history[0].date).unwrap_or(today);
                    let window_ends = add_business_days(paid_on, settlement_delay_days(view.method));
                    if *refunded || view.status != TransactionStatus::Paid || today >= window_ends {
                        continue;
                    }
                    let status = if dispute { TransactionStatus::Disputed } else { TransactionStatus::Unpaid };
                    view.status = status;
                    view.history.push(TransactionStep { status, date: iso_date(today), unpaid_code: None });
                    model.post(index);
                }
                Op::Refund { pick } => {
                    // `ledger::post_refund`'s rule for card and pay-by-bank orders.
                    if model.transactions.is_empty() {
                        continue;
                    }
                    let index = pick % model.transactions.len();
                    let (view, refunded) = &model.transactions[index];
                    let card_like = matches!(view.method, PaymentMethod::Card | PaymentMethod::InstantEft);
                    if *refunded || !card_like || view.status != TransactionStatus::Paid {
                        continue;
                    }
                    let fee = default_fee(view.method).of(view.amount_cents);
                    let paid_on = parse_iso_date(&view.history[0].date).unwrap_or(today);
                    let own = add_business_days(paid_on, settlement_delay_days(view.method));
                    let balance = balance_of(&model.sums(), today);
                    let net = view.amount_cents - fee;
                    let (covered, on) = if own > today {
                        (net <= balance.total_cents(), own)
                    } else {
                        (net <= balance.available_cents, today)
                    };
                    if !covered {
                        continue;
                    }
                    let (id, amount) = (view.id.clone(), view.amount_cents);
                    model.transactions[index].1 = true;
                    model.add(format!("{id}:refund"), false, -amount, on);
                    model.add(format!("{id}:refund_fee_return"), false, fee, on);
                }
                Op::Advance { days } => {
                    today = add_business_days(today, days);
                    if days > 0 {
                        // The bank answers: refused payouts come back.
                        let returns: Vec<(usize, i64)> = model
                            .payouts
                            .iter_mut()
                            .filter(|p| p.refused && !p.failed)
                            .map(|p| {
                                p.failed = true;
                                (p.id, p.total)
                            })
                            .collect();
                        for (id, total) in returns {
                            model.add(format!("po_{id}:payout_return"), true, total, today);
                        }
                    }
                }
                Op::PayOut { amount, to_customer, refused } => {
                    let debit = if to_customer { customer_debit(amount) } else { settlement_debit(amount) };
                    let Some(debit) = debit else { continue };
                    if debit.total_cents > balance_of(&model.sums(), today).available_cents {
                        continue;
                    }
                    let lines = allocate(&model.open(today), debit.total_cents);
                    prop_assert!(lines.is_some(), "open entries do not cover the available balance");
                    let lines = lines.unwrap_or_default();
                    prop_assert_eq!(lines.iter().map(|(_, c)| c).sum::<i64>(), debit.total_cents);
                    let id = model.payouts.len();
                    model.add(format!("po_{id}:payout"), true, -(debit.total_cents - debit.fee_cents), today);
                    model.add(format!("po_{id}:payout_fee"), true, -debit.fee_cents, today);
                    model.payouts.push(Payout { total: debit.total_cents, lines, failed: false, refused, id });
                }
            }
            let sums = model.sums();
            let balance = balance_of(&sums, today);
            prop_assert_eq!(balance.total_cents(), sums.iter().map(|(a, _)| a).sum::<i64>());
            prop_assert!(balance.available_cents >= 0, "available {balance:?}");
            prop_assert!(balance.total_cents() >= 0, "total {balance:?}");
            // What is open to pay out is exactly what is available.
            prop_assert_eq!(
                model.open(today).iter().map(|(_, c)| c).sum::<i64>(),
                balance.available_cents
            );
        }
    }
}
