//! The merchant actor: the single writer of one merchant stream. Its mailbox
//! is the merchant's write queue; each command runs in one transaction that
//! also appends the delta, and only then is the delta broadcast.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;
use protocol::{ApiTokenState, Change, ErrorCode, ReplyBody, ServerFrame, WireError, encode};

use super::commit::commit_command;
use super::cross_node::{self, CrossNode, NodeLink, RemotePresence};
use super::deltas::read_deltas;
use super::messages::{
    Advance, Encoded, Execute, Join, Leave, Members, Outbound, Outbox, Regranted, SetPresence,
    SocketId, Standing, Stop, Tick,
};
use super::presence::{self, PresenceView, Tab};
use super::scheduler;
use super::sockets;
use paydesk::domain::clock::BusinessClock;
use paydesk::domain::permissions::{self, Grant, Permissions};
use paydesk::domain::routes;
use paydesk::error::{AppError, AppResult};
use paydesk::store::Db;
use paydesk::store::events::{self, StreamPosition};
use paydesk::store::stream::StreamKey;

/// The close code of a socket whose API token was revoked.
pub const TOKEN_REVOKED: u16 = 4003;
/// Deltas replayed on resume before we ask the client to resync instead.
const REPLAY_LIMIT: u64 = 1_000;
/// Commands waiting in the queue; beyond this senders wait (backpressure).
const MAILBOX: usize = 1_024;
/// How often a change of who is online is sent out: every join, move and
/// leave within this window goes out as one frame.
const PRESENCE_FLUSH: Duration = Duration::from_millis(200);
/// An actor with no sockets stops after this long, freeing its memory.
const IDLE_STOP: Duration = Duration::from_secs(60);
/// The pause between days while a test clock plays a span out: slow enough
/// to watch, quick enough that a month takes seconds, and commands from the
/// team slot in between days instead of waiting for the whole span.
const PLAY_STEP: Duration = Duration::from_millis(120);

struct Member {
    /// Whose tab this is (a change of their membership reaches it at once)
    /// and what it shows, for presence.
    tab: Tab,
    outbox: Outbox,
    /// What the member's role may read: deltas of other sections are left
    /// out of what this socket is sent.
    permissions: Permissions,
    /// The API token the socket signed in with, if any.
    token_id: Option<Box<str>>,
    /// Joined since the last presence flush: gets the whole list then
    /// (once), not the changes.
    fresh: bool,
}

impl Member {
    /// Takes the member's new permissions. Returns whether they changed:
    /// then who is online is told to the tab again, whole, as the new role
    /// reads it.
    fn regrant(&mut self, permissions: Permissions) -> bool {
        if self.permissions == permissions {
            return false;
        }
        self.permissions = permissions;
        self.fresh = true;
        true
    }
}

/// What one role is told at a presence flush: who is online as it reads
/// them, the changes since it was last told (none: nothing to send), and the
/// whole list for its tabs that just joined (encoded when first needed).
struct Told {
    seen: PresenceView,
    changed: Option<Encoded>,
    snapshot: Option<Option<Encoded>>,
}

pub struct MerchantActor {
    key: StreamKey,
    db: Db,
    clock: BusinessClock,
    /// The server's public origin, for links in the scheduler's mail.
    origin: String,
    position: Option<StreamPosition>,
    /// The tabs joined to this stream on this node: dropping one here is
    /// all it takes to stop sending to it and to count it gone.
    sessions: HashMap<SocketId, Member>,
    presence_dirty: bool,
    /// A presence flush is due within `PRESENCE_FLUSH`: the timer runs only
    /// then, so a merchant whose tabs sit idle wakes nothing.
    flush_armed: bool,
    /// Who the tabs were last told is online, as each role reads it
    /// (`presence::as_seen`): one view per set of permissions among the tabs.
    announced: HashMap<Permissions, PresenceView>,
    /// The other nodes' people on this stream (PostgreSQL with a link).
    cross: Option<CrossNode>,
    idle_timer: Option<SpawnHandle>,
}

