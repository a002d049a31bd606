//! The mail a card schedule sends, queued in the durable outbox inside the
//! scheduler's transaction: the payer's (reminders, a paused payment) in
//! the language they paid in, each with a fresh single-use link to give a
//! new card, and the owners' notice that a payment paused.

use protocol::{CardPauseReason, Language, PageInterval};

use super::acquirer::brand_name;
use super::receipt::rands;
use crate::domain::Scope;
use crate::domain::calendar::long_date;
use crate::domain::mail::{compose_action, text, words};
use crate::error::AppResult;
use crate::ids::{hash_secret, new_secret, now_ms};
use crate::store::{Tx, cards as store, e_mandates, mail, webhooks};

/// How long a payer's update-card link works.
pub const LINK_DAYS: i64 = 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayerMail {
    /// The first charge of a schedule is a few business days away.
    FirstCharge,
    /// The card expires before the schedule's next charge.
    Expiring,
    /// The tries ran out: the payment is paused until a new card.
    Refused,
    /// The card expired: the payment is paused until a new card.
    Expired,
}

impl PayerMail {
    fn key(self) -> &'static str {
        match self {
            PayerMail::FirstCharge => "card_first_charge",
            PayerMail::Expiring => "card_expiring",
            PayerMail::Refused => "card_refused",
            PayerMail::Expired => "card_expired",
        }
    }
}

/// A new single-use link for the payer to replace `card_id`; only its
/// hash is stored.
pub async fn new_update_link(tx: &mut Tx, scope: &Scope, card_id: &str) -> AppResult<String> {
    let token = new_secret();
    let now = now_ms();
    store::insert_update_link(
        tx,
        &scope.merchant_id,
        scope.mode,
        card_id,
        &hash_secret(&token),
        now + LINK_DAYS * 86_400_000,
        now,
    )
    .await?;
    Ok(format!("{}/card/{token}", scope.origin))
}

fn interval_words(language: Language, interval: PageInterval) -> String {
    let key = match interval {
        PageInterval::Monthly => "monthly",
        PageInterval::Annually => "annually",
    };
    text(&words(language), &["card_intervals", key], &[])
}

/// Mails the payer of a scheduled card, if they gave an address.
pub async fn mail_payer(
    tx: &mut Tx,
    scope: &Scope,
    stored: &store::StoredCard,
    kind: PayerMail,
) -> AppResult<()> {
    let (Some(email), Some(schedule)) = (&stored.payer.email, &stored.card.schedule) else {
        return Ok(());
    };
    let language = stored.payer.language;
    let card = &stored.card;
    let merchant = e_mandates::merchant_name(tx, &scope.merchant_id).await?;
    let link = new_update_link(tx, scope, &card.id).await?;
    let amount = rands(schedule.amount_cents);
    let interval = interval_words(language, schedule.interval);
    let expiry = format!("{:02}/{}", card.expiry_month, card.expiry_year);
    let days = LINK_DAYS.to_string();
    let next_charge = long_date(&schedule.next_charge_date, language);
    let vars = [
        ("name", card.customer_name.as_str()),
        ("merchant", merchant.as_str()),
        ("amount", amount.as_str()),
        ("interval", interval.as_str()),
        ("reference", schedule.reference.as_str()),
        ("brand", brand_name(card.brand)),
        ("last_four", card.last_four.as_str()),
        ("date", next_charge.as_str()),
        ("expiry", expiry.as_str()),
        ("days", days.as_str()),
    ];
    let message = compose_action(kind.key(), language, email, &vars, &link);
    mail::enqueue(tx, &message).await
}

/// Tells each owner that a payment paused, with a link to the cards page.
pub async fn tell_owners(
    tx: &mut Tx,
    scope: &Scope,
    stored: &store::StoredCard,
    reason: CardPauseReason,
) -> AppResult<()> {
    let Some(schedule) = &stored.card.schedule else {
        return Ok(());
    };
    let card = &stored.card;
    let link = format!("{}/cards", scope.origin);
    let amount = rands(schedule.amount_cents);
    let tries = schedule.failed_tries.to_string();
    for owner in webhooks::owner_recipients(tx, &scope.merchant_id).await? {
        let why_key = match reason {
            CardPauseReason::RetriesExhausted => "why_refused",
            CardPauseReason::CardExpired => "why_expired",
        };
        let vars = [
            ("name", owner.name.as_str()),
            ("customer", card.customer_name.as_str()),
            ("amount", amount.as_str()),
            ("reference", schedule.reference.as_str()),
            ("brand", brand_name(card.brand)),
            ("last_four", card.last_four.as_str()),
            ("tries", tries.as_str()),
        ];
        let why = text(
            &words(owner.language),
            &["card_schedule_paused", why_key],
            &vars,
        );
        let mut all = vars.to_vec();
        all.push(("why", why.as_str()));
        let message = compose_action(
            "card_schedule_paused",
            owner.language,
            &owner.email,
            &all,
            &link,
        );
        mail::enqueue(tx, &message).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_mail_has_its_words_in_both_languages() {
        for language in [Language::En, Language::Afr] {
            let w = words(language);
            for key in [
                "card_first_charge",
                "card_expiring",
                "card_refused",
                "card_expired",
                "card_schedule_paused",
            ] {
                for part in ["subject", "intro", "action", "ignore"] {
                    assert!(
                        !text(&w, &[key, part], &[]).is_empty(),
                        "{key}.{part} in {language:?}"
                    );
                }
            }
            for part in ["why_refused", "why_expired"] {
                assert!(!text(&w, &["card_schedule_paused", part], &[]).is_empty());
            }
            assert!(!interval_words(language, PageInterval::Monthly).is_empty());
            assert!(!interval_words(language, PageInterval::Annually).is_empty());
        }
    }
}
