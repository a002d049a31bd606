//! The one writer of a merchant's event stream. Every change to a merchant's
//! data (a command, a scheduler day, an upload, an import batch, a payer on
//! the pay page) is written by `write`: it takes the stream's next `seq`,
//! runs the work, and commits the work together with its event, which
//! records who caused it, and queues its webhook deliveries. History,
//! webhooks, resume and the other nodes all read that event table; nothing
//! else appends to it.

use protocol::{Change, Mode, encode};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::batch::Batch;
use super::group_commit::Ending;
use super::sql::{Bind, Sql};
use super::{Backend, Db, Tx, history, versions, webhooks};
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, now_ms};

/// PostgreSQL channel on which every committed event is announced, so every
/// node relays it to its own sockets.
pub const NOTIFY_CHANNEL: &str = "merchant_events";

/// A merchant's stream: its data of one mode.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StreamKey {
    pub merchant_id: String,
    pub mode: Mode,
}

impl StreamKey {
    pub fn new(merchant_id: impl Into<String>, mode: Mode) -> StreamKey {
        StreamKey {
            merchant_id: merchant_id.into(),
            mode,
        }
    }
}

/// Who caused an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A member of the merchant's team, from one of their signed-in sessions.
    User { user_id: String, session_id: String },
    /// A merchant's server, with one of its API tokens.
    ApiToken { token_id: String },
    /// The collections scheduler playing a business day.
    Scheduler,
    /// A confirmed spreadsheet import writing its rows.
    Import { import_id: String },
    /// A payer on a public pay page.
    Payer { page_id: String },
    /// The webhook delivery job, pausing an endpoint whose deliveries kept
    /// failing.
    WebhookDelivery { endpoint_id: String },
    /// A member's own account (a sign-in, a failed sign-in, a two-factor
    /// change), announced to the tabs of each merchant they belong to.
    Account { user_id: String },
}

impl Actor {
    /// The kind as stored, and the id of who it was.
    fn stored(&self) -> (&'static str, Option<&str>) {
        match self {
            Actor::User { user_id, .. } => ("user", Some(user_id)),
            Actor::ApiToken { token_id } => ("api_token", Some(token_id)),
            Actor::Scheduler => ("scheduler", None),
            Actor::Import { import_id } => ("import", Some(import_id)),
            Actor::Payer { page_id } => ("payer", Some(page_id)),
            Actor::WebhookDelivery { endpoint_id } => ("webhooks", Some(endpoint_id)),
            Actor::Account { user_id } => ("user", Some(user_id)),
        }
    }

    fn session_id(&self) -> Option<&str> {
        match self {
            Actor::User { session_id, .. } => Some(session_id),
            _ => None,
        }
    }
}

/// Who caused an event, with what they sent and from where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    pub actor: Actor,
    /// The client-made id of the command, when a command caused it.
    pub command_id: Option<String>,
    /// The client's network address, for people and tokens.
    pub address: Option<String>,
}

impl Cause {
    /// Background work with no one at a keyboard behind it.
    pub fn background(actor: Actor) -> Cause {
        Cause {
            actor,
            command_id: None,
            address: None,
        }
    }
}

/// What a piece of work did inside the stream's transaction.
pub enum Work<T> {
    /// Commit the work as the stream's next event with these changes (which
    /// may be empty when the work wrote something no tab shows, such as a
    /// test clock moved ahead). `rows` are statements whose results the
    /// work does not read back: they join the event's own batch.
    Changed {
        changes: Vec<Change>,
        value: T,
        rows: Vec<Sql>,
    },
    /// Nothing happened: the transaction is rolled back and the `seq` given
    /// back, so no empty event is stored.
    Unchanged(T),
}

impl<T> Work<T> {
    pub fn changed(changes: Vec<Change>, value: T) -> Work<T> {
        Work::Changed {
            changes,
            value,
            rows: Vec::new(),
        }
    }

