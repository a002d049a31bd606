//! Plans and writes one batch of prepared rows (`prepare`): customers
//! created or updated by reference, their bank accounts, and a mandate and
//! a payment per row. A plan is made ahead, while the batch before it is
//! written (`jobs::imports`), and written in the batch's own transaction.

use std::collections::HashMap as StdHashMap;
use std::sync::Arc;

use foldhash::{HashMap, HashMapExt};
use protocol::{CustomerInput, ErrorCode, ImportIssue, Mode, PaymentKind, PaymentMethod};

use super::duplicates::{self, PaymentKey, Repeats};
use super::prepare::PreparedRow;
use super::rows::ValidRow;
use super::template::Column;
use crate::error::AppResult;
use crate::ids::new_id;
use crate::store::Tx;
use crate::store::bank_accounts::CheckedAccount;
use crate::store::bulk::ReadyInsert;
use crate::store::conn::Conn;
use crate::store::import_batches::{self as store, KnownAccount, KnownCustomer};
use crate::store::import_duplicates::payment_keys_of_customers;
use crate::store::mandates::NewMandate;
use crate::store::sql::variant_name;

/// Where a batch goes. Owned, so a batch can be planned on another thread.
#[derive(Clone)]
pub struct BatchTarget {
    pub merchant_id: String,
    pub mode: Mode,
    pub import_id: String,
    pub now: i64,
    /// The last row naming each customer reference (`CheckedFile`); None
    /// writes a changed customer in every batch.
    pub customer_last_rows: Option<Arc<StdHashMap<String, u32>>>,
    /// Rows repeating a payment are left out (`duplicates`); None imports
    /// them, as the user chose.
    pub skip_repeats: Option<SkipRepeats>,
}

/// What a commit needs to recognise repeated rows.
#[derive(Clone)]
pub struct SkipRepeats {
    pub kind: PaymentKind,
    pub method: PaymentMethod,
    /// The layout's identifying columns (`duplicates::key_columns`), named
    /// in each skipped row's problem.
    pub columns: Arc<str>,
}

impl BatchTarget {
    /// Whether `row` is the last of the file naming its customer, so its
    /// details are the ones that stand.
    fn is_customers_last(&self, row: &ValidRow) -> bool {
        self.customer_last_rows.as_ref().is_none_or(|last_rows| {
            last_rows
                .get(&row.customer.reference)
                .is_none_or(|last| *last <= row.number)
        })
    }
}

/// A batch's writes, made ready, and what they come to.
pub struct BatchPlan {
    /// Customers, bank accounts, mandates and payments, in that order.
    inserts: [ReadyInsert; 4],
    pub committed: u32,
    /// Valid rows that could not be written, with why.
    pub failed: Vec<ImportIssue>,
    /// Valid rows left out because they repeat a payment or an earlier row.
    pub skipped: Vec<ImportIssue>,
}

impl BatchPlan {
    pub async fn write(self, tx: &mut Tx) -> AppResult<()> {
        for insert in self.inserts {
            insert.run(tx).await?;
        }
        Ok(())
    }
}

/// What a running import has learnt of the merchant's customers and bank
/// accounts, kept from batch to batch: each is looked up once per import,
/// not once per batch (a file names the same customers on many rows).
///
/// It holds only while nobody else writes to the stream. Every write of
/// customers or bank accounts takes the stream's next `seq` in its own
/// transaction, as every change that tabs must hear of does; so when a
/// batch's seq directly follows the previous batch's, nothing changed in
/// between. Otherwise the memory is dropped and looked up afresh.
#[derive(Default)]
pub struct ImportMemory {
    /// By customer reference.
    customers: HashMap<String, KnownCustomer>,
    /// All the live accounts of a customer, by the customer's id: present
    /// once looked up (or made by the import).
    accounts: HashMap<String, Vec<KnownAccount>>,
    /// The payments of a customer, by the customer's id, and what made each
    /// (`duplicates::Repeats`): present once looked up or made by the import.
    /// Kept only while rows repeating a payment are skipped.
    payments: HashMap<String, HashMap<PaymentKey, Repeats>>,
    last_seq: Option<u64>,
}

