//! Links that arrive by mail: forgotten passwords and e-mail verification.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse};
use protocol::ErrorCode;
use serde_json::json;

use super::auth::{internal, no_store, signup_error};
use super::body::{AuthBody, Fields};
use super::client::client_address;
use super::cookies;
use crate::state::State;
use paydesk::auth::password;
use paydesk::domain::notices::Happened;
use paydesk::domain::{recovery, rules};
use paydesk::store::accounts;
use paydesk::store::links::{self, Purpose};

/// Refused mail-link requests (a dead or guessed token) and forgot requests
/// allowed per client address in the throttle window. Links that work do
/// not count: a team behind one office address, or several people joining
/// at once, must not lock each other out of their invites.
pub(super) const RECOVERY_LIMIT: u32 = 20;

pub(super) fn throttle_key(req: &HttpRequest) -> String {
    format!("recovery:{}", client_address(req))
}

/// Counts a refused token (or a forgot request, which mails) against the
/// client's address.
pub(super) fn count_against(state: &State, req: &HttpRequest) {
    state.throttle.record_failure(&throttle_key(req));
}

/// The body's fields, once its CSRF token is good and the client's address
/// is not throttled.
pub(super) async fn checked(
    state: &State,
    req: &HttpRequest,
    body: &[u8],
) -> Result<Fields, Box<HttpResponse>> {
    let fields = Fields::parse(req, body);
    if !cookies::csrf_ok(state, req, fields.get("csrfToken")).await {
        return Err(Box::new(signup_error(
            StatusCode::FORBIDDEN,
            ErrorCode::CsrfInvalid,
            None,
        )));
    }
    if state
        .throttle
        .is_blocked(&throttle_key(req), RECOVERY_LIMIT)
    {
        return Err(Box::new(signup_error(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            None,
        )));
    }
    Ok(fields)
}

/// A link's token with text no token has (`rules::storable`) finds no
/// link: the caller refuses it as a dead one.
pub(super) fn odd_token(fields: &Fields) -> bool {
    fields.unstorable(&["token"]).is_some()
}

/// `POST /forgot {email}`: always the same answer, at once. The address's
/// hourly quota of reset mails (`recovery::RESET_MAILS_PER_HOUR`, whichever
/// clients ask) is taken for every address alike; within it the link (if the
/// address has an account) is queued in the background, so neither the
/// answer nor its timing tells whether the address is known. Past it no
/// mail goes out.
pub async fn forgot(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    // Every forgot request counts: each may send a mail.
    count_against(&state, &req);
    let email = fields.text("email").to_lowercase();
    // No account has such an address: said of the field, which tells
    // nothing of who has an account.
    let odd = fields.unstorable(&["email"]).or_else(|| {
        let code = rules::at_most(&email, rules::EMAIL_MAX).err()?;
        Some(("email", code))
    });
    if let Some((field, code)) = odd {
        return signup_error(StatusCode::BAD_REQUEST, code, Some(field));
    }
    match recovery::take_reset_quota(&state.db, &email).await {
        Ok(true) => {
            let background = state.clone();
            actix_web::rt::spawn(async move {
                let origin = background.config.public_origin();
                if let Err(err) = recovery::send_reset_link(&background.db, &origin, &email).await {
                    tracing::error!(error = %err, "cannot queue a reset link");
                }
            });
        }
        Ok(false) => {}
        Err(err) => return internal(err),
    }
    no_store(StatusCode::OK).json(json!({"ok": true}))
}

/// `POST /reset {token, password}`: sets the new password once, signs every
/// session of the user out, lifts a sign-in lockout, tells the owner by
/// mail, and does not sign in.
pub async fn reset(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    if let Some((field, code)) = fields.unstorable(&["password"]) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some(field));
    }
    let password = fields.get("password").unwrap_or_default().to_string();
    if let Err(code) = password::check_new_password(&password) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some("password"));
    }
    if odd_token(&fields) {
        count_against(&state, &req);
        return signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None);
    }
    let hash = match password::hash_password(password).await {
        Ok(hash) => hash,
        Err(err) => return internal(err),
    };
    let token = fields.text("token");
    let address = client_address(&req);
    let origin = state.config.public_origin();
    let happened = Happened {
        address: &address,
        public_origin: &origin,
    };
    match recovery::reset_password(&state.db, &token, &hash, &happened).await {
        Ok(Some(ended)) => {
            for token_hash in ended {
                state.sockets.close_session(&token_hash);
            }
            no_store(StatusCode::OK).json(json!({"url": "/auth/login?reset=done"}))
        }
        Ok(None) => {
            count_against(&state, &req);
            signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None)
        }
        Err(err) => internal(err),
    }
}

/// `POST /reset/check {token}`: whether a reset link still works, so the
/// page can say a used or expired link is dead before the user types a new
/// password. Nothing is used up. A dead link counts against the address.
pub async fn check_reset(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    if odd_token(&fields) {
        count_against(&state, &req);
        return signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None);
    }
    match links::link_works(&state.db, &fields.text("token"), Purpose::ResetPassword).await {
        Ok(true) => no_store(StatusCode::OK).json(json!({"ok": true})),
        Ok(false) => {
            count_against(&state, &req);
            signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None)
        }
        Err(err) => internal(err),
    }
}

/// `POST /verify-email {token}`: confirms the address the link was sent to;
/// a pending new address then replaces the old one.
pub async fn verify_email(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    if odd_token(&fields) {
        count_against(&state, &req);
        return signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None);
    }
    let token = fields.text("token");
    let outcome = async {
        let mut tx = state.db.begin_write().await?;
        let Some((user_id, email)) = links::use_link(&mut tx, &token, Purpose::VerifyEmail).await?
        else {
            return Ok(None);
        };
        if !accounts::verify_email(&mut tx, &user_id, &email).await? {
            return Ok(None);
        }
        tx.commit().await?;
        Ok::<_, paydesk::error::AppError>(Some(email))
    };
    match outcome.await {
        Ok(Some(email)) => no_store(StatusCode::OK).json(json!({"ok": true, "email": email})),
        Ok(None) => {
            count_against(&state, &req);
            signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None)
        }
        Err(err) => internal(err),
    }
}
