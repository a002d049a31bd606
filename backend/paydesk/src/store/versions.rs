//! Record versions: every change the one write path commits stamps the
//! records it wrote with the event's seq, in the event's transaction, so a
//! record's `version` always names the last event that changed it and an
//! edit begun from an older one is seen to be stale (`domain::conflicts`).

use std::collections::HashSet;

use protocol::Change;

use super::batch::Batch;
use super::sql::{Bind, Sql};
use super::stream::StreamKey;

/// The tables of versioned records.
#[derive(Clone, Copy)]
enum Table {
    Customers,
    PayPages,
}

/// Stamps `seq` on every versioned record the changes wrote, row and change
/// alike; the rows' updates join the write's batch. Answers the ids of the
/// records no event had stamped before (still at version 0): the history
/// holds no entry for them.
pub(super) fn stamp(
    batch: &mut Batch,
    key: &StreamKey,
    seq: u64,
    changes: &mut [Change],
) -> HashSet<String> {
    let mut first_stamped = HashSet::new();
    let mut first = |version: u64, id: &str| {
        if version == 0 {
            first_stamped.insert(id.to_string());
        }
    };
    for change in changes.iter_mut() {
        match change {
            Change::CustomerUpserted { customer } => {
                batch.push(set(key, Table::Customers, &customer.id, seq));
                first(customer.version, &customer.id);
                customer.version = seq;
            }
            Change::PaymentMethodSettingsUpdated { settings } => {
                // One row per merchant stream: the key names it.
                batch.push(Sql::statement(
                    "UPDATE payment_method_settings SET version = $3 WHERE merchant_id = $1 AND mode = $2",
                    vec![
                        Bind::Text(key.merchant_id.clone()),
                        Bind::Text(key.mode.as_str().into()),
                        Bind::Int(seq as i64),
                    ],
                ));
                settings.version = seq;
            }
            Change::PayPageUpserted { page } => {
                batch.push(set(key, Table::PayPages, &page.id, seq));
                first(page.version, &page.id);
                page.version = seq;
            }
            _ => {}
        }
    }
    first_stamped
}

/// Sets one row's version.
fn set(key: &StreamKey, table: Table, id: &str, seq: u64) -> Sql {
    let sql = match table {
        Table::Customers => {
            "UPDATE customers SET version = $4 WHERE merchant_id = $1 AND mode = $2 AND id = $3"
        }
        Table::PayPages => {
            "UPDATE pay_pages SET version = $4 WHERE merchant_id = $1 AND mode = $2 AND id = $3"
        }
    };
    Sql::statement(
        sql,
        vec![
            Bind::Text(key.merchant_id.clone()),
            Bind::Text(key.mode.as_str().into()),
            Bind::Text(id.into()),
            Bind::Int(seq as i64),
        ],
    )
}
