//! The session actor: one per socket. It authenticates the socket (at the
//! upgrade), authorises every frame, forwards commands to the merchant actor,
//! runs queries, and relays what the merchant actor publishes.

mod hello;
mod token_hello;

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;
use actix_web_actors::ws::{self, CloseCode, CloseReason};
use protocol::{ClientFrame, Command, ErrorCode, Query, ReplyBody, ServerFrame, WireError, encode};
use tokio::sync::Semaphore;
use tracing::Instrument;

use super::budget::FrameBudget;
use super::frame_limit::{Fragments, Gathered, Oversize};
use super::messages::{
    Execute, Leave, Outbound, Outbox, Regranted, SetPresence, SocketId, Standing,
};
use super::registry::{MerchantAddr, announce_account};
use super::sockets::{self, LastHeard, Refused};
use super::team_steps::{Committed, after_team_command, confirm_owner};
use crate::metrics::CommandTimer;
use crate::security_log::{self, Client, Sent, Working};
use crate::state::State;
use paydesk::domain::accounts::{self, AccountScope};
use paydesk::domain::api_tokens::authenticate::{TokenAccess, api_socket_key};
use paydesk::domain::permissions::Grant;
use paydesk::domain::routes::{self, Runs};
use paydesk::domain::teams::TeamTools;
use paydesk::domain::webhooks::endpoints::check_address;
use paydesk::domain::{Scope, input_text, rules, screen_paths};
use paydesk::error::AppError;
use paydesk::ids::new_id;
use paydesk::store::sessions::SessionRow;
use paydesk::store::stream::StreamKey;
use paydesk::store::stream::{Actor as EventActor, Cause};
use paydesk::store::users;

/// A client silent this long (a ping unanswered) is gone. The node's
/// heartbeat (`sockets::heartbeat_forever`) has pinged it by then.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(40);
/// Frames queued for this socket. When the client reads too slowly the queue
/// fills and the merchant actor drops the session instead of waiting.
const MAILBOX: usize = 256;
/// Requests of one socket running at once; more wait their turn, so one
/// tab's burst cannot take the whole database pool from other merchants.
const WORK_IN_FLIGHT: usize = 4;
const MAX_ID_LEN: usize = 64;
const MAX_VIEWING_LEN: usize = 256;

/// A command or query as the security log needs it: what was sent, and
/// the stream it was sent on.
struct Asked {
    working: Working,
    sent: Sent,
}

struct Joined {
    key: StreamKey,
    merchant: MerchantAddr,
    /// The member's role and what it grants on this merchant: from the
    /// join, then whatever the merchant actor says it became.
    grant: Grant,
    /// The merchant's name and the custom role's, as the Welcome showed
    /// them: with the key and the grant, what tells the tab a new role.
    name: Box<str>,
    role_name: Option<Box<str>>,
    /// The merchant requires two-factor sign-in and this user has none yet:
    /// only their own account's commands run until they enrol.
    must_enrol: bool,
}

impl Joined {
    fn new(
        key: StreamKey,
        merchant: MerchantAddr,
        grant: Grant,
        shown: protocol::MerchantView,
        must_enrol: bool,
    ) -> Joined {
        Joined {
            key,
            merchant,
            grant,
            name: shown.name.into(),
            role_name: shown.role_name.map(String::into_boxed_str),
            must_enrol,
        }
    }

    /// The merchant as the tab should now show it.
    fn view(&self) -> protocol::MerchantView {
        protocol::MerchantView {
            id: self.key.merchant_id.clone(),
            name: self.name.to_string(),
            role: self.grant.role,
            role_name: self.role_name.as_deref().map(str::to_string),
            permissions: self.grant.permissions,
        }
    }
}

pub struct SessionActor {
    state: State,
    socket_id: SocketId,
    /// Shared with the node's socket registry, as `user_id` is.
    token_hash: Arc<str>,
    /// The browser session's public id, recorded with every event it causes.
    session_id: String,
    /// The client's address at the upgrade, recorded likewise.
    address: String,
    user_id: Arc<str>,
    heard: Arc<LastHeard>,
    /// This socket's own address, made once when it starts and shared by
    /// the socket registry and the merchant actor it joins.
    outbox: Option<Outbox>,
    joined: Option<Joined>,
    /// Frames this socket may still send (see `Config::socket_frames_per_second`).
    budget: FrameBudget,
    /// Set when the byte stream was cut at an oversize frame header.
    oversize: Oversize,
    /// A binary message arriving in fragments.
    fragments: Fragments,
    /// Permits for this socket's requests in flight.
    work: Arc<Semaphore>,
    /// Set when an API token opened the socket instead of a person: it
    /// joins the token's stream only and runs what the token grants. Boxed:
    /// most sockets are people's, and this is held for the socket's life.
    api: Option<Box<TokenAccess>>,
}

