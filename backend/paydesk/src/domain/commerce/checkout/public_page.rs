//! The page a payer opens: read with its merchant and clock, through a
//! short-lived process-wide cache for the form's GET.

use std::sync::OnceLock;
use std::time::Duration;

use moka::sync::Cache;
use protocol::PayPage;
use time::Date;

use super::super::super::calendar::iso_date;
use super::super::super::clock::BusinessClock;
use crate::error::AppResult;
use crate::ids::now_ms;
use crate::store::Db;
use crate::store::clocks::on_stream_clock;
use crate::store::pay_pages::{self, PublicRow, StoredPage};

/// Whether a page takes payments now. Inactive pages are not found at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageState {
    Open,
    Expired,
    UsedUp,
}

/// A page as a payer sees it.
pub struct PublicPage {
    pub merchant_id: String,
    pub merchant_name: String,
    pub page: PayPage,
    pub state: PageState,
    /// The merchant stream's business date.
    pub today: Date,
    /// The stream's now in milliseconds (the test clock's in test mode),
    /// which a 3-D Secure or bank step expires by.
    pub now_ms: i64,
}

pub(super) fn state_of(page: &PayPage, today: Date) -> PageState {
    let expired = page
        .expires_on
        .as_deref()
        .is_some_and(|day| day < iso_date(today).as_str());
    if expired {
        PageState::Expired
    } else if page.max_uses.is_some_and(|max| page.uses >= max) {
        PageState::UsedUp
    } else {
        PageState::Open
    }
}

/// The page for `/pay/{id}`; none when unknown, or deactivated unless
/// `even_inactive` (a payer's outcome page stays readable).
pub async fn open_page(
    db: &Db,
    clock: BusinessClock,
    page_id: &str,
    even_inactive: bool,
) -> AppResult<Option<PublicPage>> {
    if !crate::ids::is_well_formed_id(page_id) {
        return Ok(None);
    }
    // The page, its merchant's name and its clock in one statement.
    let row = pay_pages::find_public(&db.pool, page_id).await?;
    Ok(row.and_then(|row| public_page(row, clock, even_inactive)))
}

fn public_page(row: PublicRow, clock: BusinessClock, even_inactive: bool) -> Option<PublicPage> {
    let PublicRow {
        stored: StoredPage { merchant_id, page },
        merchant_name,
        offset_days,
    } = row;
    if !page.active && !even_inactive {
        return None;
    }
    let today = clock.today(page.mode, offset_days);
    Some(PublicPage {
        merchant_name,
        state: state_of(&page, today),
        now_ms: on_stream_clock(page.mode, offset_days, now_ms()),
        merchant_id,
        page,
        today,
    })
}

/// How long a page read for a payer's first GET is reused. Every payer of a
/// shared link asks for the same row. A merchant's change on this node drops
/// the page at once; on another node it shows within this time. A submit
/// always reads the page afresh inside its transaction, so nothing is sold
/// on a stale read.
const PUBLIC_PAGE_TTL: Duration = Duration::from_secs(2);

/// Pages (and unknown ids) read lately, by id, for the whole process.
fn public_pages() -> &'static Cache<String, Option<PublicRow>> {
    static PAGES: OnceLock<Cache<String, Option<PublicRow>>> = OnceLock::new();
    PAGES.get_or_init(|| {
        Cache::builder()
            .max_capacity(10_000)
            .time_to_live(PUBLIC_PAGE_TTL)
            .build()
    })
}

/// Called by the merchant's commands on a page: the next GET reads it anew.
pub fn forget_public_page(page_id: &str) {
    public_pages().invalidate(page_id);
}

/// [`open_page`] for the form's GET, through the short-lived cache.
pub async fn open_page_cached(
    db: &Db,
    clock: BusinessClock,
    page_id: &str,
) -> AppResult<Option<PublicPage>> {
    if !crate::ids::is_well_formed_id(page_id) {
        return Ok(None);
    }
    let row = match public_pages().get(page_id) {
        Some(row) => row,
        None => {
            let row = pay_pages::find_public(&db.pool, page_id).await?;
            public_pages().insert(page_id.to_string(), row.clone());
            row
        }
    };
    Ok(row.and_then(|row| public_page(row, clock, false)))
}
