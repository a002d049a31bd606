//! Who a use-case runs for and what it returns, and the stream's business
//! date: the helpers every area of the domain shares.

use protocol::{Change, ErrorCode, Mode, Permissions, Role};
use time::Date;

use super::calendar::iso_date;
use super::clock::BusinessClock;
use crate::error::{AppError, AppResult};
use crate::ids::is_well_formed_id;
use crate::store::Tx;
use crate::store::clocks::{self, ClockRow};

/// Who runs a command or query, and against which merchant stream.
#[derive(Clone, Debug)]
pub struct Scope {
    pub merchant_id: String,
    pub mode: Mode,
    pub user_id: String,
    pub role: Role,
    /// What the role grants, section by section (`permissions`).
    pub permissions: Permissions,
    /// The calendar the stream's business dates come from.
    pub clock: BusinessClock,
    /// This server's public origin (`https://host`), for links in mail.
    pub origin: String,
}

impl Scope {
    pub fn grant(&self) -> super::permissions::Grant {
        super::permissions::Grant {
            role: self.role,
            permissions: self.permissions,
        }
    }
}

/// What a committed command changed, for the delta and the reply.
pub struct Effect {
    pub changes: Vec<Change>,
    /// The record the command created or changed.
    pub id: Option<String>,
}

/// A record id sent by a client. One that cannot be ours is simply not found.
pub(crate) fn checked_id(id: &str) -> AppResult<&str> {
    if is_well_formed_id(id) {
        Ok(id)
    } else {
        Err(AppError::Code(ErrorCode::NotFound))
    }
}

/// The stream's business date: the calendar's, plus the test clock's offset.
pub async fn stream_today(tx: &mut Tx, scope: &Scope) -> AppResult<Date> {
    let offset = clocks::read_clock(&mut **tx, &scope.merchant_id, scope.mode)
        .await?
        .map_or(0, |c| c.offset_days);
    Ok(scope.clock.today(scope.mode, offset))
}

/// Now by the stream's clock, for the times a business record is stamped
/// with (created, changed, paid, when in the history): the test clock's
/// days count in test mode (`store::clocks::on_stream_clock`). Times that
/// guard access (sessions, tokens, links, invites) stay on the wall clock.
pub async fn stream_now_ms<'e, E>(executor: E, scope: &Scope) -> AppResult<i64>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    clocks::stream_now_ms(executor, &scope.merchant_id, scope.mode).await
}

/// The clock row of a stream, made on first use: nothing before today is
/// played out.
pub async fn clock_row(tx: &mut Tx, scope: &Scope, clock: BusinessClock) -> AppResult<ClockRow> {
    if let Some(row) = clocks::read_clock(&mut **tx, &scope.merchant_id, scope.mode).await? {
        return Ok(row);
    }
    let row = ClockRow {
        offset_days: 0,
        processed_through: iso_date(clock.today(scope.mode, 0)),
    };
    clocks::write_clock(tx, &scope.merchant_id, scope.mode, &row).await?;
    Ok(row)
}