impl SessionActor {
    pub fn new(
        state: State,
        session: SessionRow,
        address: String,
        oversize: Oversize,
    ) -> SessionActor {
        let budget = FrameBudget::new(
            state.config.socket_frames_per_second,
            state.config.socket_frame_burst,
            Instant::now(),
        );
        SessionActor {
            state,
            socket_id: new_id("sock").into(),
            token_hash: session.token_hash.into(),
            session_id: session.public_id,
            address,
            user_id: session.user_id.into(),
            heard: LastHeard::now(),
            outbox: None,
            joined: None,
            budget,
            oversize,
            fragments: Fragments::default(),
            work: Arc::new(Semaphore::new(WORK_IN_FLIGHT)),
            api: None,
        }
    }

    /// A socket opened with an API token: `user_id` is the token's id, and
    /// the registry knows its sockets under `api_socket_key`, so a revoke
    /// closes them.
    pub fn for_token(
        state: State,
        access: TokenAccess,
        address: String,
        oversize: Oversize,
    ) -> SessionActor {
        let session = SessionRow {
            token_hash: api_socket_key(&access.token_id),
            public_id: access.token_id.clone(),
            user_id: access.token_id.clone(),
            expires_at: i64::MAX,
        };
        let mut actor = SessionActor::new(state, session, address, oversize);
        actor.api = Some(Box::new(access));
        actor
    }

    /// This socket's outbox, made on first use and shared from then on.
    fn outbox(&mut self, ctx: &mut ws::WebsocketContext<Self>) -> Outbox {
        self.outbox
            .get_or_insert_with(|| Arc::new(ctx.address().recipient()))
            .clone()
    }

    /// A refusal an operator should see: who, from where, and why.
    fn security_event(&self, what: &str) {
        tracing::warn!(
            target: "security",
            user_id = %self.user_id,
            address = %self.address,
            "{what}"
        );
    }

    /// Runs `work` once one of this socket's permits is free.
    fn queued<F: Future>(&self, work: F) -> impl Future<Output = F::Output> + use<F> {
        let permits = self.work.clone();
        async move {
            // The semaphore is never closed; without a permit the work still runs.
            let _permit = permits.acquire_owned().await.ok();
            work.await
        }
    }

    fn send(ctx: &mut ws::WebsocketContext<Self>, frame: &ServerFrame) {
        match encode(frame) {
            Ok(bytes) => ctx.binary(bytes),
            Err(err) => tracing::error!(error = %err, "cannot encode frame"),
        }
    }

    fn reply(
        ctx: &mut ws::WebsocketContext<Self>,
        id: String,
        result: Result<ReplyBody, WireError>,
    ) {
        let frame = match result {
            Ok(body) => ServerFrame::Reply {
                id,
                ok: Some(body),
                error: None,
            },
            Err(error) => ServerFrame::Reply {
                id,
                ok: None,
                error: Some(error),
            },
        };
        Self::send(ctx, &frame);
    }

    /// Who this socket is, for security log lines.
    fn client(&self) -> Client {
        Client::new(Some(&self.user_id), &self.address)
    }

    fn asked(joined: &Joined, frame: &impl serde::Serialize) -> Asked {
        Asked {
            working: Working {
                merchant_id: joined.key.merchant_id.clone(),
                mode: joined.key.mode,
            },
            sent: Sent::of(frame),
        }
    }

    /// Replies; then, when the answer was "not found" and the client sent
    /// ids, logs those that exist under a merchant the client has no
    /// business with. The look runs after the reply went, so the answer and
    /// its timing are the same whatever it finds.
    fn answer(
        &self,
        ctx: &mut ws::WebsocketContext<Self>,
        id: String,
        result: Result<ReplyBody, WireError>,
        asked: Asked,
    ) {
        let not_found = matches!(&result, Err(error) if security_log::is_not_found(error));
        Self::reply(ctx, id, result);
        if !not_found || asked.sent.ids.is_empty() {
            return;
        }
        let (db, client) = (self.state.db.clone(), self.client());
        let person = self.api.is_none().then(|| self.user_id.to_string());
        actix::spawn(async move {
            // A person's ids of their other teams, or a token's of its own
            // merchant's other mode, are a link opened in the wrong tab, not
            // an attack. A failed look-up counts no team.
            let teams = match person {
                Some(user_id) => users::find_memberships(&db, &user_id)
                    .await
                    .map(|teams| teams.into_iter().map(|team| team.id).collect())
                    .unwrap_or_default(),
                None => vec![asked.working.merchant_id.clone()],
            };
            let (working, sent) = (&asked.working, &asked.sent);
            security_log::note_foreign_ids(&db, &client, working, sent, &teams).await;
        });
    }

