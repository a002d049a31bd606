//! The writes of one import batch: customers matched by reference, their
//! bank accounts, and a mandate and a payment per row, each as a few
//! multi-row statements.

use std::collections::HashMap;

use protocol::{BankAccountInput, CustomerInput, IdType, Mode};
use sqlx::Row;

use super::Tx;
use super::bulk::{BulkInsert, Value};
use super::customers::search_text;
use super::mandates::NewMandate;
use super::payments::PaymentRecord;
use super::sql::{Bind, Sql, opt_int, wire_name};
use crate::error::AppResult;

/// Lookups by a list of keys go in pieces this size.
const KEYS_PER_QUERY: usize = 500;

pub struct KnownCustomer {
    pub id: String,
    pub archived: bool,
}

/// The merchant's customers with these references.
pub async fn customers_by_reference(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    references: &[&str],
) -> AppResult<HashMap<String, KnownCustomer>> {
    let mut found = HashMap::new();
    for chunk in references.chunks(KEYS_PER_QUERY) {
        let mut sql = Sql::in_stream(
            "SELECT c.id, c.reference, c.archived_at FROM customers c",
            "c",
            merchant_id,
            mode,
        );
        let placeholders: Vec<String> = chunk
            .iter()
            .map(|r| sql.arg(Bind::Text(r.to_string())))
            .collect();
        sql.push(&format!(
            " AND c.reference IN ({})",
            placeholders.join(", ")
        ));
        for row in sql.query().fetch_all(&mut **tx).await? {
            found.insert(
                row.get("reference"),
                KnownCustomer {
                    id: row.get("id"),
                    archived: opt_int(&row, "archived_at").is_some(),
                },
            );
        }
    }
    Ok(found)
}

/// Creates the customers, or updates them in place when the reference is
/// known (the id given is then the existing one). One row per reference.
pub async fn upsert_customers(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    now: i64,
    customers: &[(&str, &CustomerInput)],
) -> AppResult<()> {
    let search: Vec<String> = customers.iter().map(|(_, c)| search_text(c)).collect();
    let rows: Vec<Vec<Value>> = customers
        .iter()
        .zip(&search)
        .map(|((id, c), search)| {
            vec![
                Value::Text(id),
                Value::Text(&c.name),
                Value::Text(&c.email),
                Value::Text(&c.cellphone),
                Value::opt_text(c.id_type.map(IdType::as_str)),
                Value::Text(&c.id_number),
                Value::Text(&c.address_line1),
                Value::Text(&c.address_line2),
                Value::Text(&c.city),
                Value::Text(&c.postal_code),
                Value::Text(&c.reference),
                Value::Text(search),
            ]
        })
        .collect();
    BulkInsert {
        head: "INSERT INTO customers (merchant_id, mode, created_at, updated_at, archived_at, id, name, email, \
               cellphone, id_type, id_number, address_line1, address_line2, city, postal_code, reference, search_text)",
        shared: vec![Value::Text(merchant_id), Value::Text(mode.as_str()), Value::Int(now)],
        shared_sql: "$1, $2, $3, $3, NULL",
        tail: " ON CONFLICT (merchant_id, mode, reference) DO UPDATE SET name = excluded.name, \
               email = excluded.email, cellphone = excluded.cellphone, id_type = excluded.id_type, \
               id_number = excluded.id_number, address_line1 = excluded.address_line1, \
               address_line2 = excluded.address_line2, city = excluded.city, postal_code = excluded.postal_code, \
               search_text = excluded.search_text, updated_at = excluded.updated_at",
    }
    .run(tx, &rows)
    .await
}

/// `(customer id, bank, account number)`: one live account each.
pub type AccountKey = (String, String, String);

pub async fn bank_accounts_of(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    customer_ids: &[&str],
) -> AppResult<HashMap<AccountKey, String>> {
    let mut found = HashMap::new();
    for chunk in customer_ids.chunks(KEYS_PER_QUERY) {
        let mut sql = Sql::in_stream(
            "SELECT b.id, b.customer_id, b.bank, b.account_number FROM bank_accounts b",
            "b",
            merchant_id,
            mode,
        );
        let placeholders: Vec<String> = chunk
            .iter()
            .map(|id| sql.arg(Bind::Text(id.to_string())))
            .collect();
        sql.push(&format!(
            " AND b.removed_at IS NULL AND b.customer_id IN ({})",
            placeholders.join(", ")
        ));
        for row in sql.query().fetch_all(&mut **tx).await? {
            found.insert(
                (
                    row.get("customer_id"),
                    row.get("bank"),
                    row.get("account_number"),
                ),
                row.get("id"),
            );
        }
    }
    Ok(found)
}

/// Adds the new accounts and refreshes the holder, type and branch of known
/// ones. One row per account key.
pub async fn upsert_bank_accounts(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    now: i64,
    accounts: &[(&str, &str, &BankAccountInput)],
) -> AppResult<()> {
    let banks: Vec<String> = accounts
        .iter()
        .map(|(_, _, a)| wire_name(&a.bank))
        .collect();
    let types: Vec<String> = accounts
        .iter()
        .map(|(_, _, a)| wire_name(&a.account_type))
        .collect();
    let rows: Vec<Vec<Value>> = accounts
        .iter()
        .enumerate()
        .map(|(i, (id, customer_id, a))| {
            vec![
                Value::Text(id),
                Value::Text(customer_id),
                Value::Text(&banks[i]),
                Value::Text(&a.branch_code),
                Value::Text(&types[i]),
                Value::Text(&a.holder_name),
                Value::Text(&a.account_number),
            ]
        })
        .collect();
    BulkInsert {
        head: "INSERT INTO bank_accounts (merchant_id, mode, created_at, removed_at, id, customer_id, bank, \
               branch_code, account_type, holder_name, account_number)",
        shared: vec![Value::Text(merchant_id), Value::Text(mode.as_str()), Value::Int(now)],
        shared_sql: "$1, $2, $3, NULL",
        tail: " ON CONFLICT (merchant_id, mode, customer_id, bank, account_number) WHERE removed_at IS NULL \
               DO UPDATE SET branch_code = excluded.branch_code, account_type = excluded.account_type, \
               holder_name = excluded.holder_name",
    }
    .run(tx, &rows)
    .await
}