    /// Also writes `row` with the event, in the same round trip to the
    /// database as the event itself (`batch.rs`). A row that fails to
    /// write fails the whole write.
    pub fn writing(mut self, row: Sql) -> Work<T> {
        if let Work::Changed { rows, .. } = &mut self {
            rows.push(row);
        }
        self
    }
}

/// What `write` committed.
pub struct Written<T> {
    /// The event's `seq`; none when the work changed nothing.
    pub seq: Option<u64>,
    pub changes: Vec<Change>,
    pub value: T,
}

impl<T> Written<T> {
    /// The delta to publish: the event's `seq` with its changes.
    pub fn delta(&self) -> Option<(u64, Vec<Change>)> {
        self.seq.map(|seq| (seq, self.changes.clone()))
    }
}

/// Runs `work` as the stream's next event: takes the next `seq` (whose row
/// lock orders every write of the stream, across nodes too), runs the work,
/// and then either undoes it (the work failed or changed nothing: the `seq`
/// is given back) or appends the event with its cause, queues its webhook
/// deliveries and the NOTIFY for the other nodes, and commits. It answers
/// only once the event is committed. The caller publishes.
///
/// On SQLite the write joins a group (`group_commit.rs`): writes that arrive
/// together share one transaction, each under its own savepoint, so one that
/// fails or changes nothing is rolled back alone. On PostgreSQL each write is
/// a transaction of its own, and writes of different merchants commit in
/// parallel.
pub async fn write<T>(
    db: &Db,
    key: &StreamKey,
    cause: &Cause,
    work: impl AsyncFnOnce(&mut Tx, u64) -> AppResult<Work<T>>,
) -> AppResult<Written<T>> {
    let check = Check {
        query: None,
        decide: |_: &[AnyRow]| Ok(()),
    };
    write_checked(db, key, cause, check, async |tx, seq, ()| {
        work(tx, seq).await
    })
    .await
}

/// A read a write's work depends on (the sender's grant, say): a statement,
/// and what its rows decide: the work's input, or why the write is refused.
pub struct Check<D> {
    pub query: Option<Sql>,
    pub decide: D,
}

/// `write`, after `check` passed; its answer is the work's input. A refused
/// check writes nothing.
pub async fn write_checked<C, T>(
    db: &Db,
    key: &StreamKey,
    cause: &Cause,
    check: Check<impl FnOnce(&[AnyRow]) -> AppResult<C>>,
    work: impl AsyncFnOnce(&mut Tx, u64, C) -> AppResult<Work<T>>,
) -> AppResult<Written<T>> {
    let Check { query, decide } = check;
    if let Some(group) = db.group_commit()? {
        // What every write reads (`Known`) and the check's statement run in
        // the round trip that opens the write's turn, in the group's
        // transaction, before its `seq` is taken: the endpoints are those of
        // the stream's `seq - 1`, as `EndpointsAt` expects, and the check
        // sees every write before this one. The stream has a row: the write
        // took its `seq` from it, or made it with its first. A refused check rolls back to its
        // savepoint, `seq` and all.
        let mut reads = known_query(key, &cause.actor);
        if let Some(query) = query {
            reads.then(query);
        }
        let mut member = group.join(key, reads).await?;
        let seq = member.seq();
        let (known_rows, check_rows): (Vec<AnyRow>, Vec<AnyRow>) = member
            .take_read()
            .into_iter()
            .partition(|row| row.try_column(KNOWN_SEQ).is_ok());
        // A stream's first write finds no row to read: `take_seq` made it.
        let read = known_of(&known_rows, &cause.actor)
            .map(|known| known.unwrap_or_else(|| first_write_known(&cause.actor)))
            .and_then(|known| Ok((known, decide(&check_rows)?)));
        let ran = match (member.tx(), read) {
            (Ok(tx), Ok((known, checked))) => {
                let work = async |tx: &mut Tx, seq| work(tx, seq, checked).await;
                run(tx, key, seq, (cause, known), work).await
            }
            (Err(err), _) | (_, Err(err)) => Err(err),
        };
        let (ending, ran) = match ran {
            // Its rows run with the writer's next round trip.
            Ok((written, rows)) if written.seq.is_some() => {
                (Ending::Keep(rows.into_one()), Ok(written))
            }
            Ok((written, _)) => (Ending::RollBack, Ok(written)),
            Err(err) => (Ending::RollBack, Err(err)),
        };
        // Even a write that failed answers after its group's commit: what it
        // read may have been another member's write, not yet durable.
        let committed = member.finish(ending).await;
        let written = ran?;
        committed?;
        return Ok(written);
    }
    // Read before the stream's turn, on the pool: the stream's writes wait
    // for nothing they need not.
    let check_rows = async {
        match &query {
            Some(query) => Ok(query.query().fetch_all(&db.pool).await?),
            None => Ok::<_, AppError>(Vec::new()),
        }
    };
    let (known, check_rows) = tokio::try_join!(read_known(db, key, &cause.actor), check_rows)?;
    let checked = decide(&check_rows)?;
    let work = async |tx: &mut Tx, seq| work(tx, seq, checked).await;
    let mut tx = db.begin_write().await?;
    // An error drops `tx`, which rolls it back.
    let seq = take_next_seq(&mut tx, key).await?;
    let (written, rows) = run(&mut tx, key, seq, (cause, known), work).await?;
    if written.seq.is_some() {
        rows.run(&mut tx, db.backend).await?;
        if db.backend == Backend::Postgres {
            announce(&mut tx, key, seq).await?;
        }
        tx.commit().await?;
    } else {
        tx.rollback().await?;
    }
    Ok(written)
}