impl MerchantActor {
    pub fn new(key: StreamKey, db: Db, clock: BusinessClock, origin: String) -> MerchantActor {
        MerchantActor {
            key,
            db,
            clock,
            origin,
            position: None,
            sessions: HashMap::new(),
            presence_dirty: false,
            flush_armed: false,
            announced: HashMap::new(),
            cross: None,
            idle_timer: None,
        }
    }

    /// Shares this stream's presence with the other nodes through `link`.
    pub fn linked(mut self, link: Option<Arc<NodeLink>>) -> MerchantActor {
        self.cross = link.map(CrossNode::new);
        self
    }

    fn encoded(frame: &ServerFrame) -> Option<Encoded> {
        match encode(frame) {
            Ok(bytes) => Some(Encoded::from(bytes)),
            Err(err) => {
                tracing::error!(error = %err, "cannot encode frame");
                None
            }
        }
    }

    /// Sends each session the frame `frame_for` makes for its member (none:
    /// nothing is sent to it). A session whose mailbox is full cannot keep up:
    /// it is dropped (and resumes from the log) rather than holding the actor back.
    fn send_each(&mut self, frame_for: impl FnMut(&Member) -> Option<Encoded>) {
        let dropped = fan_out(&self.sessions, frame_for);
        if !dropped.is_empty() {
            for session_id in &dropped {
                self.sessions.remove(session_id);
            }
            self.presence_dirty = true;
        }
    }

    /// Broadcasts deltas past the known position, in order, and moves it on.
    fn publish(&mut self, deltas: Vec<(u64, Vec<Change>)>, ctx: &mut Context<Self>) {
        self.broadcast(deltas);
        // A member removed, regranted or a socket dropped changed who is
        // online, or what a tab may be told of it.
        self.arm_presence_flush(ctx);
    }

    fn broadcast(&mut self, deltas: Vec<(u64, Vec<Change>)>) {
        for (seq, changes) in deltas {
            let Some(position) = self.position.as_mut() else {
                return;
            };
            if seq <= position.seq {
                continue;
            }
            position.seq = seq;
            // Before the delta goes out: a removed member is not sent it,
            // a demoted one gets it filtered by their new role.
            self.apply_memberships(&changes);
            metrics::counter!("paydesk_deltas_sent_total").increment(self.sessions.len() as u64);
            self.broadcast_delta(seq, &changes);
            self.close_revoked(&changes);
        }
    }

    /// A member's role changed or they left the team: their sockets on
    /// this stream take the new grant (and tell the tab), or close.
    fn apply_memberships(&mut self, changes: &[Change]) {
        for change in changes {
            match change {
                Change::MemberUpserted { member, .. } => {
                    for session in self.sessions.values_mut() {
                        if session.tab.user_id() == member.user_id {
                            if session.regrant(member.permissions) {
                                self.presence_dirty = true;
                            }
                            session.outbox.do_send(Outbound::Regrant(Standing {
                                grant: Grant {
                                    role: member.role,
                                    permissions: member.permissions,
                                },
                                role_name: member.role_name.clone(),
                            }));
                        }
                    }
                }
                Change::MemberRemoved { user_id } => {
                    let gone: Vec<SocketId> = self
                        .sessions
                        .iter()
                        .filter(|(_, session)| session.tab.user_id() == user_id)
                        .map(|(id, _)| id.clone())
                        .collect();
                    for session_id in gone {
                        if let Some(session) = self.sessions.remove(&session_id) {
                            session.outbox.do_send(Outbound::Close(sockets::REMOVED));
                        }
                        self.presence_dirty = true;
                    }
                }
                _ => {}
            }
        }
    }

    /// A delta to every session, each with only the changes its member may
    /// read; encoded once per distinct set of permissions.
    fn broadcast_delta(&mut self, seq: u64, changes: &[Change]) {
        let mut encoded: HashMap<Permissions, Option<Encoded>> = HashMap::new();
        self.send_each(|member| {
            encoded
                .entry(member.permissions)
                .or_insert_with(|| {
                    let changes = permissions::readable_changes(&member.permissions, changes);
                    Self::encoded(&ServerFrame::Delta { seq, changes })
                })
                .clone()
        });
    }

