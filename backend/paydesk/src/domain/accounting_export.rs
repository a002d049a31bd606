//! The accounting export: the debits the bank paid between two business
//! dates as a bank-statement CSV that Xero and Sage import as it is
//! (`Date,Amount,Payee,Description,Reference`, dates `DD/MM/YYYY`, amounts
//! in rand with a point). Every text cell goes through
//! `downloads::csv_cell`, so a payer's name that starts like a formula
//! stays text in the spreadsheet program.

use protocol::{ErrorCode, ReplyBody, Transaction};

use super::Scope;
use super::calendar::{iso_date, parse_iso_date};
use super::downloads::csv_cell;
use super::imports::queries::chunk_of;
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::transactions as store;

/// The longest range one file covers, so one file stays a sensible size.
pub const MAX_DAYS: i64 = 366;
const CONTENT_TYPE: &str = "text/csv; charset=utf-8";

pub async fn download(
    db: &Db,
    scope: &Scope,
    from: &str,
    to: &str,
    offset: u32,
) -> AppResult<ReplyBody> {
    let start =
        parse_iso_date(from).ok_or_else(|| AppError::field("from", ErrorCode::InvalidDate))?;
    let end = parse_iso_date(to).ok_or_else(|| AppError::field("to", ErrorCode::InvalidDate))?;
    if end < start {
        return Err(AppError::field("to", ErrorCode::EndNotAfterStart));
    }
    if (end - start).whole_days() >= MAX_DAYS {
        return Err(AppError::field("to", ErrorCode::DateRangeTooLong));
    }
    let (from, to) = (iso_date(start), iso_date(end));
    let rows = store::paid_settled_between(db, &scope.merchant_id, scope.mode, &from, &to).await?;
    let bytes = statement_csv(&rows)?;
    let name = format!("paydesk-{}-{from}-{to}.csv", scope.mode.as_str());
    Ok(ReplyBody::FileChunk {
        chunk: Box::new(chunk_of(&name, CONTENT_TYPE, &bytes, offset)),
    })
}

/// The statement: one credit line per paid debit, on its settlement date.
pub fn statement_csv(rows: &[(String, Transaction)]) -> AppResult<Vec<u8>> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| AppError::Internal(format!("statement csv: {e}"));
    out.write_record(["Date", "Amount", "Payee", "Description", "Reference"])
        .map_err(fail)?;
    for (settled_on, t) in rows {
        let description = format!("{} {}", method_label(t), t.id);
        out.write_record([
            statement_date(settled_on).as_str(),
            rands(t.amount_cents).as_str(),
            &csv_cell(&t.customer_name),
            &csv_cell(&description),
            &csv_cell(&t.reference),
        ])
        .map_err(fail)?;
    }
    out.into_inner()
        .map_err(|e| AppError::Internal(format!("statement csv: {e}")))
}

/// `YYYY-MM-DD` as `DD/MM/YYYY`, the order South African Xero and Sage read.
fn statement_date(iso: &str) -> String {
    match (iso.get(0..4), iso.get(5..7), iso.get(8..10)) {
        (Some(y), Some(m), Some(d)) => format!("{d}/{m}/{y}"),
        _ => iso.to_string(),
    }
}

/// Cents as rand with two decimals and a point, never a thousands separator.
fn rands(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

fn method_label(t: &Transaction) -> &'static str {
    use protocol::PaymentMethod as M;
    match t.method {
        M::Debicheck => "DebiCheck",
        M::RegisteredMandate => "Registered mandate",
        M::EftDebitOrder => "EFT debit order",
        M::Card => "Card",
        M::InstantEft => "Instant EFT",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_dates_read_as_the_packages_expect() {
        assert_eq!(rands(123_456), "1234.56");
        assert_eq!(rands(5), "0.05");
        assert_eq!(rands(-250), "-2.50");
        assert_eq!(statement_date("2026-03-02"), "02/03/2026");
    }
}