/// What a write reads before its work: who caused it, and the stream's
/// webhook endpoints as they were.
type Known = (history::Who, Option<webhooks::EndpointsAt>);

/// The column only `known_query`'s rows have, among the rows of a write's
/// opening.
const KNOWN_SEQ: &str = "known_seq";

/// The one statement that reads `Known`: the stream's `seq` and enabled
/// endpoints, so of one snapshot, beside the name and browser of the user
/// who caused the write.
fn known_query(key: &StreamKey, actor: &Actor) -> Sql {
    let (user_id, session_id) = match actor {
        Actor::User {
            user_id,
            session_id,
        } => (Some(user_id.clone()), Some(session_id.clone())),
        _ => (None, None),
    };
    Sql::statement(
        "SELECT s.seq AS known_seq, e.id, e.event_types, u.name, x.user_agent \
         FROM merchant_streams s \
         LEFT JOIN webhook_endpoints e ON e.merchant_id = s.merchant_id AND e.mode = s.mode \
         AND e.enabled = 1 \
         LEFT JOIN users u ON u.id = $3 \
         LEFT JOIN sessions x ON x.public_id = $4 \
         WHERE s.merchant_id = $1 AND s.mode = $2",
        vec![
            Bind::Text(key.merchant_id.clone()),
            Bind::Text(key.mode.as_str().into()),
            Bind::OptText(user_id),
            Bind::OptText(session_id),
        ],
    )
}

/// `Known` from the rows of `known_query`; none if the stream has no row
/// (not opened yet).
fn known_of(rows: &[AnyRow], actor: &Actor) -> AppResult<Option<Known>> {
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let seq: i64 = first.try_get(0)?;
    let name: Option<String> = first.try_get(3)?;
    let user_agent: Option<String> = first.try_get(4)?;
    let mut endpoints = Vec::new();
    for row in rows {
        let id: Option<String> = row.try_get(1)?;
        let types: Option<String> = row.try_get(2)?;
        if let (Some(id), Some(types)) = (id, types) {
            endpoints.push((id, types));
        }
    }
    let who = history::Who::found(actor, name, user_agent);
    Ok(Some((
        who,
        Some(webhooks::EndpointsAt::new(seq as u64, endpoints)),
    )))
}

