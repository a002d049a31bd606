//! The payments an import's rows may repeat (domain/imports/duplicates.rs),
//! looked up a set at a time: by customer id for one batch of a commit, by
//! customer reference for a whole upload's preview. Both are one statement
//! per set of keys (`import_batches::lookup_sql`), never one per row.

use super::conn::Conn;
use protocol::{Mode, PaymentKind, PaymentMethod};

use super::import_batches::{lookup, lookup_sql};
use super::sql::wire_name;
use crate::error::AppResult;

/// What identifies one stored payment, beside its customer (an id or a
/// reference, as asked).
pub struct StoredPaymentKey {
    pub customer: String,
    pub contract_reference: String,
    pub transaction_reference: String,
    /// Date to process (one-time) or collection start date (recurring).
    pub date: String,
    /// The import and row that made it, if an import did.
    pub import_id: Option<String>,
    pub import_row: Option<u32>,
}

type Found = (String, String, String, String, Option<String>, Option<i64>);

/// The payments of one kind and method, cancelled ones aside: a cancelled
/// payment never debits, so a row repeating it debits nobody twice.
fn payments_from(kind: PaymentKind, extra_join: &str) -> (String, &'static str) {
    let date = match kind {
        PaymentKind::Once => "p.date_to_process",
        PaymentKind::Recurring => "p.start_date",
    };
    let from = format!(
        "payments p JOIN mandates m ON m.id = p.mandate_id{extra_join} WHERE p.merchant_id = $1 \
         AND p.mode = $2 AND p.kind = $4 AND p.method = $5 AND p.status <> 'cancelled'"
    );
    (from, date)
}

async fn keys(
    conn: &mut Conn,
    sql: String,
    (merchant_id, mode): (&str, Mode),
    (kind, method): (PaymentKind, PaymentMethod),
    keys: &[&str],
) -> AppResult<Vec<StoredPaymentKey>> {
    let kind = wire_name(&kind);
    let found: Vec<Found> = lookup(
        conn,
        sql,
        (merchant_id, mode),
        keys,
        &[&kind, method.as_str()],
    )
    .await?;
    Ok(found
        .into_iter()
        .map(
            |(customer, contract_reference, transaction_reference, date, import_id, row)| {
                StoredPaymentKey {
                    customer,
                    contract_reference,
                    transaction_reference,
                    date,
                    import_id,
                    import_row: row.and_then(|r| u32::try_from(r).ok()),
                }
            },
        )
        .collect())
}

/// The payments of these customers (by id), each keyed by its customer's id.
pub async fn payment_keys_of_customers(
    conn: &mut Conn,
    stream: (&str, Mode),
    of: (PaymentKind, PaymentMethod),
    customer_ids: &[&str],
) -> AppResult<Vec<StoredPaymentKey>> {
    let (from, date) = payments_from(of.0, "");
    let sql = lookup_sql(
        conn,
        &format!(
            "p.customer_id, m.contract_reference, p.transaction_reference, COALESCE({date}, ''), \
             p.import_id, p.import_row"
        ),
        &from,
        "p.customer_id",
    );
    keys(conn, sql, stream, of, customer_ids).await
}

/// The payments of the customers with these references, each keyed by its
/// customer's reference.
pub async fn payment_keys_by_reference(
    conn: &mut Conn,
    stream: (&str, Mode),
    of: (PaymentKind, PaymentMethod),
    references: &[&str],
) -> AppResult<Vec<StoredPaymentKey>> {
    // The customer's own stream too, so its unique reference index is used.
    let (from, date) = payments_from(
        of.0,
        " JOIN customers c ON c.id = p.customer_id AND c.merchant_id = $1 AND c.mode = $2",
    );
    let sql = lookup_sql(
        conn,
        &format!(
            "c.reference, m.contract_reference, p.transaction_reference, COALESCE({date}, ''), \
             p.import_id, p.import_row"
        ),
        &from,
        "c.reference",
    );
    keys(conn, sql, stream, of, references).await
}