impl ImportMemory {
    /// Called with each batch's `seq`, in the batch's transaction, before
    /// the batch is written. False when the memory did not hold, and was
    /// dropped: a plan made with it must be made again.
    pub fn follow(&mut self, seq: u64) -> bool {
        let held = self.last_seq.and_then(|last| last.checked_add(1)) == Some(seq);
        if !held {
            self.customers.clear();
            self.accounts.clear();
            self.payments.clear();
        }
        self.last_seq = Some(seq);
        held
    }

    fn account(
        &self,
        customer_id: &str,
        bank: &str,
        account_number: &str,
    ) -> Option<&KnownAccount> {
        self.accounts
            .get(customer_id)?
            .iter()
            .find(|account| account.is(bank, account_number))
    }
}

/// A customer reference as one batch sees it. Each row is joined to its
/// customer and account once, by position: a batch of a thousand rows
/// would otherwise hash the same keys many thousand times.
struct BatchCustomer<'b> {
    id: String,
    archived: bool,
    /// The batch's last row naming it; its details are the ones written.
    latest: &'b ValidRow,
    accounts: Vec<BatchAccount<'b>>,
}

struct BatchAccount<'b> {
    id: String,
    bank: &'static str,
    /// The batch's last row naming it.
    latest: &'b CheckedAccount,
}

/// Looks up what `memory` does not know yet of the batch's customers and of
/// their bank accounts, and remembers it.
///
/// `conn` may be the batch's transaction, or another connection while the
/// batch before is still being written: then what was found holds only if
/// the memory still holds when the batch's transaction starts (`follow`).
/// The lookups find what was there before the import's current batch; the
/// memory knows what the import itself writes.
pub async fn look_up(
    conn: &mut Conn,
    target: &BatchTarget,
    memory: &mut ImportMemory,
    prepared: &[PreparedRow],
) -> AppResult<()> {
    let (merchant_id, mode) = (target.merchant_id.as_str(), target.mode);
    let mut unknown: Vec<&str> = prepared
        .iter()
        .map(|p| p.row.customer.reference.as_str())
        .filter(|reference| !memory.customers.contains_key(*reference))
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    let found = store::customers_by_reference(conn, merchant_id, mode, &unknown).await?;
    memory.customers.extend(found);

    // The accounts of stored customers, once each. An archived customer's
    // rows fail, so theirs are not needed.
    let mut unlooked: Vec<String> = prepared
        .iter()
        .filter_map(|p| memory.customers.get(&p.row.customer.reference))
        .filter(|c| !c.archived && !memory.accounts.contains_key(&c.id))
        .map(|c| c.id.clone())
        .collect();
    unlooked.sort_unstable();
    unlooked.dedup();
    let ids: Vec<&str> = unlooked.iter().map(String::as_str).collect();
    let found = store::bank_accounts_of(conn, merchant_id, mode, &ids).await?;
    for id in unlooked {
        memory.accounts.entry(id).or_default();
    }
    for (customer_id, account) in found {
        memory
            .accounts
            .entry(customer_id)
            .or_default()
            .push(account);
    }
    if let Some(skip) = &target.skip_repeats {
        look_up_payments(conn, target, skip, memory, prepared).await?;
    }
    Ok(())
}

