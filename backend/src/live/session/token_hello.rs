//! `Hello` on a socket an API token opened: it joins the token's own
//! stream (its merchant and mode) and nothing else.

use actix::prelude::*;
use actix_web_actors::ws::{self, CloseCode};
use protocol::{MerchantView, Mode, Resume, Role, UserView};

use super::SessionActor;
use super::hello::Joining;
use crate::security_log;
use paydesk::domain::api_tokens::authenticate::TokenAccess;
use paydesk::store::api_tokens as token_store;
use paydesk::store::stream::StreamKey;

impl SessionActor {
    pub(super) fn token_hello(
        &mut self,
        access: TokenAccess,
        resume: Option<Resume>,
        merchant_id: Option<String>,
        mode: Option<Mode>,
        ctx: &mut ws::WebsocketContext<Self>,
    ) {
        let wrong_merchant = merchant_id.is_some_and(|id| id != access.merchant_id);
        if wrong_merchant || mode.is_some_and(|m| m != access.mode) {
            let detail = "token socket's Hello for another merchant or mode";
            security_log::refused(&self.client(), "foreign_merchant", detail);
            return Self::close(ctx, CloseCode::Policy, "not this token's merchant or mode");
        }
        let db = self.state.db.clone();
        let token_id = access.token_id.clone();
        let lookup = async move { token_store::names(&db, &token_id).await };
        ctx.wait(lookup.into_actor(self).map(move |result, actor, ctx| {
            let Ok(Some((token_name, merchant_name))) = result else {
                return Self::close(ctx, CloseCode::Policy, "unknown token");
            };
            let key = StreamKey::new(access.merchant_id.clone(), access.mode);
            let merchant = MerchantView {
                id: access.merchant_id.clone(),
                name: merchant_name,
                role: Role::Custom,
                role_name: Some(token_name.clone()),
                permissions: access.permissions,
            };
            // The token stands where a person would: its id and name.
            let user = UserView {
                id: access.token_id.clone(),
                name: token_name,
                email: String::new(),
            };
            let joining = Joining {
                key,
                user,
                merchants: vec![merchant.clone()],
                merchant,
                resume,
                grant: access.grant(),
                must_enrol: false,
                token_id: Some(access.token_id.clone()),
            };
            actor.join_stream(joining, ctx);
        }));
    }
}