/// `Known` for a stream's first write, which had no row to read: who
/// caused it is read inside the write (`history::record_event`), and its
/// endpoints in its transaction (`webhooks::queue_for_event`).
fn first_write_known(actor: &Actor) -> Known {
    (history::Who::found(actor, None, None), None)
}

/// Reads `Known` on the read pool, for a write outside a group (PostgreSQL).
async fn read_known(db: &Db, key: &StreamKey, actor: &Actor) -> AppResult<Known> {
    let rows = known_query(key, actor).query().fetch_all(&db.pool).await?;
    match known_of(&rows, actor)? {
        Some(known) => Ok(known),
        // A stream not opened yet: its first write reads its endpoints in
        // its transaction, and who caused it here.
        None => Ok((history::Who::resolve(db, actor).await?, None)),
    }
}

/// The write inside its transaction, its `seq` taken: everything but its
/// rows (`batch.rs`: its event and what travels with it, which nothing reads
/// back) and the commit. A result without a `seq` (the work changed
/// nothing) is to be rolled back.
async fn run<T>(
    tx: &mut Tx,
    key: &StreamKey,
    seq: u64,
    (cause, (who, endpoints)): (&Cause, Known),
    work: impl AsyncFnOnce(&mut Tx, u64) -> AppResult<Work<T>>,
) -> AppResult<(Written<T>, Batch)> {
    let (mut changes, value, rows) = match work(tx, seq).await? {
        Work::Changed {
            changes,
            value,
            rows,
        } => (changes, value, rows),
        Work::Unchanged(value) => {
            let written = Written {
                seq: None,
                changes: Vec::new(),
                value,
            };
            return Ok((written, Batch::default()));
        }
    };
    // Written at the end, together (`batch.rs`): nothing below reads them.
    let mut batch = Batch::default();
    for row in rows {
        batch.push(row);
    }
    let first_stamped = versions::stamp(&mut batch, key, seq, &mut changes);
    // The history's entries travel with the event's own changes (last, so
    // a delta still starts with what the work changed): every writer's
    // changes are recorded, with their before, and reach the history's
    // tabs live.
    let entries = history::record_event(
        tx,
        &mut batch,
        (key, seq),
        (cause, who),
        &changes,
        &first_stamped,
    )
    .await?;
    changes.extend(entries);
    // In the event's own transaction: a change that rolls back sends nothing,
    // and one that commits is never without its deliveries. The queued
    // deliveries are changes of the same event, for the open delivery logs.
    let queued = webhooks::queue_for_event(
        tx,
        &mut batch,
        key,
        seq,
        &changes,
        now_ms(),
        endpoints.as_ref(),
    )
    .await?;
    changes.extend(queued);
    batch.push(event_row(key, seq, cause, encode(&changes)?));
    let written = Written {
        seq: Some(seq),
        changes,
        value,
    };
    Ok((written, batch))
}

/// The statement that takes the stream's next `seq`, the only one whose row
/// has a column named `seq` among a write's opening (`group_commit.rs`).
/// Its row lock orders the stream's writes. A stream no tab has opened yet
/// (a business that has only used test mode, joined by a new member on its
/// live stream) is made by its first write, at `seq` 1: every writer may
/// write to either stream of a merchant from its first day.
pub(super) fn take_seq(key: &StreamKey) -> Sql {
    Sql::statement(
        "INSERT INTO merchant_streams (merchant_id, mode, epoch, seq) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (merchant_id, mode) DO UPDATE SET seq = merchant_streams.seq + 1 RETURNING seq",
        vec![
            Bind::Text(key.merchant_id.clone()),
            Bind::Text(key.mode.as_str().into()),
            Bind::Text(new_id("ep")),
        ],
    )
}