    fn close(ctx: &mut ws::WebsocketContext<Self>, code: CloseCode, description: &str) {
        ctx.close(Some(CloseReason {
            code,
            description: Some(description.into()),
        }));
        ctx.stop();
    }

    fn leave_stream(&mut self) {
        if let Some(joined) = self.joined.take() {
            joined.merchant.do_send(Leave {
                session_id: self.socket_id.clone(),
            });
        }
    }

    fn on_frame(&mut self, frame: ClientFrame, ctx: &mut ws::WebsocketContext<Self>) {
        match frame {
            ClientFrame::Hello {
                resume,
                build: _,
                merchant_id,
                mode,
            } => self.hello(resume, merchant_id, mode, ctx),
            ClientFrame::Command { id, command } => self.command(id, command, ctx),
            ClientFrame::Query { id, query } => self.query(id, query, ctx),
            ClientFrame::Presence { viewing, editing } => {
                if let Some(joined) = &self.joined {
                    // Only a screen of the app is told to the team: any
                    // other text a client sends goes no further.
                    let screen = |path: &String| {
                        path.len() <= MAX_VIEWING_LEN && screen_paths::screen_needs(path).is_some()
                    };
                    let viewing = viewing.filter(screen);
                    let editing = editing.filter(screen);
                    joined.merchant.do_send(SetPresence {
                        session_id: self.socket_id.clone(),
                        viewing,
                        editing,
                    });
                }
            }
            ClientFrame::Ping {} => Self::send(ctx, &ServerFrame::Pong {}),
        }
    }

    fn command(&mut self, id: String, command: Command, ctx: &mut ws::WebsocketContext<Self>) {
        let Some(joined) = self.checked(&id, ctx) else {
            return;
        };
        let route = routes::command_route(&command);
        let timer = CommandTimer::start(&command);
        // A token has no account of its own to change, and decides nothing
        // only a person may (the team, the payout account).
        if self.api.is_some() && !route.tokens {
            return Self::reply(ctx, id, Err(WireError::new(ErrorCode::Forbidden)));
        }
        if let Err(err) = input_text::check(&command) {
            let refused = Err(err.to_wire());
            timer.finish(&refused);
            return Self::reply(ctx, id, refused);
        }
        if route.runs == Runs::Account {
            return self.account_command(id, command, timer, ctx);
        }
        let refusal = if let Err(code) = joined.grant.check(route.needs) {
            Some(code)
        } else if joined.must_enrol {
            Some(ErrorCode::TwoFactorSetupRequired)
        } else {
            None
        };
        if let Some(code) = refusal {
            let refused = Err(WireError::new(code));
            timer.finish(&refused);
            return Self::reply(ctx, id, refused);
        }
        if route.runs == Runs::Upload {
            return self.upload_command(id, command, timer, ctx);
        }
        let asked = Self::asked(joined, &command);
        let command_copy = command.clone();
        let now = self.state.config.invite_clock.now();
        let committed = Committed {
            key: joined.key.clone(),
            acting: self.user_id.to_string(),
            at: now,
            cause: self.cause(&id),
        };
        let execute = Execute {
            command_id: id.clone(),
            user_id: self.user_id.to_string(),
            token_id: self.api.as_ref().map(|a| a.token_id.clone()),
            session_id: self.session_id.clone(),
            address: Some(self.address.clone()),
            origin: self.state.config.public_url.clone().unwrap_or_default(),
            sealer: self.state.keys.webhooks.clone(),
            token_hasher: self.state.keys.api_tokens.clone(),
            address_check: None,
            team: TeamTools {
                now,
                origin: self.state.config.public_origin(),
                confirmed: None,
            },
            command,
        };
        let merchant = joined.merchant.clone();
        let merchant_id = joined.key.merchant_id.clone();
        let allow_private = self.state.config.webhooks_allow_private_addresses;
        let state = self.state.clone();
        let request = self.queued(async move {
            let mut execute = execute;
            // A new endpoint's address is checked (its name resolved) here,
            // before the command joins the merchant's queue: a slow DNS
            // answer holds neither the queue nor the stream's write lock.
            // A refusal goes along with the command: a retry of one that
            // already ran still gets its stored reply.
            if let Command::CreateWebhookEndpoint { url, .. } = &execute.command {
                let checked = check_address(url, allow_private).await;
                execute.address_check = Some(checked.map_err(|err| AppError::to_wire(&err)));
            }
            // Likewise the owner's password (a slow hash) before handing
            // the ownership on; guesses are throttled like sign-in.
            // The same for a new settlement account (owners and admins).
            if let Command::TransferOwnership { confirmation, .. }
            | Command::SetSettlementAccount { confirmation, .. } = &execute.command
            {
                let checked = confirm_owner(&state, &execute.user_id, confirmation).await;
                execute.team.confirmed = Some(checked.map_err(|err| AppError::to_wire(&err)));
            }
            let result = merchant.send(execute).await;
            // Whose standing the command changed, read once it committed.
            let moved = match &result {
                Ok(Ok(_)) => after_team_command(&state, &committed, &command_copy).await,
                _ => Vec::new(),
            };
            (result, moved)
        });
        ctx.spawn(
            request
                .into_actor(self)
                .map(move |(result, moved), actor, ctx| {
                    let result =
                        result.unwrap_or_else(|_| Err(WireError::new(ErrorCode::Internal)));
                    if result.is_ok() {
                        for (user_id, standing) in moved {
                            let message = Outbound::Membership {
                                merchant_id: merchant_id.clone(),
                                standing,
                            };
                            actor.state.sockets.tell_user(&user_id, &message);
                        }
                    }
                    timer.finish(&result);
                    actor.answer(ctx, id, result, asked);
                }),
        );
    }

