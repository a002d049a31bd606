//! Electronic mandate requests, payer side: what the payer's link finds,
//! and the event of the payer first opening it (the merchant's list shows
//! "opened" live). The payer is recorded as the cause, by the request's id.

use protocol::{Change, EMandateRequest, EMandateState};

use super::clock::BusinessClock;
use super::e_mandates::state_on;
use super::lifecycle::e_mandate_request::{self as requests, RequestEvent};
use crate::error::AppResult;
use crate::store::e_mandates as store;
use crate::store::stream::{self, Actor, Cause, StreamKey, Work, Written};
use crate::store::{Db, Tx, clocks};

/// A request as its payer sees it.
pub struct PayerRequest {
    pub merchant_id: String,
    pub merchant_name: String,
    pub request: EMandateRequest,
}

impl PayerRequest {
    pub fn stream(&self) -> StreamKey {
        StreamKey {
            merchant_id: self.merchant_id.clone(),
            mode: self.request.mode,
        }
    }
}

/// Finds the request behind a link and, the first time its payer opens it,
/// records it opened. None for a token that names no request.
pub async fn open(
    db: &Db,
    clock: BusinessClock,
    token: &str,
    address: Option<String>,
) -> AppResult<Option<Written<PayerRequest>>> {
    let Some(found) = store::find_by_token(&db.pool, token).await? else {
        return Ok(None);
    };
    let offset = clocks::read_clock(&db.pool, &found.merchant_id, found.request.mode)
        .await?
        .map_or(0, |c| c.offset_days);
    let today = clock.today(found.request.mode, offset);
    let mut request = found.request;
    request.state = state_on(&request, today);
    let merchant_name = merchant_name(db, &found.merchant_id).await?;
    let seen = PayerRequest {
        merchant_id: found.merchant_id,
        merchant_name,
        request,
    };
    if seen.request.state != EMandateState::Sent {
        return Ok(Some(Written {
            seq: None,
            changes: Vec::new(),
            value: seen,
        }));
    }
    let cause = Cause {
        actor: Actor::Payer {
            page_id: seen.request.id.clone(),
        },
        command_id: None,
        address,
    };
    let key = seen.stream();
    let written = stream::write(db, &key, &cause, async |tx: &mut Tx, _seq| {
        // Two tabs of the payer may open it at once, or the merchant cancel
        // it meanwhile: only a request still sent becomes opened.
        let fresh = store::find_request(&mut **tx, &key.merchant_id, key.mode, &seen.request.id)
            .await?
            .map(|f| f.request);
        let Some(mut fresh) = fresh else {
            return Ok(Work::Unchanged(None));
        };
        let Ok(opened) = requests::apply(fresh.state, RequestEvent::Open) else {
            return Ok(Work::Unchanged(None));
        };
        fresh.state = opened;
        fresh.updated_at =
            crate::store::clocks::stream_now_ms(&mut **tx, &key.merchant_id, key.mode).await?;
        store::update_request(tx, &key.merchant_id, &fresh).await?;
        let changes = vec![Change::EMandateRequestUpserted {
            request: Box::new(fresh.clone()),
        }];
        Ok(Work::changed(changes, Some(fresh)))
    })
    .await?;
    let mut seen = seen;
    match written.value {
        Some(opened) => seen.request = opened,
        // Someone else's write came first: the request as it is now.
        None => {
            if let Some(now) =
                store::find_request(&db.pool, &key.merchant_id, key.mode, &seen.request.id).await?
            {
                seen.request = now.request;
                seen.request.state = state_on(&seen.request, today);
            }
        }
    }
    Ok(Some(Written {
        seq: written.seq,
        changes: written.changes,
        value: seen,
    }))
}

async fn merchant_name(db: &Db, merchant_id: &str) -> AppResult<String> {
    use sqlx::Row;
    let row = sqlx::query("SELECT name FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| r.get("name")).unwrap_or_default())
}
