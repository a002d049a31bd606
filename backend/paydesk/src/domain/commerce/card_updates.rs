//! The payer's side of a card schedule: the link mailed to them opens a
//! page to give a new card. The card is checked and exchanged for a token
//! here (the number and CVV go no further, as on the pay page); the link is
//! used up in the same event that replaces the card, so a second submit
//! changes nothing, and a paused schedule resumes: its charge is made on
//! the scheduler's next step.

use protocol::{Card, CardScheduleStatus, Change, ErrorCode, Language, Mode, PayFailure};
use sqlx::Row;
use time::Date;

use super::acquirer::{self, check_card, tokenise};
use crate::domain::clock::BusinessClock;
use crate::error::AppResult;
use crate::ids::{hash_secret, now_ms};
use crate::store::stream::{self, Actor, Cause, StreamKey, Work, Written};
use crate::store::{Db, Tx, cards as store, clocks};

/// An unused, unexpired link and the card it replaces.
pub struct UpdateLink {
    pub merchant_id: String,
    pub mode: Mode,
    pub merchant_name: String,
    pub card: Card,
    /// The language the payer paid in: the page's until they pick another.
    pub language: Language,
    pub today: Date,
}

impl UpdateLink {
    pub fn stream(&self) -> StreamKey {
        StreamKey::new(self.merchant_id.clone(), self.mode)
    }
}

/// What became of a submitted card.
pub enum Updated {
    /// The form has mistakes, named by field; nothing was written.
    Invalid(Vec<(&'static str, ErrorCode)>),
    /// The issuer refused the new card; the link still works.
    Refused(PayFailure),
    /// The card was replaced (and its schedule resumed if it was paused).
    Replaced(Box<Card>),
    /// The link was used meanwhile (a double submit) or has expired.
    Gone,
}

/// Tokens are URL-safe base64 of 32 bytes; anything else finds nothing.
pub fn well_formed(token: &str) -> bool {
    token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub async fn open_link(
    db: &Db,
    clock: BusinessClock,
    token: &str,
) -> AppResult<Option<UpdateLink>> {
    if !well_formed(token) {
        return Ok(None);
    }
    let Some((merchant_id, mode, card_id)) =
        store::find_update_link(&db.pool, &hash_secret(token), now_ms()).await?
    else {
        return Ok(None);
    };
    let Some(stored) = store::find_card(&db.pool, &merchant_id, mode, &card_id).await? else {
        return Ok(None);
    };
    let offset = clocks::read_clock(&db.pool, &merchant_id, mode)
        .await?
        .map_or(0, |c| c.offset_days);
    let merchant_name = sqlx::query("SELECT name FROM merchants WHERE id = $1")
        .bind(&merchant_id)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| r.get("name"))
        .unwrap_or_default();
    Ok(Some(UpdateLink {
        merchant_id,
        mode,
        merchant_name,
        language: stored.payer.language,
        card: stored.card,
        today: clock.today(mode, offset),
    }))
}

/// Checks the payer's new card and, when the issuer accepts it, puts it in
/// place of the old one. Only what the pay page keeps is kept.
pub async fn replace_card(
    db: &Db,
    link: &UpdateLink,
    token: &str,
    (number, expiry, cvv): (&str, &str, &str),
    address: Option<String>,
) -> AppResult<Written<Updated>> {
    let nothing = |value| {
        Ok(Written {
            seq: None,
            changes: Vec::new(),
            value,
        })
    };
    let details = match check_card(number, expiry, cvv, (link.today, link.mode)) {
        Ok(details) => details,
        Err(errors) => return nothing(Updated::Invalid(errors)),
    };
    let (tokenised, behaviour) = tokenise(details);
    // The new card is verified with the card holder present (no amount is
    // charged); a challenge counts as answered on this page.
    if let Some(Err(failure)) = acquirer::outcome(behaviour) {
        return nothing(Updated::Refused(failure));
    }
    let cause = Cause {
        actor: Actor::Payer {
            page_id: link.card.id.clone(),
        },
        command_id: None,
        address,
    };
    let hash = hash_secret(token);
    stream::write(db, &link.stream(), &cause, async |tx: &mut Tx, _seq| {
        let (merchant_id, mode) = (link.merchant_id.as_str(), link.mode);
        if !store::use_update_link(tx, merchant_id, mode, &hash, now_ms()).await? {
            return Ok(Work::Unchanged(Updated::Gone));
        }
        let Some(mut stored) =
            store::find_card(&mut **tx, merchant_id, mode, &link.card.id).await?
        else {
            return Ok(Work::Unchanged(Updated::Gone));
        };
        stored.token = tokenised.token.clone();
        stored.card.brand = tokenised.brand;
        stored.card.last_four = tokenised.last_four.clone();
        stored.card.expiry_month = tokenised.expiry_month;
        stored.card.expiry_year = tokenised.expiry_year;
        stored.payer.expiry_reminder_sent = false;
        if let Some(schedule) = stored.card.schedule.as_mut()
            && schedule.status == CardScheduleStatus::Paused
        {
            schedule.status = CardScheduleStatus::Active;
            schedule.failed_tries = 0;
            schedule.retry_date = None;
            schedule.pause_reason = None;
        }
        store::save_card(tx, merchant_id, &stored).await?;
        let card = stored.card;
        Ok(Work::changed(
            vec![Change::CardUpserted {
                card: Box::new(card.clone()),
            }],
            Updated::Replaced(Box::new(card)),
        ))
    })
    .await
}