    /// Who an event this socket causes is recorded as.
    fn cause(&self, command_id: &str) -> Cause {
        let actor = match &self.api {
            Some(access) => EventActor::ApiToken {
                token_id: access.token_id.clone(),
            },
            None => EventActor::User {
                user_id: self.user_id.to_string(),
                session_id: self.session_id.clone(),
            },
        };
        Cause {
            actor,
            command_id: Some(command_id.to_string()),
            address: Some(self.address.clone()),
        }
    }

    /// The user's own account: run here, beside the merchant's stream.
    fn account_command(
        &mut self,
        id: String,
        command: Command,
        timer: CommandTimer,
        ctx: &mut ws::WebsocketContext<Self>,
    ) {
        let state = self.state.clone();
        let (user_id, token_hash) = (self.user_id.clone(), self.token_hash.clone());
        let address = self.address.clone();
        let enrols = matches!(command, Command::ConfirmTwoFactor { .. });
        let span = crate::error_reporting::command_span(&crate::metrics::command_kind(&command));
        let work = async move {
            let origin = state.config.public_origin();
            let scope = AccountScope {
                user_id: &user_id,
                token_hash: &token_hash,
                public_origin: &origin,
                address: &address,
                keys: &state.keys,
            };
            let outcome =
                accounts::run_throttled(&state.db, &scope, &state.throttle, &command).await;
            if let Ok(outcome) = &outcome {
                for ended in &outcome.ended_sessions {
                    state.sockets.close_session(ended);
                }
                if let Some(entry) = &outcome.announce {
                    announce_account(&state.db, &state.merchants, entry).await;
                }
            }
            outcome.map(|o| o.reply).map_err(|e| e.to_wire())
        }
        .instrument(span);
        ctx.spawn(
            self.queued(work)
                .into_actor(self)
                .map(move |result, actor, ctx| {
                    timer.finish(&result);
                    if enrols
                        && result.is_ok()
                        && let Some(joined) = actor.joined.as_mut()
                    {
                        joined.must_enrol = false;
                    }
                    Self::reply(ctx, id, result);
                }),
        );
    }

    fn scope(&self, joined: &Joined) -> Scope {
        Scope {
            merchant_id: joined.key.merchant_id.clone(),
            mode: joined.key.mode,
            user_id: self.user_id.to_string(),
            role: joined.grant.role,
            permissions: joined.grant.permissions,
            clock: self.state.clock,
            origin: self.state.config.public_url.clone().unwrap_or_default(),
        }
    }