    /// Closes the sockets of tokens a delta revoked. Every node's actor of
    /// the stream publishes every delta, so a token's sockets close on
    /// whichever node they are.
    fn close_revoked(&mut self, changes: &[Change]) {
        let revoked: Vec<&str> = changes
            .iter()
            .filter_map(|change| match change {
                Change::ApiTokenUpserted { token } if token.state != ApiTokenState::Active => {
                    Some(token.id.as_str())
                }
                _ => None,
            })
            .collect();
        if revoked.is_empty() {
            return;
        }
        let closing: Vec<SocketId> = self
            .sessions
            .iter()
            .filter(|(_, m)| m.token_id.as_deref().is_some_and(|t| revoked.contains(&t)))
            .map(|(id, _)| id.clone())
            .collect();
        for session_id in closing {
            if let Some(member) = self.sessions.remove(&session_id) {
                member.outbox.do_send(Outbound::Close(TOKEN_REVOKED));
            }
            self.presence_dirty = true;
        }
    }

    /// Tells the tabs what changed in who is online since the last flush.
    /// Coalesced on a timer: tabs that joined in the window get the whole
    /// list once; the others get only who joined, moved or left, and
    /// nothing when that is nothing (more tabs of someone already online).
    /// So a restart reconnecting thousands of tabs sends each one snapshot
    /// and a handful of small frames, not the list on every join. Each frame
    /// is encoded once, and a tab that cannot keep up is dropped like for
    /// deltas.
    fn flush_presence(&mut self) {
        if let Some(cross) = &mut self.cross
            && cross.expire(Instant::now())
        {
            self.presence_dirty = true;
        }
        if !self.presence_dirty {
            return;
        }
        self.presence_dirty = false;
        let mut view = self.presence_view();
        if let Some(cross) = &mut self.cross {
            // The other nodes hear of this node's people only, never of
            // theirs again: no echo between nodes.
            cross.flushed(&self.key, &view);
            view = cross.merged(view);
        }
        // Each role is told only of the screens it opens: one view, one
        // changes frame and at most one snapshot per set of permissions.
        let mut told: HashMap<Permissions, Told> = HashMap::new();
        for member in self.sessions.values() {
            told.entry(member.permissions).or_insert_with(|| {
                let seen = presence::as_seen(&view, &member.permissions);
                let before = self.announced.remove(&member.permissions);
                let changes = presence::diff(&before.unwrap_or_default(), &seen);
                let changed = (!changes.is_empty()).then(|| {
                    Self::encoded(&ServerFrame::PresenceChanged {
                        joined: changes.joined,
                        moved: changes.moved,
                        left: changes.left,
                    })
                });
                Told {
                    seen,
                    changed: changed.flatten(),
                    snapshot: None,
                }
            });
        }
        self.send_each(|member| {
            let told = told.get_mut(&member.permissions)?;
            if member.fresh {
                told.snapshot
                    .get_or_insert_with(|| {
                        Self::encoded(&ServerFrame::Presence {
                            members: told.seen.values().cloned().collect(),
                        })
                    })
                    .clone()
            } else {
                told.changed.clone()
            }
        });
        for member in self.sessions.values_mut() {
            member.fresh = false;
        }
        self.announced = told
            .into_iter()
            .map(|(permissions, told)| (permissions, told.seen))
            .collect();
    }

    /// Who this node's tabs of the stream show to be online.
    fn presence_view(&self) -> PresenceView {
        presence::view(self.sessions.values().map(|member| &member.tab))
    }

    /// Someone joined, moved or left: the tabs hear of it at the next flush.
    fn presence_changed(&mut self, ctx: &mut Context<Self>) {
        self.presence_dirty = true;
        self.arm_presence_flush(ctx);
    }

    /// Flushes presence `PRESENCE_FLUSH` from now if it changed and no flush
    /// is due yet: every change within the window goes out in that one flush.
    fn arm_presence_flush(&mut self, ctx: &mut Context<Self>) {
        if !self.presence_dirty || self.flush_armed {
            return;
        }
        self.flush_armed = true;
        ctx.run_later(PRESENCE_FLUSH, |actor, ctx| {
            actor.flush_armed = false;
            actor.flush_presence();
            // A tab too slow for the flush was dropped: that is news too.
            actor.arm_presence_flush(ctx);
        });
    }

