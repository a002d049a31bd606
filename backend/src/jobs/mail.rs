//! Delivers the mail outbox: over SMTP when `SMTP_URL` is set, otherwise as
//! `.eml` files in the mail folder (for development and tests). Failed
//! deliveries are retried with growing delays. Once a message is sent or
//! abandoned its bodies (and the links in them) leave the outbox.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use paydesk::ids::now_ms;
use paydesk::store::Db;
use paydesk::store::mail::{self as outbox, QueuedMail};

/// How often the outbox is looked at.
const POLL: Duration = Duration::from_millis(500);
/// A claimed message is not taken again by another worker for this long.
const LEASE_MS: i64 = 5 * 60 * 1000;
/// After this many failures a message is abandoned: its row, without the
/// bodies, is left for an engineer to look at.
const MAX_ATTEMPTS: i64 = 10;

#[derive(Clone)]
pub struct MailSettings {
    pub database_url: String,
    pub mail_dir: PathBuf,
    pub smtp_url: Option<String>,
    pub from: String,
}

enum Transport {
    Files(AsyncFileTransport<Tokio1Executor>),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

impl Transport {
    fn new(settings: &MailSettings) -> Result<Transport, String> {
        match &settings.smtp_url {
            Some(url) => AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                .map(|builder| Transport::Smtp(builder.build()))
                .map_err(|e| format!("SMTP_URL: {e}")),
            None => {
                std::fs::create_dir_all(&settings.mail_dir)
                    .map_err(|e| format!("MAIL_DIR {:?}: {e}", settings.mail_dir))?;
                Ok(Transport::Files(AsyncFileTransport::<Tokio1Executor>::new(
                    &settings.mail_dir,
                )))
            }
        }
    }

    async fn send(&self, message: Message) -> Result<(), String> {
        match self {
            Transport::Files(files) => files
                .send(message)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Transport::Smtp(smtp) => smtp
                .send(message)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string()),
        }
    }
}

fn build_message(from: &str, queued: &QueuedMail) -> Result<Message, String> {
    let from: Mailbox = from.parse().map_err(|e| format!("MAIL_FROM: {e}"))?;
    let to: Mailbox = queued
        .mail
        .to
        .parse()
        .map_err(|e| format!("recipient: {e}"))?;
    Message::builder()
        .from(from)
        .to(to)
        .subject(&queued.mail.subject)
        .multipart(MultiPart::alternative_plain_html(
            queued.mail.text.clone(),
            queued.mail.html.clone(),
        ))
        .map_err(|e| e.to_string())
}

/// Runs until the server stops.
pub async fn deliver_forever(settings: MailSettings) {
    let db = match Db::connect(&settings.database_url).await {
        Ok(db) => db,
        Err(err) => return tracing::error!(error = %err, "mail worker cannot reach the database"),
    };
    let transport = match Transport::new(&settings) {
        Ok(transport) => transport,
        Err(err) => return tracing::error!(error = %err, "mail worker cannot start"),
    };
    loop {
        match outbox::claim_due(&db, 20, LEASE_MS).await {
            Ok(batch) => {
                for queued in batch {
                    deliver(&db, &transport, &settings.from, &queued).await;
                }
            }
            Err(err) => tracing::error!(error = %err, "cannot read the mail outbox"),
        }
        tokio::time::sleep(POLL).await;
    }
}

async fn deliver(db: &Db, transport: &Transport, from: &str, queued: &QueuedMail) {
    let sent = match build_message(from, queued) {
        Ok(message) => transport.send(message).await,
        Err(err) => Err(err),
    };
    let recorded = match sent {
        Ok(()) => outbox::mark_sent(db, &queued.id).await,
        Err(err) => {
            // The address is not logged: the message id is enough to find it.
            tracing::warn!(mail = %queued.id, attempt = queued.attempts + 1, error = %err, "mail delivery failed");
            if queued.attempts + 1 >= MAX_ATTEMPTS {
                outbox::abandon(db, &queued.id, &err).await
            } else {
                let retry_at = now_ms() + 30_000 * (1 << queued.attempts.min(7));
                outbox::mark_failed(db, &queued.id, &err, retry_at).await
            }
        }
    };
    if let Err(err) = recorded {
        tracing::error!(error = %err, mail = %queued.id, "cannot record a delivery");
    }
}