    /// A spreadsheet upload's steps: held in this server's memory until
    /// confirmed, so they do not queue behind the merchant's writes.
    fn upload_command(
        &mut self,
        id: String,
        command: Command,
        timer: CommandTimer,
        ctx: &mut ws::WebsocketContext<Self>,
    ) {
        let Some(scope) = self.joined.as_ref().map(|joined| self.scope(joined)) else {
            return;
        };
        let state = self.state.clone();
        let cause = self.cause(&id);
        let span = crate::error_reporting::command_span(&crate::metrics::command_kind(&command));
        let work = async move {
            let result = super::uploads::run_upload_command(&state, &scope, &cause, command).await;
            result.map_err(|e| e.to_wire())
        }
        .instrument(span);
        ctx.spawn(
            self.queued(work)
                .into_actor(self)
                .map(move |result, _actor, ctx| {
                    timer.finish(&result);
                    Self::reply(ctx, id, result)
                }),
        );
    }

    fn query(&mut self, id: String, query: Query, ctx: &mut ws::WebsocketContext<Self>) {
        let Some(joined) = self.checked(&id, ctx) else {
            return;
        };
        if let Err(err) = input_text::check(&query) {
            return Self::reply(ctx, id, Err(err.to_wire()));
        }
        let needs = routes::query_route(&query).needs;
        if let Err(code) = joined.grant.check(needs) {
            return Self::reply(ctx, id, Err(WireError::new(code)));
        }
        if self.api.is_some() && needs == routes::Needs::OwnAccount {
            return Self::reply(ctx, id, Err(WireError::new(ErrorCode::Forbidden)));
        }
        let scope = self.scope(joined);
        let asked = Self::asked(joined, &query);
        let state = self.state.clone();
        let token_hash = self.token_hash.clone();
        // Reads do not queue behind the merchant's writes.
        let work = async move {
            let result = super::uploads::run_query(&state, &scope, &token_hash, query).await;
            result.map_err(|e| e.to_wire())
        };
        ctx.spawn(
            self.queued(work)
                .into_actor(self)
                .map(move |result, actor, ctx| actor.answer(ctx, id, result, asked)),
        );
    }

    /// The joined stream, or an error reply when the socket has not said Hello
    /// or the id is unusable.
    fn checked(&self, id: &str, ctx: &mut ws::WebsocketContext<Self>) -> Option<&Joined> {
        if id.is_empty() || id.len() > MAX_ID_LEN || rules::storable(id, MAX_ID_LEN).is_err() {
            Self::reply(
                ctx,
                id.chars().take(MAX_ID_LEN).collect(),
                Err(WireError::new(ErrorCode::BadFrame)),
            );
            return None;
        }
        if self.joined.is_none() {
            Self::reply(
                ctx,
                id.to_string(),
                Err(WireError::new(ErrorCode::NotWelcomed)),
            );
        }
        self.joined.as_ref()
    }
}

impl Actor for SessionActor {
    type Context = ws::WebsocketContext<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(MAILBOX);
        let outbox = self.outbox(ctx);
        let admitted = self.state.sockets.add(
            &mut self.token_hash,
            &mut self.user_id,
            &self.socket_id,
            outbox,
            self.heard.clone(),
        );
        match admitted {
            Ok(()) => {}
            Err(Refused::TooMany { limit }) => {
                self.security_event(&format!(
                    "socket refused: the user has {limit} sockets open on this node"
                ));
                Self::close(
                    ctx,
                    CloseCode::Other(sockets::TOO_MANY_SOCKETS),
                    "too many sockets",
                );
            }
            Err(Refused::ShuttingDown) => Self::close(ctx, CloseCode::Away, "server restarting"),
        }
    }

    fn stopped(&mut self, _ctx: &mut Self::Context) {
        self.state.sockets.remove(&self.token_hash, &self.socket_id);
        self.leave_stream();
    }
}

impl Handler<Outbound> for SessionActor {
    type Result = ();