async fn take_next_seq(tx: &mut Tx, key: &StreamKey) -> AppResult<u64> {
    let row = take_seq(key).query().fetch_one(&mut **tx).await?;
    Ok(row.try_get::<i64, _>("seq")? as u64)
}

fn event_row(key: &StreamKey, seq: u64, cause: &Cause, changes: Vec<u8>) -> Sql {
    let (actor_kind, actor_id) = cause.actor.stored();
    let text = |value: Option<&str>| Bind::OptText(value.map(str::to_string));
    Sql::statement(
        "INSERT INTO events (merchant_id, mode, seq, changes, created_at, actor_kind, actor_id, \
         session_id, command_id, client_address) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        vec![
            Bind::Text(key.merchant_id.clone()),
            Bind::Text(key.mode.as_str().into()),
            Bind::Int(seq as i64),
            Bind::Blob(changes),
            Bind::Int(now_ms()),
            Bind::Text(actor_kind.into()),
            text(actor_id),
            text(cause.actor.session_id()),
            text(cause.command_id.as_deref()),
            text(cause.address.as_deref()),
        ],
    )
}

/// Queued inside the transaction; PostgreSQL delivers it on commit, and
/// drops it on rollback.
async fn announce(tx: &mut Tx, key: &StreamKey, seq: u64) -> AppResult<()> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(NOTIFY_CHANNEL)
        .bind(announcement(key, seq))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

fn announcement(key: &StreamKey, seq: u64) -> String {
    format!("{}|{}|{}", key.merchant_id, key.mode.as_str(), seq)
}

/// Reads an announcement back: the stream and the `seq` it reached.
pub fn parse_announcement(payload: &str) -> Option<(StreamKey, u64)> {
    let mut parts = payload.split('|');
    let merchant_id = parts.next()?.to_string();
    let mode = Mode::parse(parts.next()?)?;
    let seq = parts.next()?.parse().ok()?;
    Some((StreamKey { merchant_id, mode }, seq))
}

/// Who caused one stored event, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedCause {
    pub seq: i64,
    pub actor_kind: String,
    pub actor_id: Option<String>,
    pub session_id: Option<String>,
    pub command_id: Option<String>,
    pub client_address: Option<String>,
}

impl sqlx::FromRow<'_, sqlx::any::AnyRow> for RecordedCause {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            seq: row.try_get("seq")?,
            actor_kind: row.try_get("actor_kind")?,
            actor_id: row.try_get("actor_id")?,
            session_id: row.try_get("session_id")?,
            command_id: row.try_get("command_id")?,
            client_address: row.try_get("client_address")?,
        })
    }
}

/// The recorded causes of a stream's events, oldest first.
pub async fn event_causes(db: &Db, key: &StreamKey) -> AppResult<Vec<RecordedCause>> {
    Ok(sqlx::query_as(
        "SELECT seq, actor_kind, actor_id, session_id, command_id, client_address FROM events \
         WHERE merchant_id = $1 AND mode = $2 ORDER BY seq",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .fetch_all(&db.pool)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcements_round_trip() {
        let key = StreamKey::new("mer_1", Mode::Test);
        assert_eq!(parse_announcement(&announcement(&key, 42)), Some((key, 42)));
        assert!(parse_announcement("mer_1|other|1").is_none());
        assert!(parse_announcement("mer_1|live").is_none());
    }

    #[test]
    fn each_actor_is_stored_with_its_own_id() {
        let user = Actor::User {
            user_id: "usr_1".into(),
            session_id: "ses_1".into(),
        };
        assert_eq!(user.stored(), ("user", Some("usr_1")));
        assert_eq!(user.session_id(), Some("ses_1"));
        assert_eq!(Actor::Scheduler.stored(), ("scheduler", None));
        let import = Actor::Import {
            import_id: "imp_1".into(),
        };
        assert_eq!(import.stored(), ("import", Some("imp_1")));
        assert_eq!(import.session_id(), None);
    }
}
