//! A presented API token, checked with its address's throttle: an address
//! that sent too many tokens that did not open anything is answered
//! `Throttled` for tokens not yet seen to work from there, without their
//! being looked up, so guessing is slowed to the limit while a token in use
//! from that address carries on at full speed.

use std::time::{Duration, Instant};

use crate::state::State;
use paydesk::domain::api_tokens::authenticate::{Refusal, TokenAccess, authenticate};
use paydesk::error::AppError;
use paydesk::ids::now_ms;

pub enum TokenCheck {
    Opened(TokenAccess),
    /// Too many failures from this address: wait this long.
    Throttled(Duration),
    Refused(Refusal),
    Failed(AppError),
}

/// Checks `secret` from `client`; `place` names where, for the log.
pub async fn check_token(state: &State, secret: &str, client: &str, place: &str) -> TokenCheck {
    let per_minute = state.config.api_token_failures_per_minute;
    let guards = &state.api;
    if let Some(wait) = guards.failures_exhausted(client, per_minute, Instant::now())
        && !guards.trusted(client, secret)
    {
        crate::metrics::api_refusal("throttled");
        return TokenCheck::Throttled(wait);
    }
    match authenticate(&state.db, &state.keys.api_tokens, secret, client, now_ms()).await {
        Ok(Ok(access)) => {
            guards.trust(client, secret);
            TokenCheck::Opened(access)
        }
        Ok(Err(refusal)) => {
            // Why, and from where; never the secret.
            tracing::warn!(target: "security", address = %client, reason = refusal.as_str(), place, "API token refused");
            crate::metrics::api_refusal(match refusal {
                Refusal::Unknown => "unknown",
                Refusal::Revoked => "revoked",
                Refusal::Expired => "expired",
                Refusal::AddressNotAllowed => "address_not_allowed",
            });
            if guards.count_failure(client, per_minute, Instant::now()) {
                tracing::warn!(
                    target: "security",
                    address = %client,
                    place,
                    per_minute,
                    "API token authentications throttled: too many failed tokens from this address"
                );
            }
            TokenCheck::Refused(refusal)
        }
        Err(err) => TokenCheck::Failed(err),
    }
}