pub async fn insert_mandates(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    now: i64,
    mandates: &[NewMandate<'_>],
) -> AppResult<()> {
    let names: Vec<[String; 5]> = mandates
        .iter()
        .map(|m| {
            [
                wire_name(&m.status),
                wire_name(&m.input.client_type),
                wire_name(&m.input.industry),
                wire_name(&m.input.adjustment_category),
                m.input
                    .adjustment_type
                    .map(|t| wire_name(&t))
                    .unwrap_or_default(),
            ]
        })
        .collect();
    let windows: Vec<Option<String>> = mandates
        .iter()
        .map(|m| m.input.approval_window.map(|w| wire_name(&w)))
        .collect();
    let rows: Vec<Vec<Value>> = mandates
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let input = m.input;
            let [status, client_type, industry, category, adjustment_type] = &names[i];
            vec![
                Value::Text(m.id),
                Value::Text(m.customer_id),
                Value::Text(m.bank_account_id),
                Value::Text(input.method.as_str()),
                Value::Text(status),
                Value::Text(client_type),
                Value::Text(industry),
                Value::Text(&input.contract_reference),
                Value::Int(m.amount_cents),
                Value::opt_int(input.maximum_collection_cents),
                Value::Int(i64::from(input.allow_tracking)),
                Value::opt_int(input.tracking_days.map(i64::from)),
                Value::Int(i64::from(input.allow_date_adjustment)),
                Value::Int(i64::from(input.variable_amount)),
                Value::Text(category),
                Value::opt_text(Some(adjustment_type.as_str()).filter(|t| !t.is_empty())),
                Value::Text(&input.adjustment_rate),
                Value::opt_int(input.adjustment_amount_cents),
                Value::opt_text(windows[i].as_deref()),
                Value::Text(&input.abbreviated_name),
                Value::Int(i64::from(m.authentication_requests)),
                Value::opt_text(m.authentication_due.as_deref()),
                Value::opt_text(m.end_date.as_deref()),
            ]
        })
        .collect();
    BulkInsert {
        head: "INSERT INTO mandates (merchant_id, mode, created_at, updated_at, archived, id, customer_id, \
               bank_account_id, method, status, client_type, industry, contract_reference, amount_cents, \
               maximum_collection_cents, allow_tracking, tracking_days, allow_date_adjustment, variable_amount, \
               adjustment_category, adjustment_type, adjustment_rate, adjustment_amount_cents, approval_window, \
               abbreviated_name, authentication_requests, authentication_due, end_date)",
        shared: vec![Value::Text(merchant_id), Value::Text(mode.as_str()), Value::Int(now)],
        shared_sql: "$1, $2, $3, $3, 0",
        tail: "",
    }
    .run(tx, &rows)
    .await
}

/// The payments of one batch, each marked with its import and row.
pub async fn insert_payments(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    import_id: &str,
    now: i64,
    payments: &[PaymentRecord],
) -> AppResult<()> {
    let names: Vec<[String; 3]> = payments
        .iter()
        .map(|r| {
            [
                wire_name(&r.view.kind),
                wire_name(&r.view.status),
                r.view.interval.map(|i| wire_name(&i)).unwrap_or_default(),
            ]
        })
        .collect();
    let rows: Vec<Vec<Value>> = payments
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = &r.view;
            let [kind, status, interval] = &names[i];
            vec![
                Value::Text(&p.id),
                Value::Text(kind),
                Value::Text(&p.customer_id),
                Value::Text(&p.mandate_id),
                Value::Text(p.method.as_str()),
                Value::Text(status),
                Value::Int(p.amount_cents),
                Value::opt_int(p.first_collection_cents),
                Value::opt_text(p.date_to_process.as_deref()),
                Value::Text(&p.transaction_reference),
                Value::opt_text(p.start_date.as_deref()),
                Value::opt_text(p.end_date.as_deref()),
                Value::opt_text(Some(interval.as_str()).filter(|i| !i.is_empty())),
                Value::opt_int(p.day_to_process.map(i64::from)),
                Value::opt_text(r.next_nominal_date.as_deref()),
                Value::opt_text(p.next_action_date.as_deref()),
                Value::opt_int(p.import_row.map(i64::from)),
            ]
        })
        .collect();
    BulkInsert {
        head: "INSERT INTO payments (merchant_id, mode, import_id, created_at, updated_at, stop_reason, \
               rerun_cents, collected_cents, attempts, consecutive_unpaids, id, kind, customer_id, mandate_id, method, status, amount_cents, \
               first_collection_cents, date_to_process, transaction_reference, start_date, end_date, \
               collection_interval, day_to_process, next_nominal_date, next_action_date, import_row)",
        shared: vec![
            Value::Text(merchant_id),
            Value::Text(mode.as_str()),
            Value::Text(import_id),
            Value::Int(now),
        ],
        shared_sql: "$1, $2, $3, $4, $4, NULL, NULL, 0, 0, 0",
        tail: "",
    }
    .run(tx, &rows)
    .await
}
