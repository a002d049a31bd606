//! Reading debits: the transactions list and detail, and the home
//! dashboard's figures.

use protocol::{Dashboard, ErrorCode, ReplyBody, SortOrder, TransactionFilter, UpcomingCollection};
use time::Date;

use super::calendar::iso_date;
use super::settled::{Outcomes, count_of};
use super::{Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::store::Db;
use crate::store::clocks;
use crate::store::payments::{self as payment_store, Scheduled};
use crate::store::sql::PageRequest;
use crate::store::transactions as store;

/// The regulator's warning levels, in basis points.
pub const UNPAID_THRESHOLD_BP: u32 = 1_000;
pub const DISPUTE_THRESHOLD_BP: u32 = 50;

pub async fn list_transactions(
    db: &Db,
    scope: &Scope,
    filter: &TransactionFilter,
    sort: SortOrder,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let page = PageRequest::new(sort, cursor, limit)?;
    let items = store::list_transactions(db, &scope.merchant_id, scope.mode, filter, &page).await?;
    let (items, next_cursor) = page.finish(items, |t| (t.created_at, t.amount_cents, &t.id));
    Ok(ReplyBody::TransactionPage { items, next_cursor })
}

pub async fn get_transaction(db: &Db, scope: &Scope, transaction_id: &str) -> AppResult<ReplyBody> {
    let id = checked_id(transaction_id)?;
    let record = store::find_transaction(&db.pool, &scope.merchant_id, scope.mode, id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::Transaction {
        transaction: Box::new(record.view),
    })
}

/// What settled in a period, from the store's counts by method and status.
fn tally(rows: &[(String, String, i64, i64)]) -> Outcomes {
    let mut settled = Outcomes::default();
    for (method, status, count, cents) in rows {
        settled.add(method, status, count_of(*count), *cents);
    }
    settled
}

fn month_start(day: Date) -> Date {
    day.replace_day(1).unwrap_or(day)
}

/// How many upcoming debits the home screen lists.
const UPCOMING: u32 = 8;

/// The stream's business date (the test clock's in test mode).
async fn stream_today(db: &Db, scope: &Scope) -> AppResult<Date> {
    let offset = clocks::read_clock(&db.pool, &scope.merchant_id, scope.mode)
        .await?
        .map_or(0, |c| c.offset_days);
    Ok(scope.clock.today(scope.mode, offset))
}

/// The business date for any member, whatever their role.
pub async fn business_date(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    Ok(ReplyBody::BusinessDate {
        today: iso_date(stream_today(db, scope).await?),
    })
}

pub async fn get_dashboard(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let today = stream_today(db, scope).await?;
    let (from, to) = (iso_date(month_start(today)), iso_date(today));
    let month =
        tally(&store::settled_between(db, &scope.merchant_id, scope.mode, &from, &to).await?);
    let day = tally(&store::settled_between(db, &scope.merchant_id, scope.mode, &to, &to).await?);
    let regular = payment_store::upcoming(
        db,
        &scope.merchant_id,
        scope.mode,
        Scheduled::Regular,
        UPCOMING,
    )
    .await?
    .into_iter()
    .filter_map(|p| {
        let action_date = p.next_action_date?;
        Some(UpcomingCollection {
            payment_id: p.id,
            customer_name: p.customer_name,
            method: p.method,
            amount_cents: match p.first_collection_cents {
                Some(first) if p.attempts == 0 => first,
                _ => p.amount_cents,
            },
            action_date,
            representation: false,
        })
    });
    // Unpaid 02s presented again go on days of their own, listed beside.
    let again = payment_store::upcoming(
        db,
        &scope.merchant_id,
        scope.mode,
        Scheduled::Representation,
        UPCOMING,
    )
    .await?
    .into_iter()
    .filter_map(|p| {
        Some(UpcomingCollection {
            payment_id: p.id,
            customer_name: p.customer_name,
            method: p.method,
            amount_cents: p.representation_cents?,
            action_date: p.representation_date?,
            representation: true,
        })
    });
    let mut upcoming: Vec<UpcomingCollection> = regular.chain(again).collect();
    upcoming.sort_by(|a, b| (&a.action_date, &a.payment_id).cmp(&(&b.action_date, &b.payment_id)));
    upcoming.truncate(UPCOMING as usize);
    let scheduled = payment_store::count_upcoming(db, &scope.merchant_id, scope.mode).await?;
    let upcoming_more = scheduled.saturating_sub(upcoming.len() as u32);
    let recent = store::recently_changed(db, &scope.merchant_id, scope.mode, 12).await?;
    Ok(ReplyBody::Dashboard {
        dashboard: Box::new(Dashboard {
            today: to,
            collected_today_cents: day.collected_cents,
            collected_month_cents: month.collected_cents,
            settled_this_month: month.settled(),
            success_rate_bp: month.ratio_bp(month.paid),
            unpaid_ratio_bp: month.ratio_bp(month.unpaid),
            dispute_ratio_bp: month.ratio_bp(month.disputed),
            unpaid_threshold_bp: UNPAID_THRESHOLD_BP,
            dispute_threshold_bp: DISPUTE_THRESHOLD_BP,
            upcoming,
            upcoming_more,
            recent,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_declines_are_not_unpaid_debits() {
        let rows = vec![
            ("debicheck".to_string(), "paid".to_string(), 7, 70_000),
            ("debicheck".to_string(), "unpaid".to_string(), 2, 20_000),
            (
                "eft_debit_order".to_string(),
                "disputed".to_string(),
                1,
                10_000,
            ),
            (
                "debicheck".to_string(),
                "in_tracking".to_string(),
                4,
                40_000,
            ),
            ("card".to_string(), "paid".to_string(), 3, 30_000),
            (
                "card".to_string(),
                "rejected_by_bank".to_string(),
                4,
                40_000,
            ),
        ];
        let settled = tally(&rows);
        assert_eq!(settled.settled(), 10);
        // Paid debits and cards; the disputed debit's money went back.
        assert_eq!(settled.collected_cents, 100_000);
        assert_eq!(settled.ratio_bp(settled.paid), 7_000);
        assert_eq!(settled.ratio_bp(settled.unpaid), 2_000);
        assert_eq!(settled.ratio_bp(settled.disputed), 1_000);
    }
}
