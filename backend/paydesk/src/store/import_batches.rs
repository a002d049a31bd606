//! The writes of one import batch: customers matched by reference, their
//! bank accounts, and a mandate and a payment per row, each as a few
//! multi-row statements, made ready (`ReadyInsert`) to run in the batch's
//! transaction; and the lookups that decide them.

use std::collections::HashMap;

use protocol::{CustomerInput, IdType, Mode};
use sqlx::AssertSqlSafe;

use super::bank_accounts::CheckedAccount;
use super::bulk::{BulkInsert, ReadyInsert, Value};
use super::conn::Conn;
use super::customers::search_text;
use super::mandates::NewMandate;
use super::payments::PaymentRecord;
use super::sql::{variant_name, wire_name};
use crate::error::{AppError, AppResult};

/// A lookup by a batch's keys, answered as one row: the matching rows as
/// one JSON array of arrays of `columns`. The keys go in as one JSON array
/// (`$3`), so the statement text is the same for every batch and prepared
/// once, with no statement of hundreds of `$N` (SQLite looks each name up
/// in a list); and a thousand rows come back as one value, not a thousand
/// rows each handed across from the driver's thread.
pub(super) fn lookup_sql(conn: &Conn, columns: &str, from: &str, key_column: &str) -> String {
    if conn.backend_name() == "PostgreSQL" {
        format!(
            "SELECT COALESCE(json_agg(json_build_array({columns})), '[]')::text FROM {from} \
             AND {key_column} IN (SELECT json_array_elements_text($3::json))"
        )
    } else {
        format!(
            "SELECT json_group_array(json_array({columns})) FROM {from} \
             AND {key_column} IN (SELECT value FROM json_each($3))"
        )
    }
}

/// Runs a `lookup_sql` statement; `more` are bound after the keys, from `$4` on.
pub(super) async fn lookup<T: serde::de::DeserializeOwned>(
    conn: &mut Conn,
    sql: String,
    (merchant_id, mode): (&str, Mode),
    keys: &[&str],
    more: &[&str],
) -> AppResult<Vec<T>> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let keys = serde_json::to_string(keys)
        .map_err(|e| AppError::Internal(format!("lookup keys as JSON: {e}")))?;
    let mut query = sqlx::query_scalar(AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(mode.as_str())
        .bind(keys);
    for value in more {
        query = query.bind(*value);
    }
    let found: String = query.fetch_one(conn).await?;
    serde_json::from_str(&found)
        .map_err(|e| AppError::Internal(format!("lookup answer as JSON: {e}")))
}

pub struct KnownCustomer {
    pub id: String,
    pub archived: bool,
    /// As stored, in the order of `customer_details`.
    details: [String; 9],
}

impl KnownCustomer {
    /// The customer as a batch has just written it.
    pub fn written(id: &str, input: &CustomerInput) -> KnownCustomer {
        KnownCustomer {
            id: id.to_string(),
            archived: false,
            details: customer_details(input).map(str::to_string),
        }
    }

    /// Whether writing `input` would change nothing: a file names the same
    /// customer on many rows, and rewriting an unchanged row is wasted work.
    pub fn holds(&self, input: &CustomerInput) -> bool {
        customer_details(input) == self.details.each_ref().map(String::as_str)
    }
}

/// What an import updates of a known customer.
fn customer_details(c: &CustomerInput) -> [&str; 9] {
    [
        &c.name,
        &c.email,
        &c.cellphone,
        c.id_type.map_or("", IdType::as_str),
        &c.id_number,
        &c.address_line1,
        &c.address_line2,
        &c.city,
        &c.postal_code,
    ]
}

/// The merchant's customers with these references.
pub async fn customers_by_reference(
    conn: &mut Conn,
    merchant_id: &str,
    mode: Mode,
    references: &[&str],
) -> AppResult<HashMap<String, KnownCustomer>> {
    // In the order of the columns below: one flat JSON array per customer.
    type Found = (
        String,
        String,
        Option<i64>,
        String,
        String,
        String,
        Option<String>,
        String,
        String,
        String,
        String,
        String,
    );
    let sql = lookup_sql(
        conn,
        "c.id, c.reference, c.archived_at, c.name, c.email, c.cellphone, c.id_type, c.id_number, \
         c.address_line1, c.address_line2, c.city, c.postal_code",
        "customers c WHERE c.merchant_id = $1 AND c.mode = $2",
        "c.reference",
    );
    let rows: Vec<Found> = lookup(conn, sql, (merchant_id, mode), references, &[]).await?;
    let mut found = HashMap::with_capacity(rows.len());
    for row in rows {
        let (id, reference, archived_at, name, email, cellphone, id_type, id_number) =
            (row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7);
        let (line1, line2, city, postal_code) = (row.8, row.9, row.10, row.11);
        let details = [
            name,
            email,
            cellphone,
            id_type.unwrap_or_default(),
            id_number,
            line1,
            line2,
            city,
            postal_code,
        ];
        found.insert(
            reference,
            KnownCustomer {
                id,
                archived: archived_at.is_some(),
                details,
            },
        );
    }
    Ok(found)
}

/// Creates the customers, or updates them in place when the reference is
/// known (the id given is then the existing one). One row per reference.
pub fn customers_upsert(
    on_sqlite: bool,
    merchant_id: &str,
    mode: Mode,
    now: i64,
    customers: &[(&str, &CustomerInput)],
) -> AppResult<ReadyInsert> {
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
    .ready(on_sqlite, &rows)
}

