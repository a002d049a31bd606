//! The merchant's money: a ledger of signed entries in cents per merchant and
//! mode. Entries follow from what happened to a transaction (its history), so
//! posting is idempotent and runs inside the same write transaction as the
//! change that causes it. The balance is the sum of the entries.

use protocol::{PaymentMethod, ReplyBody, Transaction, TransactionStatus};
use time::Date;

use super::calendar::{add_business_days, iso_date, parse_iso_date};
use super::scope::Scope;
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::ledger::{self as store, LedgerRow};
use crate::store::{Db, Tx, clocks};

/// What a ledger entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A paid debit or card / pay-by-bank charge: money in.
    Collection,
    /// The processing fee of a collection.
    Fee,
    /// An unpaid that arrived after the debit was paid takes the money back.
    LateUnpaid,
    /// The payer disputed a paid debit: the bank takes the money back.
    Dispute,
    /// A collection that was taken back does not cost its fee.
    FeeReturn,
    /// Money the merchant paid back to a payer for an order.
    Refund,
    /// A refunded collection does not cost its fee either.
    RefundFeeReturn,
}

impl EntryKind {
    /// Every kind, for the checks that each one is placed wherever entries
    /// are read (the statement, its files, insights).
    pub const ALL: [EntryKind; 7] = [
        EntryKind::Collection,
        EntryKind::Fee,
        EntryKind::LateUnpaid,
        EntryKind::Dispute,
        EntryKind::FeeReturn,
        EntryKind::Refund,
        EntryKind::RefundFeeReturn,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::Collection => "collection",
            EntryKind::Fee => "fee",
            EntryKind::LateUnpaid => "late_unpaid",
            EntryKind::Dispute => "dispute",
            EntryKind::FeeReturn => "fee_return",
            EntryKind::Refund => "refund",
            EntryKind::RefundFeeReturn => "refund_fee_return",
        }
    }
}

/// One method's price: a percentage (in basis points, 1/100 of a percent)
/// plus a fixed amount per collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fee {
    pub basis_points: i64,
    pub fixed_cents: i64,
}

impl Fee {
    /// The fee of one collection, rounded half up to the cent and never more
    /// than the collection itself, so a collection never costs the merchant.
    pub fn of(self, amount_cents: i64) -> i64 {
        let amount = amount_cents.max(0);
        let percent = (amount.saturating_mul(self.basis_points) + 5_000) / 10_000;
        percent.saturating_add(self.fixed_cents).clamp(0, amount)
    }
}

/// The documented default prices (README "Fees and settlement").
pub fn default_fee(method: PaymentMethod) -> Fee {
    super::fees::FeeSchedule::default().method(method)
}

/// The price of a method this server charges (`fees::install`).
pub fn fee_of(method: PaymentMethod) -> Fee {
    super::fees::schedule().method(method)
}

/// Business days from a collection's payment until its money can be paid
/// out. Card and pay-by-bank settle the next business day; a debit order
/// stays pending through the window in which its bank can still take it
/// back (DebiCheck tracking up to 10 days; RM and EFT disputes up to 40
/// days), so a dispute always lands on money that was never paid out.
pub fn settlement_delay_days(method: PaymentMethod) -> i64 {
    match method {
        PaymentMethod::Card | PaymentMethod::InstantEft => 1,
        PaymentMethod::Debicheck => 10,
        PaymentMethod::RegisteredMandate | PaymentMethod::EftDebitOrder => 40,
    }
}

/// An entry a transaction's history calls for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedEntry {
    pub kind: EntryKind,
    pub amount_cents: i64,
    pub entry_date: Date,
    pub available_on: Date,
}

