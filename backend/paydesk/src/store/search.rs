//! The search box's reads: a few records of one kind whose name, reference,
//! e-mail address, ID number or account number holds the text, newest
//! first. Every statement is scoped by merchant and mode, and the text only
//! ever travels as a bound parameter.

use protocol::{Mode, PaymentKind, SearchHit, SearchKind};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::Db;
use super::mandates::last_digits;
use super::sql::{Bind, Sql, account_suffix, like_pattern, opt_int, opt_text, stored};
use crate::error::AppResult;

/// The placeholders every kind's statement uses.
struct Args {
    merchant: String,
    mode: String,
    /// `%text%`, lower-cased, the user's `%`, `_` and `\` taken literally.
    pattern: String,
    /// Account numbers ending in the digits typed (none when not all digits).
    digits: String,
    /// The record's own id, pasted whole.
    exact: String,
    limit: String,
}

fn args(sql: &mut Sql, merchant_id: &str, mode: Mode, text: &str, limit: u32) -> Args {
    Args {
        merchant: sql.text_arg(merchant_id),
        mode: sql.text_arg(mode.as_str()),
        pattern: sql.text_arg(&like_pattern(text)),
        digits: sql.text_arg(&account_suffix(text)),
        exact: sql.text_arg(text),
        limit: sql.arg(Bind::Int(i64::from(limit))),
    }
}

