//! Record versions: every change the one write path commits stamps the
//! records it wrote with the event's seq, in the event's transaction, so a
//! record's `version` always names the last event that changed it and an
//! edit begun from an older one is seen to be stale (`domain::conflicts`).

use protocol::Change;

use super::Tx;
use super::stream::StreamKey;
use crate::error::AppResult;

/// The tables of versioned records.
#[derive(Clone, Copy)]
enum Table {
    Customers,
    PayPages,
}

/// Stamps `seq` on every versioned record the changes wrote, row and change alike.
pub(super) async fn stamp(
    tx: &mut Tx,
    key: &StreamKey,
    seq: u64,
    changes: &mut [Change],
) -> AppResult<()> {
    for change in changes.iter_mut() {
        match change {
            Change::CustomerUpserted { customer } => {
                set(tx, key, Table::Customers, &customer.id, seq).await?;
                customer.version = seq;
            }
            Change::PaymentMethodSettingsUpdated { settings } => {
                // One row per merchant stream: the key names it.
                sqlx::query(
                    "UPDATE payment_method_settings SET version = $3 WHERE merchant_id = $1 AND mode = $2",
                )
                .bind(&key.merchant_id)
                .bind(key.mode.as_str())
                .bind(seq as i64)
                .execute(&mut **tx)
                .await?;
                settings.version = seq;
            }
            Change::PayPageUpserted { page } => {
                set(tx, key, Table::PayPages, &page.id, seq).await?;
                page.version = seq;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Sets one row's version.
async fn set(tx: &mut Tx, key: &StreamKey, table: Table, id: &str, seq: u64) -> AppResult<()> {
    let sql = match table {
        Table::Customers => {
            "UPDATE customers SET version = $4 WHERE merchant_id = $1 AND mode = $2 AND id = $3"
        }
        Table::PayPages => {
            "UPDATE pay_pages SET version = $4 WHERE merchant_id = $1 AND mode = $2 AND id = $3"
        }
    };
    sqlx::query(sql)
        .bind(&key.merchant_id)
        .bind(key.mode.as_str())
        .bind(id)
        .bind(seq as i64)
        .execute(&mut **tx)
        .await?;
    Ok(())
}
