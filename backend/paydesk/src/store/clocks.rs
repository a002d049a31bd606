//! Each merchant stream's business clock: the last day the scheduler played
//! out and, in test mode, how far the merchant moved the clock ahead.

use protocol::Mode;
use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppResult;
use crate::ids::now_ms;

const DAY_MS: i64 = 86_400_000;

/// A stream's now, in milliseconds, from the wall clock: in test mode moved
/// on by the test clock's offset, so a test record made after a month of
/// play is stamped a month on, as its debits are; live mode is the wall
/// clock.
pub fn on_stream_clock(mode: Mode, offset_days: i64, wall_ms: i64) -> i64 {
    match mode {
        Mode::Live => wall_ms,
        Mode::Test => wall_ms.saturating_add(offset_days.saturating_mul(DAY_MS)),
    }
}

/// Now by a stream's clock (`on_stream_clock`). Live mode reads nothing.
pub async fn stream_now_ms<'e, E>(executor: E, merchant_id: &str, mode: Mode) -> AppResult<i64>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let ahead = stream_clock_ahead_ms(executor, merchant_id, mode).await?;
    Ok(now_ms().saturating_add(ahead))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockRow {
    pub offset_days: i64,
    pub processed_through: String,
}

pub async fn read_clock<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Option<ClockRow>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT offset_days, processed_through FROM business_clocks WHERE merchant_id = $1 AND mode = $2",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .fetch_optional(executor)
    .await?;
    Ok(row.map(|r| ClockRow {
        offset_days: r.get("offset_days"),
        processed_through: r.get("processed_through"),
    }))
}

pub async fn write_clock(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    clock: &ClockRow,
) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO business_clocks (merchant_id, mode, offset_days, processed_through) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (merchant_id, mode) DO UPDATE SET offset_days = $3, processed_through = $4",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(clock.offset_days)
    .bind(&clock.processed_through)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// How far a stream's clock runs ahead of the wall clock, in milliseconds:
/// the test clock's days, 0 in live mode.
pub async fn stream_clock_ahead_ms<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<i64>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let offset = match mode {
        Mode::Live => 0,
        Mode::Test => read_clock(executor, merchant_id, mode)
            .await?
            .map_or(0, |c| c.offset_days),
    };
    Ok(on_stream_clock(mode, offset, 0))
}

/// Streams with collections in play, for the background scheduler.
pub async fn streams_with_collections(db: &Db) -> AppResult<Vec<(String, Mode)>> {
    let rows = sqlx::query(
        "SELECT DISTINCT merchant_id, mode FROM payments WHERE status IN ('pending', 'running', 'paused') \
         UNION SELECT DISTINCT merchant_id, mode FROM transactions WHERE script <> '' \
         AND status NOT IN ('cancelled', 'rejected_by_bank', 'unpaid', 'reversed') \
         UNION SELECT DISTINCT merchant_id, mode FROM mandates WHERE status IN ('pending_authentication', 'active', 'suspended') \
         UNION SELECT DISTINCT merchant_id, mode FROM cards WHERE schedule_status = 'active' \
         UNION SELECT DISTINCT merchant_id, mode FROM e_mandate_signings WHERE state = 'authenticating' \
         UNION SELECT DISTINCT merchant_id, mode FROM pay_attempts WHERE status IN ('awaiting_3ds', 'awaiting_bank')",
    )
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .filter_map(|r| {
            let mode: String = r.get("mode");
            Mode::parse(&mode).map(|mode| (r.get("merchant_id"), mode))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_clocks_days_age_the_streams_now() {
        let wall = 1_772_000_000_000;
        assert_eq!(on_stream_clock(Mode::Live, 3, wall), wall);
        assert_eq!(on_stream_clock(Mode::Test, 0, wall), wall);
        assert_eq!(on_stream_clock(Mode::Test, 1, wall), wall + DAY_MS);
        assert_eq!(on_stream_clock(Mode::Test, i64::MAX, wall), i64::MAX);
    }
}
