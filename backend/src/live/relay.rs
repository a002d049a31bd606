//! Scale-out: on PostgreSQL every committed delta is announced with NOTIFY,
//! and each node relays it to the merchant actor it runs for that stream (if
//! any), which replays the new events from the table to its own sockets.

use std::time::Duration;

use protocol::Mode;

use super::messages::{Advance, StreamKey};
use super::registry::MerchantRegistry;
use crate::error::AppResult;
use crate::store::Tx;

pub const CHANNEL: &str = "merchant_events";

/// Queued inside the command's transaction; PostgreSQL delivers it on commit.
pub async fn announce(tx: &mut Tx, key: &StreamKey, seq: u64) -> AppResult<()> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(CHANNEL)
        .bind(format!("{}|{}|{}", key.merchant_id, key.mode.as_str(), seq))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn parse(payload: &str) -> Option<(StreamKey, u64)> {
    let mut parts = payload.split('|');
    let merchant_id = parts.next()?.to_string();
    let mode = Mode::parse(parts.next()?)?;
    let seq = parts.next()?.parse().ok()?;
    Some((StreamKey { merchant_id, mode }, seq))
}

/// Listens for announcements for as long as the server runs. The listener
/// reconnects by itself; an announcement lost meanwhile is caught up by the
/// next one for that stream, or by the clients' resume.
pub async fn listen(database_url: &str, registry: &MerchantRegistry) {
    const RETRY: Duration = Duration::from_secs(2);
    loop {
        let mut listener = match sqlx::postgres::PgListener::connect(database_url).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::error!(error = %err, "delta relay cannot connect; retrying");
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        if let Err(err) = listener.listen(CHANNEL).await {
            tracing::error!(error = %err, "delta relay cannot listen; retrying");
            tokio::time::sleep(RETRY).await;
            continue;
        }
        loop {
            match listener.recv().await {
                Ok(notification) => {
                    if let Some((key, seq)) = parse(notification.payload())
                        && let Some(actor) = registry.running(&key)
                    {
                        actor.do_send(Advance { seq });
                    }
                }
                Err(err) => {
                    tracing::warn!(error = %err, "delta relay lost its connection; reconnecting");
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_round_trip() {
        let (key, seq) = parse("mer_1|test|42").unwrap_or_else(|| panic!("parse"));
        assert_eq!(
            key,
            StreamKey {
                merchant_id: "mer_1".into(),
                mode: Mode::Test
            }
        );
        assert_eq!(seq, 42);
        assert!(parse("mer_1|other|1").is_none());
        assert!(parse("mer_1|live").is_none());
    }
}