    fn schedule_idle_stop(&mut self, ctx: &mut Context<Self>) {
        if let Some(handle) = self.idle_timer.take() {
            ctx.cancel_future(handle);
        }
        if self.sessions.is_empty() {
            self.idle_timer = Some(ctx.run_later(IDLE_STOP, |actor, ctx| {
                if actor.sessions.is_empty() {
                    ctx.stop();
                }
            }));
        }
    }
}

impl Actor for MerchantActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(MAILBOX);
        if let Some(cross) = &self.cross {
            cross.hello(&self.key);
            // Other nodes' people expire when their node falls silent, so
            // with other nodes presence is looked at on a steady beat.
            ctx.run_interval(PRESENCE_FLUSH, |actor, _ctx| actor.flush_presence());
            ctx.run_interval(cross_node::ANNOUNCE_EVERY, |actor, _ctx| {
                if let Some(cross) = &mut actor.cross {
                    cross.reannounce(&actor.key);
                }
            });
        }
        let db = self.db.clone();
        let key = self.key.clone();
        // Nothing is handled before the stream position is known.
        ctx.wait(
            async move { events::open_stream(&db, &key.merchant_id, key.mode).await }.into_actor(self).map(|result, actor, ctx| match result {
                Ok(position) => actor.position = Some(position),
                Err(err) => {
                    tracing::error!(error = %err, merchant = %actor.key.merchant_id, "cannot open merchant stream");
                    ctx.stop();
                }
            }),
        );
        self.schedule_idle_stop(ctx);
    }
}

/// Hands one encoded frame to every session: each gets the same bytes (a
/// reference count, no copy, no list). Never waits: a session whose mailbox
/// is full is told it is too slow and named in the answer, to be dropped.
fn fan_out(
    sessions: &HashMap<SocketId, Member>,
    mut frame_for: impl FnMut(&Member) -> Option<Encoded>,
) -> Vec<SocketId> {
    let mut dropped = Vec::new();
    for (session_id, member) in sessions {
        let Some(bytes) = frame_for(member) else {
            continue;
        };
        match member.outbox.try_send(Outbound::Frame(bytes)) {
            Ok(()) => {}
            Err(SendError::Full(_)) => {
                member.outbox.do_send(Outbound::TooSlow);
                dropped.push(session_id.clone());
            }
            Err(SendError::Closed(_)) => dropped.push(session_id.clone()),
        }
    }
    dropped
}

/// What a joining session is sent before any live delta.
async fn catch_up(
    db: Db,
    key: StreamKey,
    position: StreamPosition,
    resume: Option<protocol::Resume>,
    readable: Permissions,
) -> AppResult<Vec<ServerFrame>> {
    let Some(resume) = resume else {
        return Ok(Vec::new());
    };
    let resync = vec![ServerFrame::Resync {
        epoch: position.epoch.clone(),
        seq: position.seq,
    }];
    if resume.epoch != position.epoch
        || resume.seq > position.seq
        || position.seq - resume.seq > REPLAY_LIMIT
    {
        return Ok(resync);
    }
    let missed = position.seq - resume.seq;
    let rows =
        events::events_after(&db, &key.merchant_id, key.mode, resume.seq, missed as i64).await?;
    if rows.len() as u64 != missed {
        return Ok(resync);
    }
    rows.into_iter()
        .map(|(seq, bytes)| {
            let changes: Vec<Change> = protocol::decode(&bytes)?;
            let changes = permissions::readable_changes(&readable, &changes);
            Ok(ServerFrame::Delta { seq, changes })
        })
        .collect()
}

impl Handler<Join> for MerchantActor {
    type Result = AtomicResponse<Self, ()>;

