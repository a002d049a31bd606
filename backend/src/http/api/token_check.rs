//! A presented API token, checked with its address's throttle: an address
//! that sent too many tokens that did not open anything is answered
//! `Throttled` for tokens not yet seen to work from there, without their
//! being looked up, so guessing is slowed to the limit while a token in use
//! from that address carries on at full speed. Each node counts an
//! address's failures itself (so a throttled address costs no database
//! work) and in the count all nodes share: whichever reaches the limit
//! first throttles it.

use std::time::{Duration, Instant};

use crate::state::State;
use paydesk::domain::api_tokens::authenticate::{Refusal, TokenAccess, authenticate};
use paydesk::error::AppError;
use paydesk::ids::now_ms;
use paydesk::store::api_token_failures;

/// The window the shared count of an address's failed tokens covers: the
/// limit is per minute.
const FAILURE_WINDOW_MS: i64 = 60_000;

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
            let exhausted_here = guards.count_failure(client, per_minute, Instant::now());
            // The count all nodes share: guessing through several nodes
            // meets the limit once, not once per node.
            let exhausted_everywhere = match api_token_failures::record_failure(
                &state.db,
                client,
                FAILURE_WINDOW_MS,
            )
            .await
            {
                Ok(failures) => {
                    failures >= per_minute && guards.exhaust(client, per_minute, Instant::now())
                }
                Err(err) => {
                    tracing::error!(error = %err, "cannot count a failed API token");
                    false
                }
            };
            if exhausted_here || exhausted_everywhere {
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