/// The entries a transaction's history calls for. Money the bank takes back
/// leaves on the collection's availability date when that is still ahead
/// (it was never available), so available money never shrinks by itself.
pub fn planned_entries(view: &Transaction) -> AppResult<Vec<PlannedEntry>> {
    let mut planned = Vec::new();
    let mut paid: Option<(Date, Date)> = None;
    let fee = fee_of(view.method).of(view.amount_cents);
    for step in &view.history {
        let date = parse_iso_date(&step.date)
            .ok_or_else(|| AppError::Internal(format!("transaction step date {}", step.date)))?;
        match (step.status, paid) {
            (TransactionStatus::Paid, None) => {
                let available_on = add_business_days(date, settlement_delay_days(view.method));
                paid = Some((date, available_on));
                planned.push(PlannedEntry {
                    kind: EntryKind::Collection,
                    amount_cents: view.amount_cents,
                    entry_date: date,
                    available_on,
                });
                planned.push(PlannedEntry {
                    kind: EntryKind::Fee,
                    amount_cents: -fee,
                    entry_date: date,
                    available_on,
                });
            }
            (TransactionStatus::Unpaid | TransactionStatus::Disputed, Some((_, available_on))) => {
                let kind = if step.status == TransactionStatus::Unpaid {
                    EntryKind::LateUnpaid
                } else {
                    EntryKind::Dispute
                };
                let available_on = available_on.max(date);
                planned.push(PlannedEntry {
                    kind,
                    amount_cents: -view.amount_cents,
                    entry_date: date,
                    available_on,
                });
                planned.push(PlannedEntry {
                    kind: EntryKind::FeeReturn,
                    amount_cents: fee,
                    entry_date: date,
                    available_on,
                });
                // Only one take-back per collection.
                break;
            }
            _ => {}
        }
    }
    Ok(planned)
}

/// Writes the entries a transaction's history calls for that are not in the
/// ledger yet. Every writer of a transaction calls this in its transaction.
pub async fn post_transaction(
    tx: &mut Tx,
    merchant_id: &str,
    mode: protocol::Mode,
    view: &Transaction,
) -> AppResult<()> {
    let planned = planned_entries(view)?;
    if planned.is_empty() {
        return Ok(());
    }
    let now = crate::store::clocks::stream_now_ms(&mut **tx, merchant_id, mode).await?;
    for entry in planned {
        store::insert_entry(
            tx,
            &LedgerRow {
                id: new_id("led"),
                merchant_id: merchant_id.to_string(),
                mode,
                kind: entry.kind.as_str(),
                amount_cents: entry.amount_cents,
                method: view.method,
                transaction_id: Some(view.id.clone()),
                order_id: view.order_id.clone(),
                source_id: view.id.clone(),
                entry_date: iso_date(entry.entry_date),
                available_on: iso_date(entry.available_on),
                created_at: now,
            },
        )
        .await?;
    }
    Ok(())
}

/// A transaction's view with its fee and net: the method's price of the
/// amount, which the ledger charges when it is paid (`planned_entries`).
pub fn priced(mut view: Transaction) -> Transaction {
    view.fee_cents = fee_of(view.method).of(view.amount_cents);
    view.net_cents = view.amount_cents - view.fee_cents;
    view
}

/// Sets an order's fee and net from its price, what it refunded and the
/// part of the fee its refunds gave back (`fee_returned_cents`).
pub fn price_order(order: &mut protocol::Order, fee_returned_cents: i64) {
    order.fee_cents = fee_of(order.method).of(order.amount_cents) - fee_returned_cents;
    order.net_cents = order.amount_cents - order.refunded_cents - order.fee_cents;
}

/// The part of an order's fee a refund of `amount_cents` gives back: the
/// fee in proportion to the amount, and all that is left of it with the
/// refund that empties the order, so refunding it in parts gives back the
/// whole fee exactly once.
pub fn refund_fee_return(order: &protocol::Order, amount_cents: i64) -> i64 {
    let fee = fee_of(order.method).of(order.amount_cents);
    let returned = fee - order.fee_cents;
    if order.refunded_cents + amount_cents >= order.amount_cents || order.amount_cents <= 0 {
        return fee - returned;
    }
    let share = (i128::from(fee) * i128::from(amount_cents) + i128::from(order.amount_cents) / 2)
        / i128::from(order.amount_cents);
    i64::try_from(share).unwrap_or(0).clamp(0, fee - returned)
}

