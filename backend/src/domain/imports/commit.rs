//! Writes one batch of prepared rows (`prepare`): customers created or
//! updated by reference, their bank accounts, and a mandate and a payment
//! per row, in the caller's transaction.

use std::collections::{HashMap, HashSet};

use protocol::{ErrorCode, ImportIssue, Mode};

use super::prepare::PreparedRow;
use super::rows::ValidRow;
use super::template::Column;
use crate::error::AppResult;
use crate::ids::new_id;
use crate::store::Tx;
use crate::store::import_batches::{self as store, KnownAccount, KnownCustomer};
use crate::store::mandates::NewMandate;
use crate::store::sql::variant_name;

/// Where a batch goes.
pub struct BatchTarget<'a> {
    pub merchant_id: &'a str,
    pub mode: Mode,
    pub import_id: &'a str,
    pub now: i64,
    /// The last row naming each customer reference (`CheckedFile`); None
    /// writes a changed customer in every batch.
    pub customer_last_rows: Option<&'a HashMap<String, u32>>,
}

impl BatchTarget<'_> {
    /// Whether `row` is the last of the file naming its customer, so its
    /// details are the ones that stand.
    fn is_customers_last(&self, row: &ValidRow) -> bool {
        self.customer_last_rows.is_none_or(|last_rows| {
            last_rows
                .get(&row.customer.reference)
                .is_none_or(|last| *last <= row.number)
        })
    }
}

pub struct BatchOutcome {
    pub committed: u32,
    /// Valid rows that could not be written, with why.
    pub failed: Vec<ImportIssue>,
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
    customers: HashMap<String, KnownCustomer>,
    accounts: HashMap<store::AccountKey, KnownAccount>,
    /// Customers whose live accounts are all in `accounts`.
    accounts_of: HashSet<String>,
    last_seq: Option<u64>,
}

impl ImportMemory {
    /// Called with each batch's `seq`, in the batch's transaction, before
    /// the batch is written.
    pub fn follow(&mut self, seq: u64) {
        if self.last_seq.and_then(|last| last.checked_add(1)) != Some(seq) {
            self.customers.clear();
            self.accounts.clear();
            self.accounts_of.clear();
        }
        self.last_seq = Some(seq);
    }
}