/// The payments of the batch's stored customers that `memory` does not know
/// yet, as one lookup. Those of this import (written by an earlier batch,
/// before a restart or a write by someone else) are its own earlier rows.
async fn look_up_payments(
    conn: &mut Conn,
    target: &BatchTarget,
    skip: &SkipRepeats,
    memory: &mut ImportMemory,
    prepared: &[PreparedRow],
) -> AppResult<()> {
    let mut unlooked: Vec<String> = prepared
        .iter()
        .filter_map(|p| memory.customers.get(&p.row.customer.reference))
        .filter(|c| !c.archived && !memory.payments.contains_key(&c.id))
        .map(|c| c.id.clone())
        .collect();
    unlooked.sort_unstable();
    unlooked.dedup();
    let ids: Vec<&str> = unlooked.iter().map(String::as_str).collect();
    let stream = (target.merchant_id.as_str(), target.mode);
    let found = payment_keys_of_customers(conn, stream, (skip.kind, skip.method), &ids).await?;
    for id in unlooked {
        memory.payments.entry(id).or_default();
    }
    for stored in found {
        let repeats = if stored.import_id.as_deref() == Some(target.import_id.as_str()) {
            Repeats::Row
        } else {
            Repeats::Payment
        };
        let (customer_id, key) = PaymentKey::of_stored(stored);
        memory
            .payments
            .entry(customer_id)
            .or_default()
            .insert(key, repeats);
    }
    Ok(())
}