    /// Atomic: no delta is broadcast between reading the missed ones and
    /// registering the session, so none is lost or doubled.
    fn handle(&mut self, join: Join, _ctx: &mut Self::Context) -> Self::Result {
        let Some(position) = self.position.clone() else {
            return AtomicResponse::new(Box::pin(fut::ready(())));
        };
        let resume = join.resume.clone();
        let readable = join.merchant.permissions;
        let work = catch_up(
            self.db.clone(),
            self.key.clone(),
            position.clone(),
            resume,
            readable,
        );
        AtomicResponse::new(Box::pin(work.into_actor(self).map(
            move |result, actor, ctx| {
                let welcome = ServerFrame::Welcome {
                    epoch: position.epoch.clone(),
                    seq: position.seq,
                    build: join.build.clone(),
                    user: join.user.clone(),
                    merchant: join.merchant.clone(),
                    mode: actor.key.mode,
                    merchants: join.merchants.clone(),
                };
                let catch_up = result.unwrap_or_else(|err| {
                    tracing::error!(error = %err, "resume failed; asking for a resync");
                    vec![ServerFrame::Resync {
                        epoch: position.epoch.clone(),
                        seq: position.seq,
                    }]
                });
                let frames: Vec<Encoded> = std::iter::once(&welcome)
                    .chain(catch_up.iter())
                    .filter_map(Self::encoded)
                    .collect();
                // do_send: the first burst must arrive whole, whatever the bound.
                join.outbox.do_send(Outbound::Frames(frames));
                actor.sessions.insert(
                    join.session_id,
                    Member {
                        tab: Tab::new(join.user_id, &join.user.name),
                        outbox: join.outbox,
                        permissions: readable,
                        token_id: join.token_id.map(String::into_boxed_str),
                        fresh: true,
                    },
                );
                actor.presence_changed(ctx);
                actor.schedule_idle_stop(ctx);
            },
        )))
    }
}

impl Handler<Leave> for MerchantActor {
    type Result = ();

    fn handle(&mut self, leave: Leave, ctx: &mut Self::Context) {
        if self.sessions.remove(&leave.session_id).is_some() {
            self.presence_changed(ctx);
        }
        self.schedule_idle_stop(ctx);
    }
}

impl Handler<Regranted> for MerchantActor {
    type Result = ();

    fn handle(&mut self, msg: Regranted, ctx: &mut Self::Context) {
        if let Some(session) = self.sessions.get_mut(&msg.session_id)
            && session.regrant(msg.grant.permissions)
        {
            self.presence_changed(ctx);
        }
    }
}

impl Handler<SetPresence> for MerchantActor {
    type Result = ();

    fn handle(&mut self, msg: SetPresence, ctx: &mut Self::Context) {
        let changed = self
            .sessions
            .get_mut(&msg.session_id)
            .is_some_and(|member| member.tab.set(msg.viewing, msg.editing));
        if changed {
            self.presence_changed(ctx);
        }
    }
}

impl Handler<Stop> for MerchantActor {
    type Result = AtomicResponse<Self, ()>;

    /// Commands, deltas and scheduler days are atomic, so this runs only
    /// after the one in hand committed: nothing is cut off mid-transaction.
    /// The other nodes are told this node's people left before it stops.
    fn handle(&mut self, _: Stop, _ctx: &mut Self::Context) -> Self::Result {
        let goodbye = self
            .cross
            .as_mut()
            .and_then(|cross| cross.goodbye(&self.key));
        AtomicResponse::new(Box::pin(
            async move {
                if let Some(goodbye) = goodbye {
                    goodbye.await;
                }
            }
            .into_actor(self)
            .map(|(), _actor, ctx| ctx.stop()),
        ))
    }
}

impl Handler<RemotePresence> for MerchantActor {
    type Result = ();

    /// Another node's people: the tabs hear of them at the next flush.
    fn handle(&mut self, msg: RemotePresence, ctx: &mut Self::Context) {
        if let Some(cross) = &mut self.cross
            && cross.receive(msg)
        {
            self.presence_changed(ctx);
        }
    }
}

impl Handler<Members> for MerchantActor {
    type Result = MessageResult<Members>;

    fn handle(&mut self, _: Members, _ctx: &mut Self::Context) -> Self::Result {
        MessageResult(self.presence_view().into_values().collect())
    }
}

impl Handler<Execute> for MerchantActor {
    type Result = AtomicResponse<Self, Result<ReplyBody, WireError>>;