pub async fn write_batch(
    tx: &mut Tx,
    target: &BatchTarget<'_>,
    memory: &mut ImportMemory,
    prepared: &[PreparedRow],
) -> AppResult<BatchOutcome> {
    let (merchant_id, mode, now) = (target.merchant_id, target.mode, target.now);
    let mut unknown: Vec<&str> = prepared
        .iter()
        .map(|p| p.row.customer.reference.as_str())
        .filter(|reference| !memory.customers.contains_key(*reference))
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    let found = store::customers_by_reference(tx, merchant_id, mode, &unknown).await?;
    memory.customers.extend(found);
    let known = &memory.customers;

    // An archived customer stays archived: their rows fail, named.
    let mut failed = Vec::new();
    let mut writable: Vec<&PreparedRow> = Vec::with_capacity(prepared.len());
    for one in prepared {
        match known.get(&one.row.customer.reference) {
            Some(customer) if customer.archived => failed.push(ImportIssue {
                row: one.row.number,
                column: Column::CustomerReference.header().to_string(),
                code: ErrorCode::CustomerArchived,
            }),
            _ => writable.push(one),
        }
    }

    // One customer per reference; a later row of the file wins.
    let mut customer_ids: HashMap<&str, String> = HashMap::new();
    let mut latest: HashMap<&str, &ValidRow> = HashMap::new();
    for row in writable.iter().map(|p| &p.row) {
        let reference = row.customer.reference.as_str();
        customer_ids.entry(reference).or_insert_with(|| {
            known
                .get(reference)
                .map_or_else(|| new_id("cus"), |c| c.id.clone())
        });
        latest.insert(reference, row);
    }
    // A new customer is written with this batch's details; a known one
    // only at its last row in the file, and only if that changes it: a file
    // naming a customer on many rows writes it twice at most, not per batch.
    let customers: Vec<(&str, &protocol::CustomerInput)> = latest
        .iter()
        .filter(|(reference, row)| {
            known.get(**reference).is_none_or(|customer| {
                target.is_customers_last(row) && !customer.holds(&row.customer)
            })
        })
        .filter_map(|(reference, row)| {
            customer_ids
                .get(reference)
                .map(|id| (id.as_str(), &row.customer))
        })
        .collect();
    store::upsert_customers(tx, merchant_id, mode, now, &customers).await?;
    let new_customers: HashSet<&str> = customer_ids
        .iter()
        .filter(|(reference, _)| !known.contains_key(**reference))
        .map(|(_, id)| id.as_str())
        .collect();
    for (id, input) in &customers {
        let written = KnownCustomer::written(id, input);
        memory.customers.insert(input.reference.clone(), written);
    }

    // One live bank account per customer, bank and account number. A
    // customer made by this batch has none yet.
    let unlooked: Vec<&str> = customer_ids
        .values()
        .map(String::as_str)
        .filter(|id| !new_customers.contains(id) && !memory.accounts_of.contains(*id))
        .collect();
    let found = store::bank_accounts_of(tx, merchant_id, mode, &unlooked).await?;
    memory.accounts.extend(found);
    for id in customer_ids.values() {
        if !memory.accounts_of.contains(id) {
            memory.accounts_of.insert(id.clone());
        }
    }
    let known_accounts = &memory.accounts;
    // Each writable row's account key, in order.
    let keys: Vec<Option<store::AccountKey>> = writable
        .iter()
        .map(|p| {
            let row = &p.row;
            let customer_id = customer_ids.get(row.customer.reference.as_str())?;
            Some((
                customer_id.clone(),
                variant_name(&row.account.bank).to_string(),
                row.account.account_number.clone(),
            ))
        })
        .collect();
    let mut account_ids: HashMap<&store::AccountKey, String> = HashMap::new();
    let mut account_rows: HashMap<&store::AccountKey, &ValidRow> = HashMap::new();
    for (key, p) in keys.iter().zip(&writable) {
        if let Some(key) = key {
            let row = &p.row;
            account_ids.entry(key).or_insert_with(|| {
                known_accounts
                    .get(key)
                    .map_or_else(|| new_id("ba"), |account| account.id.clone())
            });
            account_rows.insert(key, row);
        }
    }
    let changed: Vec<(&store::AccountKey, &str, &protocol::BankAccountInput)> = account_rows
        .iter()
        .filter(|(key, row)| {
            known_accounts
                .get(**key)
                .is_none_or(|account| !account.holds(&row.account))
        })
        .filter_map(|(key, row)| {
            account_ids
                .get(key)
                .map(|id| (*key, id.as_str(), &row.account))
        })
        .collect();
    let accounts: Vec<(&str, &str, &protocol::BankAccountInput)> = changed
        .iter()
        .map(|(key, id, input)| (*id, key.0.as_str(), *input))
        .collect();
    store::upsert_bank_accounts(tx, merchant_id, mode, now, &accounts).await?;
    for (key, id, input) in changed {
        memory
            .accounts
            .insert(key.clone(), KnownAccount::written(id, input));
    }

    // A mandate and a payment per row.
    let mut placed = Vec::with_capacity(writable.len());
    for (key, p) in keys.iter().zip(&writable) {
        let (Some(key), Some(customer_id)) =
            (key, customer_ids.get(p.row.customer.reference.as_str()))
        else {
            continue;
        };
        let Some(account_id) = account_ids.get(key) else {
            continue;
        };
        placed.push((*p, customer_id.as_str(), account_id.as_str()));
    }
    let mandates: Vec<NewMandate> = placed
        .iter()
        .map(|(p, customer_id, account_id)| NewMandate {
            id: &p.mandate_id,
            customer_id,
            bank_account_id: account_id,
            input: &p.row.mandate,
            amount_cents: p.row.payment.amount_cents,
            status: p.mandate_status,
            authentication_requests: u32::from(p.authentication_due.is_some()),
            authentication_due: p.authentication_due.clone(),
            end_date: p.row.payment.end_date.clone().filter(|e| !e.is_empty()),
            now,
        })
        .collect();
    store::insert_mandates(tx, merchant_id, mode, now, &mandates).await?;

    let payments: Vec<_> = placed
        .iter()
        .map(|(p, customer_id, _)| (&p.payment, *customer_id))
        .collect();
    store::insert_payments(tx, merchant_id, mode, target.import_id, now, &payments).await?;
    Ok(BatchOutcome {
        committed: payments.len() as u32,
        failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remembering_one(memory: &mut ImportMemory) {
        memory.accounts_of.insert("cus_1".to_string());
    }

    #[test]
    fn memory_lasts_only_while_the_batches_seqs_follow_on() {
        let mut memory = ImportMemory::default();
        memory.follow(7);
        remembering_one(&mut memory);
        memory.follow(8);
        assert_eq!(memory.accounts_of.len(), 1, "the next seq keeps it");
        // Seq 9 went to someone else's change: anything may have moved.
        memory.follow(10);
        assert!(memory.accounts_of.is_empty());
        remembering_one(&mut memory);
        memory.follow(10);
        assert!(
            memory.accounts_of.is_empty(),
            "a repeated seq is no proof either"
        );
    }
}