/// A customer's live bank account: one per bank and account number.
pub struct KnownAccount {
    pub id: String,
    bank: String,
    account_number: String,
    /// Branch code, account type and holder, as stored.
    details: [String; 3],
}

impl KnownAccount {
    /// The account as a batch has just written it.
    pub fn written(id: &str, input: &CheckedAccount) -> KnownAccount {
        KnownAccount {
            id: id.to_string(),
            bank: variant_name(&input.bank).to_string(),
            account_number: input.account_number.clone(),
            details: [
                input.branch_code.clone(),
                wire_name(&input.account_type),
                input.holder_name.clone(),
            ],
        }
    }

    /// Whether this is the customer's account at `bank` (its wire name)
    /// with `account_number`.
    pub fn is(&self, bank: &str, account_number: &str) -> bool {
        self.bank == bank && self.account_number == account_number
    }

    /// Whether writing `input` would change nothing (see `KnownCustomer::holds`).
    pub fn holds(&self, input: &CheckedAccount) -> bool {
        self.details[0] == input.branch_code
            && self.details[1] == variant_name(&input.account_type)
            && self.details[2] == input.holder_name
    }
}

/// The live bank accounts of these customers, each beside its customer's id.
pub async fn bank_accounts_of(
    conn: &mut Conn,
    merchant_id: &str,
    mode: Mode,
    customer_ids: &[&str],
) -> AppResult<Vec<(String, KnownAccount)>> {
    type Found = (String, String, String, String, String, String, String);
    let sql = lookup_sql(
        conn,
        "b.id, b.customer_id, b.bank, b.account_number, b.branch_code, b.account_type, b.holder_name",
        "bank_accounts b WHERE b.merchant_id = $1 AND b.mode = $2 AND b.removed_at IS NULL",
        "b.customer_id",
    );
    let rows: Vec<Found> = lookup(conn, sql, (merchant_id, mode), customer_ids, &[]).await?;
    Ok(rows
        .into_iter()
        .map(
            |(id, customer_id, bank, account_number, branch_code, account_type, holder_name)| {
                let details = [branch_code, account_type, holder_name];
                let account = KnownAccount {
                    id,
                    bank,
                    account_number,
                    details,
                };
                (customer_id, account)
            },
        )
        .collect())
}

/// Adds the new accounts and refreshes the holder, type and branch of known
/// ones. One row per account key.
pub fn bank_accounts_upsert(
    on_sqlite: bool,
    merchant_id: &str,
    mode: Mode,
    now: i64,
    accounts: &[(&str, &str, &CheckedAccount)],
) -> AppResult<ReadyInsert> {
    let rows: Vec<Vec<Value>> = accounts
        .iter()
        .map(|(id, customer_id, a)| {
            vec![
                Value::Text(id),
                Value::Text(customer_id),
                Value::Text(variant_name(&a.bank)),
                Value::Text(&a.branch_code),
                Value::Text(variant_name(&a.account_type)),
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
    .ready(on_sqlite, &rows)
}

pub fn mandates_insert(
    on_sqlite: bool,
    merchant_id: &str,
    mode: Mode,
    now: i64,
    mandates: &[NewMandate<'_>],
) -> AppResult<ReadyInsert> {
    let rows: Vec<Vec<Value>> = mandates
        .iter()
        .map(|m| {
            let input = m.input;
            vec![
                Value::Text(m.id),
                Value::Text(m.customer_id),
                Value::Text(m.bank_account_id),
                Value::Text(input.method.as_str()),
                Value::Text(variant_name(&m.status)),
                Value::Text(variant_name(&input.client_type)),
                Value::Text(variant_name(&input.industry)),
                Value::Text(&input.contract_reference),
                Value::Int(m.amount_cents),
                Value::opt_int(input.maximum_collection_cents),
                Value::Int(i64::from(input.allow_tracking)),
                Value::opt_int(input.tracking_days.map(i64::from)),
                Value::Int(i64::from(input.allow_date_adjustment)),
                Value::Int(i64::from(input.variable_amount)),
                Value::Text(variant_name(&input.adjustment_category)),
                Value::opt_text(input.adjustment_type.as_ref().map(variant_name)),
                Value::Text(&input.adjustment_rate),
                Value::opt_int(input.adjustment_amount_cents),
                Value::opt_text(input.approval_window.as_ref().map(variant_name)),
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
    .ready(on_sqlite, &rows)
}

/// The payments of one batch, each marked with its import and row, and
/// each with its customer's id beside it.
pub fn payments_insert(
    on_sqlite: bool,
    merchant_id: &str,
    mode: Mode,
    import_id: &str,
    now: i64,
    payments: &[(&PaymentRecord, &str)],
) -> AppResult<ReadyInsert> {
    let rows: Vec<Vec<Value>> = payments
        .iter()
        .map(|(r, customer_id)| {
            let p = &r.view;
            vec![
                Value::Text(&p.id),
                Value::Text(variant_name(&p.kind)),
                Value::Text(customer_id),
                Value::Text(&p.mandate_id),
                Value::Text(p.method.as_str()),
                Value::Text(variant_name(&p.status)),
                Value::Int(p.amount_cents),
                Value::opt_int(p.first_collection_cents),
                Value::opt_text(p.date_to_process.as_deref()),
                Value::Text(&p.transaction_reference),
                Value::opt_text(p.start_date.as_deref()),
                Value::opt_text(p.end_date.as_deref()),
                Value::opt_text(p.interval.as_ref().map(variant_name)),
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
    .ready(on_sqlite, &rows)
}
