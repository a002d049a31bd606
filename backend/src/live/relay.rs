//! Scale-out: on PostgreSQL every committed delta is announced with NOTIFY,
//! and each node relays it to the merchant actor it runs for that stream (if
//! any), which replays the new events from the table to its own sockets.

use std::time::Duration;

use paydesk::store::stream::{NOTIFY_CHANNEL, parse_announcement};

use super::registry::MerchantRegistry;

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
        if let Err(err) = listener.listen(NOTIFY_CHANNEL).await {
            tracing::error!(error = %err, "delta relay cannot listen; retrying");
            tokio::time::sleep(RETRY).await;
            continue;
        }
        loop {
            match listener.recv().await {
                Ok(notification) => {
                    if let Some((key, seq)) = parse_announcement(notification.payload()) {
                        registry.advance(&key, seq);
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