    fn handle(&mut self, msg: Outbound, ctx: &mut Self::Context) {
        match msg {
            // The shared bytes themselves: no copy per socket.
            Outbound::Frame(bytes) => ctx.binary(bytes),
            Outbound::Frames(frames) => {
                for bytes in frames {
                    ctx.binary(bytes);
                }
            }
            Outbound::TooSlow => Self::close(ctx, CloseCode::Again, "too slow; resume"),
            Outbound::Heartbeat if self.heard.silent_for() > CLIENT_TIMEOUT => {
                Self::close(ctx, CloseCode::Away, "heartbeat timeout")
            }
            Outbound::Heartbeat => ctx.ping(b""),
            Outbound::Close(sockets::GOING_AWAY) => {
                Self::close(ctx, CloseCode::Away, "server restarting")
            }
            Outbound::Close(sockets::REMOVED) => Self::close(
                ctx,
                CloseCode::Other(sockets::REMOVED),
                "removed from the team",
            ),
            Outbound::Close(code) => Self::close(ctx, CloseCode::Other(code), "signed out"),
            Outbound::Membership {
                merchant_id,
                standing,
            } => {
                let Some(joined) = self.joined.as_ref() else {
                    return;
                };
                if joined.key.merchant_id != merchant_id {
                    return;
                }
                match standing {
                    None => Self::close(
                        ctx,
                        CloseCode::Other(sockets::REMOVED),
                        "removed from the team",
                    ),
                    Some(standing) => {
                        joined.merchant.do_send(Regranted {
                            session_id: self.socket_id.clone(),
                            grant: standing.grant,
                        });
                        Handler::<Outbound>::handle(self, Outbound::Regrant(standing), ctx);
                    }
                }
            }
            Outbound::Regrant(Standing { grant, role_name }) => {
                if let Some(joined) = self.joined.as_mut() {
                    joined.grant = grant;
                    joined.role_name = role_name.map(String::into_boxed_str);
                    let frame = ServerFrame::Access {
                        merchant: joined.view(),
                    };
                    Self::send(ctx, &frame);
                }
            }
        }
    }
}

impl SessionActor {
    fn on_binary(&mut self, bytes: &[u8], ctx: &mut ws::WebsocketContext<Self>) {
        match protocol::decode::<ClientFrame>(bytes) {
            // A Hello or Presence with text no record could hold is no
            // frame of the app's; commands and queries are answered field
            // by field instead.
            Ok(frame @ (ClientFrame::Hello { .. } | ClientFrame::Presence { .. }))
                if input_text::check(&frame).is_err() =>
            {
                Self::close(ctx, CloseCode::Invalid, "bad frame")
            }
            Ok(frame) => self.on_frame(frame, ctx),
            Err(_) => Self::close(ctx, CloseCode::Invalid, "bad frame"),
        }
    }

    fn too_big(&self, ctx: &mut ws::WebsocketContext<Self>) {
        self.security_event("socket closed: frame over the size limit");
        Self::close(ctx, CloseCode::Size, "frame too large");
    }
}

impl StreamHandler<Result<ws::Message, ws::ProtocolError>> for SessionActor {
    fn handle(&mut self, item: Result<ws::Message, ws::ProtocolError>, ctx: &mut Self::Context) {
        // Frames already read when the socket was closed are not served.
        if ctx.state() != ActorState::Running {
            return;
        }
        let now = Instant::now();
        self.heard.touch();
        if item.is_ok() && !self.budget.take(now) {
            self.security_event("socket closed: frame budget exceeded");
            return Self::close(ctx, CloseCode::Policy, "too many frames");
        }
        match item {
            Ok(ws::Message::Binary(bytes)) => self.on_binary(&bytes, ctx),
            Ok(ws::Message::Ping(payload)) => ctx.pong(&payload),
            Ok(ws::Message::Pong(_)) => {}
            Ok(ws::Message::Text(_)) => Self::close(
                ctx,
                CloseCode::Unsupported,
                "binary MessagePack frames only",
            ),
            Ok(ws::Message::Continuation(item)) => {
                match self.fragments.push(item, protocol::MAX_FRAME_BYTES) {
                    Gathered::Partial => {}
                    Gathered::Whole(bytes) => self.on_binary(&bytes, ctx),
                    Gathered::TooBig => self.too_big(ctx),
                    Gathered::Refused => Self::close(
                        ctx,
                        CloseCode::Unsupported,
                        "binary MessagePack frames only",
                    ),
                }
            }
            Ok(ws::Message::Close(reason)) => {
                ctx.close(reason);
                // Stop at once, or server shutdown waits out its timeout.
                ctx.stop();
            }
            Ok(ws::Message::Nop) => {}
            Err(ws::ProtocolError::Overflow) => self.too_big(ctx),
            Err(_) if self.oversize.tripped() => self.too_big(ctx),
            Err(err) => {
                tracing::debug!(error = %err, "socket protocol error");
                ctx.stop();
            }
        }
    }
}
