//! Rows that repeat a payment. Uploading the same file twice would debit
//! every payer twice, so a row that repeats a stored payment, or an earlier
//! row of its own file, is shown in the preview and skipped at the commit
//! unless the user chose to import repeats (`ConfirmImport`).
//!
//! What identifies a payment follows its layout (DOMAIN.md, import
//! templates): the customer reference, the contract reference (templates
//! 1-2, the mandate's contract), the transaction reference (one-time
//! layouts), and the date: date to process (one-time) or collection start
//! date (recurring). A column the layout lacks counts as empty. Payments of
//! another kind or method are other payments; cancelled ones never debit
//! and are not repeated by a row.

use std::collections::{HashMap, HashSet};

use protocol::{ErrorCode, ImportIssue, ImportTemplate, Mode, PaymentKind};

use super::rows::{ValidRow, method_of};
use super::template::{Column, layout};
use crate::domain::calendar::iso_date;
use crate::error::AppResult;
use crate::store::conn::Conn;
use crate::store::import_duplicates::{StoredPaymentKey, payment_keys_by_reference};

/// What tells one customer's payments apart in a layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PaymentKey {
    pub contract_reference: String,
    pub transaction_reference: String,
    pub date: String,
}

impl PaymentKey {
    /// The key of the payment a row would make, written as the payment stores it.
    pub fn of_row(row: &ValidRow) -> PaymentKey {
        let date = match row.payment.kind {
            PaymentKind::Once => row
                .first
                .map(|first| iso_date(first.nominal))
                .or_else(|| row.payment.date_to_process.clone()),
            PaymentKind::Recurring => row.payment.start_date.clone(),
        };
        PaymentKey {
            contract_reference: row.mandate.contract_reference.clone(),
            transaction_reference: row.payment.transaction_reference.trim().to_string(),
            date: date.unwrap_or_default(),
        }
    }

    pub fn of_stored(stored: StoredPaymentKey) -> (String, PaymentKey) {
        let key = PaymentKey {
            contract_reference: stored.contract_reference,
            transaction_reference: stored.transaction_reference,
            date: stored.date,
        };
        (stored.customer, key)
    }
}

/// A valid row's key, kept while an upload is checked so its preview can
/// name the repeats.
#[derive(Clone, Debug)]
pub struct RowKey {
    pub number: u32,
    pub customer_reference: String,
    pub key: PaymentKey,
}

impl RowKey {
    pub fn of_row(row: &ValidRow) -> RowKey {
        RowKey {
            number: row.number,
            customer_reference: row.customer.reference.clone(),
            key: PaymentKey::of_row(row),
        }
    }
}

/// What a row repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeats {
    /// A payment stored before this import.
    Payment,
    /// An earlier row of the same file.
    Row,
}

/// The columns that identify a payment in a layout, as the issue names them.
pub fn key_columns(template: ImportTemplate, kind: PaymentKind) -> String {
    let identifying = [
        Column::CustomerReference,
        Column::ContractReference,
        Column::TransactionReference,
        Column::DateToProcess,
        Column::StartDate,
    ];
    let present: Vec<Column> = layout(template, kind).into_iter().map(|(c, _)| c).collect();
    identifying
        .into_iter()
        .filter(|column| present.contains(column))
        .map(Column::header)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The problem recorded for a repeated row.
pub fn issue(row: u32, columns: &str, repeats: Repeats) -> ImportIssue {
    ImportIssue {
        row,
        column: columns.to_string(),
        code: match repeats {
            Repeats::Payment => ErrorCode::DuplicatePayment,
            Repeats::Row => ErrorCode::DuplicateRow,
        },
    }
}

/// References asked per statement: a 100,000-row file is a few statements.
const REFERENCES_PER_LOOKUP: usize = 5_000;

/// Every row of an upload that repeats a stored payment or an earlier row,
/// in row order. The stored payments are looked up by the rows' customer
/// references, a few thousand at a time.
pub async fn find_in_upload(
    conn: &mut Conn,
    stream: (&str, Mode),
    (template, kind): (ImportTemplate, PaymentKind),
    rows: &[RowKey],
) -> AppResult<Vec<ImportIssue>> {
    let mut references: Vec<&str> = rows.iter().map(|r| r.customer_reference.as_str()).collect();
    references.sort_unstable();
    references.dedup();
    // By customer reference, so each row is looked up without a copy.
    let mut stored: HashMap<String, HashSet<PaymentKey>> = HashMap::new();
    for some in references.chunks(REFERENCES_PER_LOOKUP) {
        let found =
            payment_keys_by_reference(conn, stream, (kind, method_of(template)), some).await?;
        for (reference, key) in found.into_iter().map(PaymentKey::of_stored) {
            stored.entry(reference).or_default().insert(key);
        }
    }
    let columns = key_columns(template, kind);
    let mut seen: HashMap<(&str, &PaymentKey), u32> = HashMap::with_capacity(rows.len());
    let mut issues = Vec::new();
    for row in rows {
        let repeats_payment = stored
            .get(&row.customer_reference)
            .is_some_and(|keys| keys.contains(&row.key));
        if repeats_payment {
            issues.push(issue(row.number, &columns, Repeats::Payment));
        } else if seen
            .insert((row.customer_reference.as_str(), &row.key), row.number)
            .is_some()
        {
            issues.push(issue(row.number, &columns, Repeats::Row));
        }
    }
    Ok(issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_is_identified_by_its_own_columns() {
        assert_eq!(
            key_columns(ImportTemplate::EftDebitOrder, PaymentKind::Once),
            "Customer reference, Transaction reference, Date to process"
        );
        assert_eq!(
            key_columns(ImportTemplate::RegisteredMandate, PaymentKind::Recurring),
            "Customer reference, Contract reference, Collection start date"
        );
        assert_eq!(
            key_columns(ImportTemplate::Debicheck, PaymentKind::Once),
            "Customer reference, Contract reference, Transaction reference, Date to process"
        );
    }
}