    /// Atomic, so the next command starts only after this one committed and
    /// broadcast: `seq` order is commit order.
    fn handle(&mut self, msg: Execute, _ctx: &mut Self::Context) -> Self::Result {
        if self.position.is_none() {
            return AtomicResponse::new(Box::pin(fut::ready(Err(WireError::new(
                ErrorCode::Internal,
            )))));
        }
        let known_seq = self.position.as_ref().map_or(0, |p| p.seq);
        // The routing table says whether something may be due today after it.
        let plays_collections = routes::command_route(&msg.command).wakes_scheduler;
        // An internal error is reported with the command's kind.
        let span =
            crate::error_reporting::command_span(&crate::metrics::command_kind(&msg.command));
        let db = self.db.clone();
        let command = commit_command(db.clone(), self.key.clone(), self.clock, known_seq, msg);
        let work = async move { db.on_write_thread(command).await };
        AtomicResponse::new(Box::pin(work.into_actor(self).map(
            move |result, actor, ctx| match result {
                Ok((reply, deltas)) => {
                    actor.publish(deltas, ctx);
                    if plays_collections {
                        // Whatever became due today runs now, not at the next scheduler round.
                        ctx.notify(Tick);
                    }
                    Ok(reply)
                }
                Err(err) => span.in_scope(|| Err(AppError::to_wire(&err))),
            },
        )))
    }
}

impl Handler<Advance> for MerchantActor {
    type Result = AtomicResponse<Self, ()>;

    /// Atomic, so the deltas of other nodes and of this one go out in `seq` order.
    fn handle(&mut self, msg: Advance, _ctx: &mut Self::Context) -> Self::Result {
        let known = self.position.as_ref().map_or(msg.seq, |p| p.seq);
        if msg.seq <= known {
            return AtomicResponse::new(Box::pin(fut::ready(())));
        }
        let (db, key) = (self.db.clone(), self.key.clone());
        let work = async move { read_deltas(&db, &key, known, msg.seq - known).await };
        AtomicResponse::new(Box::pin(work.into_actor(self).map(
            |result, actor, ctx| match result {
                Ok(deltas) => actor.publish(deltas, ctx),
                Err(err) => {
                    tracing::error!(error = %err, "cannot read deltas committed by another node")
                }
            },
        )))
    }
}

/// Plays one scheduler day and returns the deltas to publish: any other
/// node or the background job committed since `known_seq`, then this one.
async fn commit_tick(
    db: Db,
    key: StreamKey,
    clock: BusinessClock,
    origin: String,
    known_seq: u64,
) -> AppResult<(Vec<(u64, Vec<Change>)>, bool)> {
    let step = scheduler::commit_next_day(&db, &key, clock, &origin).await?;
    let Some((seq, changes)) = step.delta else {
        return Ok((Vec::new(), step.more));
    };
    let mut deltas = read_deltas(&db, &key, known_seq, seq.saturating_sub(known_seq + 1)).await?;
    deltas.push((seq, changes));
    Ok((deltas, step.more))
}

impl Handler<Tick> for MerchantActor {
    type Result = AtomicResponse<Self, ()>;

    /// Atomic like a command: the day's delta takes its place in `seq` order.
    fn handle(&mut self, _: Tick, _ctx: &mut Self::Context) -> Self::Result {
        let Some(known_seq) = self.position.as_ref().map(|p| p.seq) else {
            return AtomicResponse::new(Box::pin(fut::ready(())));
        };
        let work = commit_tick(
            self.db.clone(),
            self.key.clone(),
            self.clock,
            self.origin.clone(),
            known_seq,
        );
        AtomicResponse::new(Box::pin(work.into_actor(self).map(
            |result, actor, ctx| match result {
                Ok((deltas, more)) => {
                    actor.publish(deltas, ctx);
                    if more {
                        ctx.notify_later(Tick, PLAY_STEP);
                    }
                }
                Err(err) => {
                    tracing::error!(error = %err, merchant = %actor.key.merchant_id, "scheduler day failed")
                }
            },
        )))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
#[path = "merchant_tests.rs"]
mod tests;