/// Pays `amount_cents` of an order's collection back to its payer, giving
/// back its part of the fee; returns the refund, for the caller to record.
/// `order` must have been read inside the caller's write transaction, so
/// what it refunded already is current.
///
/// While the order's own money is still pending, the refund comes out of
/// it: its entries become available on the same day the collection would
/// have, so neither the pending nor the available money goes negative and a
/// payer can be refunded the moment they ask. Once the money is available,
/// the refund needs that much available money (some may have been paid
/// out), or it is refused. The caller holds the stream's write lock, so two
/// refunds cannot both pass this check.
pub async fn post_refund(
    tx: &mut Tx,
    scope: &Scope,
    order: &protocol::Order,
    amount_cents: i64,
    today: Date,
) -> AppResult<protocol::OrderRefund> {
    let fee_return = refund_fee_return(order, amount_cents);
    let net = amount_cents - fee_return;
    let own_money_on = match &order.transaction_id {
        Some(id) => store::transaction_available_on(tx, &scope.merchant_id, scope.mode, id)
            .await?
            .and_then(|day| parse_iso_date(&day))
            .filter(|day| *day > today),
        None => None,
    };
    let balance = balance(&mut **tx, &scope.merchant_id, scope.mode, today).await?;
    let covered = match own_money_on {
        Some(_) => net <= balance.total_cents(),
        None => net <= balance.available_cents,
    };
    if !covered {
        return Err(AppError::Code(protocol::ErrorCode::InsufficientBalance));
    }
    let refund = protocol::OrderRefund {
        id: new_id("rfd"),
        amount_cents,
        fee_return_cents: fee_return,
        refunded_on: iso_date(today),
        created_at: crate::domain::scope::stream_now_ms(&mut **tx, scope).await?,
    };
    let available_on = iso_date(own_money_on.unwrap_or(today));
    for (kind, amount_cents) in [
        (EntryKind::Refund, -amount_cents),
        (EntryKind::RefundFeeReturn, fee_return),
    ] {
        store::insert_entry(
            tx,
            &LedgerRow {
                id: new_id("led"),
                merchant_id: scope.merchant_id.clone(),
                mode: scope.mode,
                kind: kind.as_str(),
                amount_cents,
                method: order.method,
                transaction_id: order.transaction_id.clone(),
                order_id: Some(order.id.clone()),
                // Each refund is a record of its own: an order refunded in
                // parts has entries for every part.
                source_id: refund.id.clone(),
                entry_date: refund.refunded_on.clone(),
                available_on: available_on.clone(),
                created_at: refund.created_at,
            },
        )
        .await?;
    }
    Ok(refund)
}

/// A stream's money on a business day.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Balance {
    /// Can be paid out now.
    pub available_cents: i64,
    /// Collected but still inside its settlement delay.
    pub pending_cents: i64,
}

impl Balance {
    pub fn total_cents(self) -> i64 {
        self.available_cents + self.pending_cents
    }
}

/// The balance of entries given as (amount, available on) on `today`: the
/// same split the store's sum makes, for checking the rules without I/O.
pub fn balance_of(entries: &[(i64, Date)], today: Date) -> Balance {
    entries.iter().fold(
        Balance::default(),
        |mut balance, &(amount, available_on)| {
            if available_on <= today {
                balance.available_cents += amount;
            } else {
                balance.pending_cents += amount;
            }
            balance
        },
    )
}

/// The balance on `today`: the sum of the ledger, split by availability.
pub async fn balance<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: protocol::Mode,
    today: Date,
) -> AppResult<Balance>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let (available_cents, pending_cents) =
        store::sum_by_availability(executor, merchant_id, mode, &iso_date(today)).await?;
    Ok(Balance {
        available_cents,
        pending_cents,
    })
}

/// The stream's balance on its business date, for the payouts screen.
pub async fn get_balance(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let offset = clocks::read_clock(&db.pool, &scope.merchant_id, scope.mode)
        .await?
        .map_or(0, |c| c.offset_days);
    let today = scope.clock.today(scope.mode, offset);
    let sums = balance(&db.pool, &scope.merchant_id, scope.mode, today).await?;
    Ok(ReplyBody::Balance {
        balance: Box::new(protocol::Balance {
            today: iso_date(today),
            available_cents: sums.available_cents,
            pending_cents: sums.pending_cents,
        }),
    })
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
pub(crate) mod tests;
