//! `Hello` on a person's socket: the merchant they asked for (or their
//! first), if they are a member, and whether they must enrol in two-factor
//! sign-in first. Both kinds of socket join a stream through `join_stream`.

use actix::prelude::*;
use actix_web_actors::ws::{self, CloseCode};
use protocol::{MerchantView, Mode, Resume, UserView};

use super::{Joined, SessionActor};
use crate::live::messages::Join;
use crate::live::sockets;
use crate::security_log;
use paydesk::domain::permissions::Grant;
use paydesk::store::stream::StreamKey;
use paydesk::store::{business, users};

/// What a socket joins a stream with, from either kind of `Hello`.
pub(super) struct Joining {
    pub key: StreamKey,
    pub user: UserView,
    pub merchant: MerchantView,
    pub merchants: Vec<MerchantView>,
    pub resume: Option<Resume>,
    pub grant: Grant,
    pub must_enrol: bool,
    /// The API token that opened the socket, if not a person.
    pub token_id: Option<String>,
}

impl SessionActor {
    /// Opens (or switches to) a merchant stream. Blocks the socket's other
    /// frames until joined, so nothing runs against the wrong merchant.
    pub(super) fn hello(
        &mut self,
        resume: Option<Resume>,
        merchant_id: Option<String>,
        mode: Option<Mode>,
        ctx: &mut ws::WebsocketContext<Self>,
    ) {
        if let Some(access) = self.api.clone() {
            return self.token_hello(*access, resume, merchant_id, mode, ctx);
        }
        let db = self.state.db.clone();
        let user_id = self.user_id.clone();
        let asked_for = merchant_id.clone();
        let openings = self.state.openings.clone();
        let lookup = async move {
            // Never closed: the look-up waits for a free permit and runs.
            let _opening = openings.acquire_owned().await.ok();
            let Some((user, enrolled)) = users::find_user_and_enrolment(&db, &user_id).await?
            else {
                return Ok(None);
            };
            let merchants = users::find_memberships(&db, &user_id).await?;
            // Only merchants the user belongs to; a foreign id is refused outright.
            let chosen = match &merchant_id {
                Some(id) => merchants.iter().find(|m| &m.id == id).cloned(),
                None => merchants.first().cloned(),
            };
            let mut must_enrol = false;
            if let Some(merchant) = &chosen
                && !enrolled
            {
                must_enrol = business::requires_two_factor(&db, &merchant.id).await?;
            }
            Ok::<_, paydesk::error::AppError>(Some((user, merchants, chosen, must_enrol)))
        };
        ctx.wait(lookup.into_actor(self).map(move |result, actor, ctx| {
            let (user, merchants, chosen, must_enrol) = match result {
                Ok(Some(found)) => found,
                Ok(None) => return Self::close(ctx, CloseCode::Policy, "unknown user"),
                Err(err) => {
                    tracing::error!(error = %err, "hello failed");
                    return Self::close(ctx, CloseCode::Error, "internal error");
                }
            };
            let Some(merchant) = chosen else {
                let Some(asked_for) = &asked_for else {
                    let code = CloseCode::Other(sockets::NO_TEAM);
                    return Self::close(ctx, code, "not a member of any team");
                };
                let detail = format!("Hello for merchant {asked_for}, not one of theirs");
                security_log::refused(&actor.client(), "foreign_merchant", &detail);
                let code = CloseCode::Other(sockets::NOT_ON_TEAM);
                return Self::close(ctx, code, "not a member of that merchant");
            };
            let joining = Joining {
                key: StreamKey {
                    merchant_id: merchant.id.clone(),
                    mode: mode.unwrap_or(Mode::Live),
                },
                user,
                grant: Grant {
                    role: merchant.role,
                    permissions: merchant.permissions,
                },
                merchant,
                merchants,
                resume,
                must_enrol,
                token_id: None,
            };
            actor.join_stream(joining, ctx);
        }));
    }

    /// Leaves the stream the socket is on, if any, and joins `joining.key`:
    /// the merchant actor sends the `Welcome` and what was missed, and the
    /// socket decides by `joining.grant` from now on.
    pub(super) fn join_stream(&mut self, joining: Joining, ctx: &mut ws::WebsocketContext<Self>) {
        self.leave_stream();
        let addr =
            self.state
                .merchants
                .actor_for(joining.key.clone(), &self.state.db, self.state.clock);
        addr.do_send(Join {
            session_id: self.socket_id.clone(),
            user_id: self.user_id.clone(),
            outbox: self.outbox(ctx),
            user: joining.user,
            merchant: joining.merchant.clone(),
            merchants: joining.merchants,
            resume: joining.resume,
            build: self.state.build_id(),
            token_id: joining.token_id,
        });
        self.joined = Some(Joined::new(
            joining.key,
            addr,
            joining.grant,
            joining.merchant,
            joining.must_enrol,
        ));
    }
}
