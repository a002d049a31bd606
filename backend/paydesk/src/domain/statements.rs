//! The statement of a stream's money for a period of business dates (the
//! summary page and its files): the balance before the period, what moved
//! in it by kind, and the balance after it. Every figure is a sum of ledger
//! entries, so the closing balance is the opening balance plus the period's
//! entries, and the sections always add up to the difference.

use protocol::{
    ErrorCode, Language, PaymentMethod, ReplyBody, Statement, StatementBusiness, StatementFormat,
    StatementKindTotal, StatementMethodTotal,
};

use super::Scope;
use super::calendar::{iso_date, parse_iso_date};
use super::imports::queries::chunk_of;
use super::ledger::EntryKind;
use super::statement_files;
use crate::error::{AppError, AppResult};
use crate::store::ledger as store;
use crate::store::{Db, business};

/// The longest period one statement covers, as for the accounting export.
pub const MAX_DAYS: i64 = 366;
/// Entries one reply carries, so a reply stays well under the frame limit.
pub const LINES_PER_REPLY: u32 = 200;
/// The ledger kinds of payouts, shown in their own section by these names.
pub const PAYOUT_KINDS: [&str; 3] = ["payout", "payout_fee", "payout_return"];

/// Checks a period: both dates valid, `to` not before `from`, not too long.
pub fn period(from: &str, to: &str) -> AppResult<(String, String)> {
    let start =
        parse_iso_date(from).ok_or_else(|| AppError::field("from", ErrorCode::InvalidDate))?;
    let end = parse_iso_date(to).ok_or_else(|| AppError::field("to", ErrorCode::InvalidDate))?;
    if end < start {
        return Err(AppError::field("to", ErrorCode::EndNotAfterStart));
    }
    if (end - start).whole_days() >= MAX_DAYS {
        return Err(AppError::field("to", ErrorCode::DateRangeTooLong));
    }
    Ok((iso_date(start), iso_date(end)))
}

/// The statement's figures and `limit` of its entries from `offset`.
pub async fn statement(
    db: &Db,
    scope: &Scope,
    from: &str,
    to: &str,
    offset: u32,
    limit: Option<u32>,
) -> AppResult<Statement> {
    let (from, to) = period(from, to)?;
    let opening = store::sum_before(db, &scope.merchant_id, scope.mode, &from).await?;
    let totals = store::totals_between(db, &scope.merchant_id, scope.mode, &from, &to).await?;
    let mut statement = summarise(from, to, opening, &totals);
    let lines_total = statement.lines_total;
    statement.lines = store::entries_between(
        db,
        &scope.merchant_id,
        scope.mode,
        (&statement.from, &statement.to),
        offset,
        limit,
    )
    .await?;
    let end = offset.saturating_add(statement.lines.len() as u32);
    statement.next_offset = (limit.is_some() && end < lines_total).then_some(end);
    if let Some((info, _)) = business::find_business_info(db, &scope.merchant_id).await? {
        statement.business = StatementBusiness {
            legal_name: info.legal_name,
            registration_number: info.registration_number,
            vat_number: info.vat_number,
        };
    }
    Ok(statement)
}

/// The sections of a period from its sums by (kind, method, count, sum).
pub fn summarise(
    from: String,
    to: String,
    opening_balance_cents: i64,
    totals: &[(String, Option<PaymentMethod>, i64, i64)],
) -> Statement {
    let mut statement = Statement {
        from,
        to,
        opening_balance_cents,
        collected: Vec::new(),
        fees_cents: 0,
        fee_returns_cents: 0,
        refunds_cents: 0,
        reversals_cents: 0,
        disputes_cents: 0,
        payouts: PAYOUT_KINDS
            .iter()
            .map(|kind| StatementKindTotal {
                kind: kind.to_string(),
                amount_cents: 0,
            })
            .collect(),
        other: Vec::new(),
        closing_balance_cents: opening_balance_cents,
        lines: Vec::new(),
        lines_total: 0,
        next_offset: None,
        business: StatementBusiness::default(),
    };
    for (kind, method, count, sum) in totals {
        statement.closing_balance_cents += sum;
        statement.lines_total += u32::try_from(*count).unwrap_or(0);
        let section = match (kind.as_str(), method) {
            (k, Some(method)) if k == EntryKind::Collection.as_str() => {
                match statement.collected.iter_mut().find(|c| c.method == *method) {
                    Some(total) => {
                        total.count += u32::try_from(*count).unwrap_or(0);
                        total.amount_cents += sum;
                    }
                    None => statement.collected.push(StatementMethodTotal {
                        method: *method,
                        count: u32::try_from(*count).unwrap_or(0),
                        amount_cents: *sum,
                    }),
                }
                continue;
            }
            (k, _) if k == EntryKind::Fee.as_str() => &mut statement.fees_cents,
            (k, _)
                if k == EntryKind::FeeReturn.as_str()
                    || k == EntryKind::RefundFeeReturn.as_str() =>
            {
                &mut statement.fee_returns_cents
            }
            (k, _) if k == EntryKind::Refund.as_str() => &mut statement.refunds_cents,
            (k, _) if k == EntryKind::LateUnpaid.as_str() => &mut statement.reversals_cents,
            (k, _) if k == EntryKind::Dispute.as_str() => &mut statement.disputes_cents,
            (k, _) => {
                let list = if PAYOUT_KINDS.contains(&k) {
                    &mut statement.payouts
                } else {
                    &mut statement.other
                };
                match list.iter_mut().find(|t| t.kind == k) {
                    Some(total) => total.amount_cents += sum,
                    None => list.push(StatementKindTotal {
                        kind: k.to_string(),
                        amount_cents: *sum,
                    }),
                }
                continue;
            }
        };
        *section += sum;
    }
    statement
}

pub async fn get_statement(
    db: &Db,
    scope: &Scope,
    from: &str,
    to: &str,
    offset: u32,
) -> AppResult<ReplyBody> {
    let statement = statement(db, scope, from, to, offset, Some(LINES_PER_REPLY)).await?;
    Ok(ReplyBody::Statement {
        statement: Box::new(statement),
    })
}

/// The whole statement as a file, piece by piece (the file is made again
/// for each piece, like every download: the ledger of a closed period does
/// not change, and entries are only ever added).
pub async fn download(
    db: &Db,
    scope: &Scope,
    (from, to): (&str, &str),
    format: StatementFormat,
    language: Language,
    offset: u32,
) -> AppResult<ReplyBody> {
    let statement = statement(db, scope, from, to, 0, None).await?;
    let (bytes, extension, content_type) = match format {
        StatementFormat::Csv => (
            statement_files::csv(&statement, language)?,
            "csv",
            "text/csv; charset=utf-8",
        ),
        StatementFormat::Xlsx => (
            statement_files::xlsx(&statement, language)?,
            "xlsx",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
    };
    let name = format!(
        "paydesk-statement-{}-{}-{}.{extension}",
        scope.mode.as_str(),
        statement.from,
        statement.to
    );
    Ok(ReplyBody::FileChunk {
        chunk: Box::new(chunk_of(&name, content_type, &bytes, offset)),
    })
}