/// Decides a batch's writes from what `memory` knows, once `look_up` has
/// filled it in, and records them in `memory` as written. It needs no
/// database, so it runs on a blocking thread while the batch before is
/// written.
pub fn plan_batch(
    on_sqlite: bool,
    target: &BatchTarget,
    memory: &mut ImportMemory,
    prepared: &[PreparedRow],
) -> AppResult<BatchPlan> {
    let (merchant_id, mode, now) = (target.merchant_id.as_str(), target.mode, target.now);

    // One customer per reference; a later row of the file wins. An archived
    // customer stays archived: their rows fail, named.
    let mut failed = Vec::new();
    let mut skipped = Vec::new();
    let mut customers: Vec<BatchCustomer> = Vec::new();
    let mut position: HashMap<&str, usize> = HashMap::with_capacity(prepared.len());
    let mut placed: Vec<(&PreparedRow, usize, usize)> = Vec::with_capacity(prepared.len());
    for one in prepared {
        let row = &one.row;
        let at = *position
            .entry(row.customer.reference.as_str())
            .or_insert_with(|| {
                let known = memory.customers.get(&row.customer.reference);
                customers.push(BatchCustomer {
                    id: known.map_or_else(|| new_id("cus"), |c| c.id.clone()),
                    archived: known.is_some_and(|c| c.archived),
                    latest: row,
                    accounts: Vec::new(),
                });
                customers.len() - 1
            });
        let customer = &mut customers[at];
        if customer.archived {
            failed.push(ImportIssue {
                row: row.number,
                column: Column::CustomerReference.header().to_string(),
                code: ErrorCode::CustomerArchived,
            });
            continue;
        }
        // A skipped row still names its customer: the file's last row
        // naming a customer holds the details that stand, as without repeats.
        customer.latest = row;
        if let Some(skip) = &target.skip_repeats {
            let known = memory.payments.entry(customer.id.clone()).or_default();
            let key = PaymentKey::of_row(row);
            if let Some(repeats) = known.get(&key) {
                skipped.push(duplicates::issue(row.number, &skip.columns, *repeats));
                continue;
            }
            known.insert(key, Repeats::Row);
        }
        placed.push((one, at, 0));
    }

    // A new customer is written with this batch's details; a known one
    // only at its last row in the file, and only if that changes it: a file
    // naming a customer on many rows writes it twice at most, not per batch.
    let changed: Vec<(&str, &CustomerInput)> = customers
        .iter()
        .filter(|c| !c.archived)
        .filter(|c| {
            memory
                .customers
                .get(&c.latest.customer.reference)
                .is_none_or(|known| {
                    target.is_customers_last(c.latest) && !known.holds(&c.latest.customer)
                })
        })
        .map(|c| (c.id.as_str(), &c.latest.customer))
        .collect();
    let customers_upsert = store::customers_upsert(on_sqlite, merchant_id, mode, now, &changed)?;
    for (id, input) in changed {
        let written = KnownCustomer::written(id, input);
        memory.customers.insert(input.reference.clone(), written);
    }

    // One live bank account per customer, bank and account number. A
    // customer made by this batch has none yet.
    for customer in customers.iter().filter(|c| !c.archived) {
        if !memory.accounts.contains_key(&customer.id) {
            memory.accounts.insert(customer.id.clone(), Vec::new());
        }
    }
    for (one, at, account_at) in &mut placed {
        let input = &one.row.account;
        let bank = variant_name(&input.bank);
        let customer = &mut customers[*at];
        let same =
            |a: &BatchAccount| a.bank == bank && a.latest.account_number == input.account_number;
        *account_at = match customer.accounts.iter().position(same) {
            Some(index) => index,
            None => {
                let known = memory.account(&customer.id, bank, &input.account_number);
                customer.accounts.push(BatchAccount {
                    id: known.map_or_else(|| new_id("ba"), |a| a.id.clone()),
                    bank,
                    latest: input,
                });
                customer.accounts.len() - 1
            }
        };
        customer.accounts[*account_at].latest = input;
    }
    let changed: Vec<(&str, &str, &CheckedAccount)> = customers
        .iter()
        .flat_map(|c| c.accounts.iter().map(move |a| (c, a)))
        .filter(|(c, a)| {
            memory
                .account(&c.id, a.bank, &a.latest.account_number)
                .is_none_or(|known| !known.holds(a.latest))
        })
        .map(|(c, a)| (a.id.as_str(), c.id.as_str(), a.latest))
        .collect();
    let accounts_upsert = store::bank_accounts_upsert(on_sqlite, merchant_id, mode, now, &changed)?;
    for (id, customer_id, input) in changed {
        let written = KnownAccount::written(id, input);
        let accounts = memory.accounts.entry(customer_id.to_string()).or_default();
        accounts.retain(|a| a.id != id);
        accounts.push(written);
    }

    // A mandate and a payment per row.
    let mandates: Vec<NewMandate> = placed
        .iter()
        .map(|(p, at, account_at)| {
            let customer = &customers[*at];
            NewMandate {
                id: &p.mandate_id,
                customer_id: &customer.id,
                bank_account_id: &customer.accounts[*account_at].id,
                input: &p.row.mandate,
                amount_cents: p.row.amount_cents,
                status: p.mandate_status,
                authentication_requests: u32::from(p.authentication_due.is_some()),
                authentication_due: p.authentication_due.clone(),
                end_date: p.row.payment.end_date.clone().filter(|e| !e.is_empty()),
                now,
            }
        })
        .collect();
    let mandates_insert = store::mandates_insert(on_sqlite, merchant_id, mode, now, &mandates)?;

    let payments: Vec<_> = placed
        .iter()
        .map(|(p, at, _)| (&p.payment, customers[*at].id.as_str()))
        .collect();
    let import_id = target.import_id.as_str();
    let payments_insert =
        store::payments_insert(on_sqlite, merchant_id, mode, import_id, now, &payments)?;
    Ok(BatchPlan {
        inserts: [
            customers_upsert,
            accounts_upsert,
            mandates_insert,
            payments_insert,
        ],
        committed: payments.len() as u32,
        failed,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remembering_one(memory: &mut ImportMemory) {
        memory.accounts.insert("cus_1".to_string(), Vec::new());
    }

    #[test]
    fn memory_lasts_only_while_the_batches_seqs_follow_on() {
        let mut memory = ImportMemory::default();
        assert!(!memory.follow(7), "nothing is known at first");
        remembering_one(&mut memory);
        assert!(memory.follow(8));
        assert_eq!(memory.accounts.len(), 1, "the next seq keeps it");
        // Seq 9 went to someone else's change: anything may have moved.
        assert!(!memory.follow(10));
        assert!(memory.accounts.is_empty());
        remembering_one(&mut memory);
        assert!(!memory.follow(10));
        assert!(
            memory.accounts.is_empty(),
            "a repeated seq is no proof either"
        );
    }
}