/// `column LIKE pattern` for each of `columns`, joined by OR.
fn any_like(columns: &[&str], pattern: &str) -> String {
    columns
        .iter()
        .map(|column| format!("{column} LIKE {pattern} ESCAPE '\\'"))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// The statement of one kind. Customers' joined rows are read by id: ids are
/// unique across merchants, and the record itself is the stream's.
fn statement(kind: SearchKind, a: &Args) -> String {
    let Args {
        merchant,
        mode,
        pattern,
        digits,
        exact,
        limit,
    } = a;
    let stream =
        |alias: &str| format!("{alias}.merchant_id = {merchant} AND {alias}.mode = {mode}");
    let newest =
        |alias: &str| format!(" ORDER BY {alias}.created_at DESC, {alias}.id DESC LIMIT {limit}");
    match kind {
        SearchKind::Customer => {
            // The customer's own account that ends in the digits typed: the
            // hit shows its last digits, so the person sees why it matched.
            // (An aggregate always gives a row: matched is "not null", not
            // "exists".)
            let account = format!(
                "SELECT MAX(ba.account_number) FROM bank_accounts ba WHERE {} \
                 AND ba.customer_id = c.id AND ba.removed_at IS NULL AND ba.account_number LIKE {digits}",
                stream("ba")
            );
            format!(
                "SELECT c.id, c.name AS title, COALESCE(c.reference, '') AS reference, c.email, \
                 NULL AS amount_cents, ({account}) AS account_number FROM customers c \
                 WHERE {} AND ({} OR c.id = {exact} OR ({account}) IS NOT NULL){}",
                stream("c"),
                any_like(&["c.search_text"], pattern),
                newest("c"),
            )
        }
        SearchKind::Payment => format!(
            "SELECT p.id, c.name AS title, p.transaction_reference AS reference, p.amount_cents, \
             b.account_number, p.kind FROM payments p JOIN customers c ON c.id = p.customer_id \
             JOIN mandates m ON m.id = p.mandate_id JOIN bank_accounts b ON b.id = m.bank_account_id \
             WHERE {} AND ({} OR b.account_number LIKE {digits} OR p.id = {exact}){}",
            stream("p"),
            any_like(
                &[
                    "c.search_text",
                    "LOWER(p.transaction_reference)",
                    "LOWER(m.contract_reference)",
                ],
                pattern
            ),
            newest("p"),
        ),
        SearchKind::Mandate => format!(
            "SELECT m.id, c.name AS title, m.contract_reference AS reference, m.amount_cents, \
             b.account_number FROM mandates m JOIN customers c ON c.id = m.customer_id \
             JOIN bank_accounts b ON b.id = m.bank_account_id \
             WHERE {} AND ({} OR b.account_number LIKE {digits} OR m.id = {exact}){}",
            stream("m"),
            any_like(&["c.search_text", "LOWER(m.contract_reference)"], pattern),
            newest("m"),
        ),
        SearchKind::Transaction => format!(
            "SELECT t.id, COALESCE(c.name, t.payer_name, '') AS title, t.reference, t.amount_cents, \
             b.account_number FROM transactions t LEFT JOIN customers c ON c.id = t.customer_id \
             LEFT JOIN mandates m ON m.id = t.mandate_id LEFT JOIN bank_accounts b ON b.id = m.bank_account_id \
             WHERE {} AND ({} OR b.account_number LIKE {digits} OR t.id = {exact}){}",
            stream("t"),
            any_like(
                &[
                    "c.search_text",
                    "LOWER(t.payer_name)",
                    "LOWER(t.reference)",
                    "LOWER(m.contract_reference)",
                ],
                pattern
            ),
            newest("t"),
        ),
        // Orders are card payments: no bank account to match.
        SearchKind::Order => format!(
            "SELECT o.id, o.payer_name AS title, o.reference, o.amount_cents, \
             NULL AS account_number FROM orders o LEFT JOIN customers c ON c.id = o.customer_id \
             WHERE {} AND ({} OR o.id = {exact}){}",
            stream("o"),
            any_like(&["o.search_text", "c.search_text"], pattern),
            newest("o"),
        ),
        SearchKind::Payout => format!(
            "SELECT po.id, po.holder_name AS title, COALESCE(po.reason, '') AS reference, \
             po.amount_cents, po.account_number FROM payouts po \
             LEFT JOIN customers c ON c.id = po.customer_id \
             WHERE {} AND ({} OR po.account_number LIKE {digits} OR po.id = {exact}){}",
            stream("po"),
            any_like(
                &["LOWER(po.holder_name)", "LOWER(po.reason)", "c.search_text"],
                pattern
            ),
            newest("po"),
        ),
    }
}

fn hit(kind: SearchKind, row: &AnyRow) -> AppResult<SearchHit> {
    let reference = opt_text(row, "reference").unwrap_or_default();
    // A customer without a reference is told apart by their address.
    let detail = match kind {
        SearchKind::Customer if reference.is_empty() => opt_text(row, "email").unwrap_or_default(),
        _ => reference,
    };
    let payment_kind = match kind {
        SearchKind::Payment => Some(stored::<PaymentKind>(
            &row.get::<String, _>("kind"),
            "kind",
        )?),
        _ => None,
    };
    Ok(SearchHit {
        kind,
        id: row.get("id"),
        title: opt_text(row, "title").unwrap_or_default(),
        detail,
        amount_cents: opt_int(row, "amount_cents"),
        account_last4: opt_text(row, "account_number")
            .filter(|number| !number.is_empty())
            .map(|number| last_digits(&number)),
        payment_kind,
    })
}

/// Up to `limit` records of `kind` matching `text` (already trimmed and
/// checked by the domain), newest first.
pub async fn find(
    db: &Db,
    merchant_id: &str,
    mode: Mode,
    kind: SearchKind,
    text: &str,
    limit: u32,
) -> AppResult<Vec<SearchHit>> {
    let mut sql = Sql::new("");
    let args = args(&mut sql, merchant_id, mode, text, limit);
    sql.push(&statement(kind, &args));
    let rows = sql.query().fetch_all(&db.pool).await?;
    rows.iter().map(|row| hit(kind, row)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statement_is_scoped_and_takes_the_text_only_as_parameters() {
        let mut sql = Sql::new("");
        let a = args(&mut sql, "mer_1", Mode::Test, "50%_off' OR 1=1", 5);
        let aliases = ["c", "p", "m", "t", "o", "po"];
        for (kind, alias) in SearchKind::ALL.into_iter().zip(aliases) {
            let text = statement(kind, &a);
            assert!(!text.contains("50%"), "{kind:?}: {text}");
            assert!(!text.contains("OR 1=1"), "{kind:?}");
            let scoped = format!(" WHERE {alias}.merchant_id = $1 AND {alias}.mode = $2 AND (");
            assert!(text.contains(&scoped), "{kind:?}: {text}");
        }
    }
}
