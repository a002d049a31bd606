//! Scale-out: on PostgreSQL every committed delta is announced with NOTIFY,
//! and each node relays it to the merchant actor it runs for that stream (if
//! any), which replays the new events from the table to its own sockets.
//! Presence crosses the same way on its own channel (`cross_node.rs`).

use std::time::Duration;

use paydesk::store::stream::{NOTIFY_CHANNEL, parse_announcement};

use super::cross_node::PRESENCE_CHANNEL;
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
        if let Err(err) = listener
            .listen_all([NOTIFY_CHANNEL, PRESENCE_CHANNEL])
            .await
        {
            tracing::error!(error = %err, "delta relay cannot listen; retrying");
            tokio::time::sleep(RETRY).await;
            continue;
        }
        loop {
            match listener.recv().await {
                Ok(notification) if notification.channel() == PRESENCE_CHANNEL => {
                    registry.remote_presence(notification.payload());
                }
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
