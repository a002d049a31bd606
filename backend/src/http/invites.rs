//! The invite link: what it is for, accepting it signed in, and signing up
//! from it. The token travels in the request body (never the URL), like
//! the other secret links.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use paydesk::auth::password;
use paydesk::domain::invites::{self, Joined, Joiner};
use paydesk::domain::rules;
use paydesk::error::AppError;
use paydesk::store::stream::StreamKey;
use paydesk::store::{sessions, users};
use protocol::{ErrorCode, Mode};
use serde_json::json;

use super::auth::{internal, no_store, request_language, signup_error, start_session};
use super::body::AuthBody;
use super::client::client_address;
use super::cookies;
use super::recovery::{checked, count_against, odd_token};
use crate::state::State;

/// A refusal the invite page shows in words of its own.
/// The answer to an invite the server refused. A dead or unknown link
/// counts against the client's address (`recovery::count_against`); a
/// working link does not.
fn refused(state: &State, req: &HttpRequest, err: AppError) -> HttpResponse {
    if matches!(err, AppError::Code(ErrorCode::InviteInvalid)) {
        count_against(state, req);
    }
    match err {
        AppError::Code(code) => {
            let status = match code {
                ErrorCode::InviteWrongAddress => StatusCode::FORBIDDEN,
                ErrorCode::AlreadyMember => StatusCode::CONFLICT,
                _ => StatusCode::BAD_REQUEST,
            };
            signup_error(status, code, None)
        }
        AppError::Invalid(fields) => match fields.first() {
            Some(field) => signup_error(StatusCode::BAD_REQUEST, field.code, Some(&field.field)),
            None => signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidInput, None),
        },
        other => internal(other),
    }
}

/// The merchant's open tabs hear of the new member at once.
fn published(state: &State, joined: &Joined) {
    if let Some(seq) = joined.seq {
        let key = StreamKey::new(joined.merchant_id.clone(), Mode::Live);
        state.merchants.advance(&key, seq);
    }
}

/// What the invite page shows: the business, the address it is for, the
/// role, who sent it, until when, and whether that address has an account.
pub async fn details(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    if odd_token(&fields) {
        return refused(&state, &req, AppError::Code(ErrorCode::InviteInvalid));
    }
    let now = state.config.invite_clock.now();
    match invites::details(&state.db, &fields.text("token"), now).await {
        Ok(details) => no_store(StatusCode::OK).json(details),
        Err(err) => refused(&state, &req, err),
    }
}

/// A signed-in user accepts: only with the invited address.
pub async fn accept(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    if odd_token(&fields) {
        return refused(&state, &req, AppError::Code(ErrorCode::InviteInvalid));
    }
    let Some(token) = cookies::session_token(&state, &req) else {
        return signup_error(StatusCode::UNAUTHORIZED, ErrorCode::Unauthenticated, None);
    };
    let ttl = state.config.session_ttl_seconds;
    let session = match sessions::find_live_session(&state.db, &token, ttl).await {
        Ok(Some(session)) => session,
        Ok(None) => {
            return signup_error(StatusCode::UNAUTHORIZED, ErrorCode::Unauthenticated, None);
        }
        Err(err) => return internal(err),
    };
    let user = match users::find_user(&state.db, &session.user_id).await {
        Ok(Some(user)) => user,
        Ok(None) => {
            return signup_error(StatusCode::UNAUTHORIZED, ErrorCode::Unauthenticated, None);
        }
        Err(err) => return internal(err),
    };
    let joiner = Joiner::SignedIn {
        user_id: &user.id,
        email: &user.email,
        session_id: &session.public_id,
    };
    let now = state.config.invite_clock.now();
    let address = client_address(&req);
    match invites::join(&state.db, &fields.text("token"), joiner, &address, now).await {
        Ok(joined) => {
            published(&state, &joined);
            no_store(StatusCode::OK).json(json!({"merchantId": joined.merchant_id}))
        }
        Err(err) => refused(&state, &req, err),
    }
}

/// A visitor with no account signs up from the invite: the address is the
/// invited one (and so counts as verified); they join no business of
/// their own, only this team.
pub async fn sign_up(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    if let Some((field, code)) = fields.unstorable(&["name", "password"]) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some(field));
    }
    if odd_token(&fields) {
        return refused(&state, &req, AppError::Code(ErrorCode::InviteInvalid));
    }
    let name = fields.text("name");
    let password = fields.get("password").unwrap_or_default().to_string();
    let checks = [
        ("name", rules::name(&name, 64)),
        ("password", password::check_new_password(&password)),
    ];
    if let Some((field, Err(code))) = checks.into_iter().find(|(_, result)| result.is_err()) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some(field));
    }
    let token = fields.text("token");
    let now = state.config.invite_clock.now();
    // A dead link is refused before the (slow) hash.
    if let Err(err) = invites::details(&state.db, &token, now).await {
        return refused(&state, &req, err);
    }
    let password_hash = match password::hash_password(password).await {
        Ok(hash) => hash,
        Err(err) => return internal(err),
    };
    let joiner = Joiner::New {
        name: &name,
        password_hash: &password_hash,
        language: request_language(&req),
    };
    let address = client_address(&req);
    match invites::join(&state.db, &token, joiner, &address, now).await {
        Ok(joined) => {
            published(&state, &joined);
            start_session(&state, &req, &joined.user_id, "/".into()).await
        }
        Err(err) => refused(&state, &req, err),
    }
}
