//! Links that arrive by mail: forgotten passwords and e-mail verification.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use protocol::ErrorCode;
use serde_json::json;

use super::auth::{client_address, internal, no_store, signup_error};
use super::body::{Fields, MAX_AUTH_BODY};
use super::cookies;
use crate::state::State;
use paydesk::auth::password;
use paydesk::domain::mail::{Template, compose};
use paydesk::error::AppResult;
use paydesk::store::links::{self, Purpose};
use paydesk::store::{accounts, mail, sessions, users};

/// Reset links live three days.
const RESET_SECONDS: i64 = 259_200;
/// Forgot and reset requests allowed per client address in the throttle window.
const RECOVERY_LIMIT: u32 = 20;

fn checked(state: &State, req: &HttpRequest, body: &[u8]) -> Result<Fields, Box<HttpResponse>> {
    if body.len() > MAX_AUTH_BODY {
        return Err(Box::new(no_store(StatusCode::PAYLOAD_TOO_LARGE).finish()));
    }
    let fields = Fields::parse(req, body);
    if !cookies::csrf_ok(state, req, fields.get("csrfToken")) {
        return Err(Box::new(signup_error(
            StatusCode::FORBIDDEN,
            ErrorCode::CsrfInvalid,
            None,
        )));
    }
    let key = format!("recovery:{}", client_address(req));
    if state.throttle.is_blocked(&key, RECOVERY_LIMIT) {
        return Err(Box::new(signup_error(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            None,
        )));
    }
    state.throttle.record_failure(&key);
    Ok(fields)
}

/// `POST /forgot {email}`: always the same answer, at once; the link (if
/// the address has an account) is queued in the background, so neither the
/// answer nor its timing tells whether the address is known.
pub async fn forgot(state: State, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let fields = match checked(&state, &req, &body) {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    let email = fields.text("email").to_lowercase();
    let background = state.clone();
    actix_web::rt::spawn(async move {
        if let Err(err) = queue_reset_link(&background, &email).await {
            tracing::error!(error = %err, "cannot queue a reset link");
        }
    });
    no_store(StatusCode::OK).json(json!({"ok": true}))
}

async fn queue_reset_link(state: &State, email: &str) -> AppResult<()> {
    let Some(user) = users::find_credentials_by_email(&state.db, email).await? else {
        return Ok(());
    };
    let Some(account) = accounts::find_account(&state.db, &user.id).await? else {
        return Ok(());
    };
    let mut tx = state.db.begin_write().await?;
    let token = links::create_link(
        &mut tx,
        &account.id,
        Purpose::ResetPassword,
        &account.email,
        RESET_SECONDS,
    )
    .await?;
    // Built from the configured public origin, never from the request's Host.
    let link = format!("{}/auth/reset/{token}", state.config.public_origin());
    let message = compose(
        Template::ResetPassword,
        account.language,
        &account.email,
        &account.name,
        &account.email,
        &link,
    );
    mail::enqueue(&mut tx, &message).await?;
    tx.commit().await?;
    Ok(())
}

/// `POST /reset {token, password}`: sets the new password once, signs every
/// session of the user out, and does not sign in.
pub async fn reset(state: State, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let fields = match checked(&state, &req, &body) {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    let password = fields.get("password").unwrap_or_default().to_string();
    if let Err(code) = password::check_new_password(&password) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some("password"));
    }
    let hash = match password::hash_password(password).await {
        Ok(hash) => hash,
        Err(err) => return internal(err),
    };
    let token = fields.text("token");
    let outcome = async {
        let mut tx = state.db.begin_write().await?;
        let Some((user_id, _)) = links::use_link(&mut tx, &token, Purpose::ResetPassword).await?
        else {
            return Ok(None);
        };
        accounts::set_password_hash(&mut tx, &user_id, &hash).await?;
        let ended = sessions::delete_other_sessions(&mut tx, &user_id, None).await?;
        tx.commit().await?;
        Ok::<_, paydesk::error::AppError>(Some(ended))
    };
    match outcome.await {
        Ok(Some(ended)) => {
            for token_hash in ended {
                state.sockets.close_session(&token_hash);
            }
            no_store(StatusCode::OK).json(json!({"url": "/auth/login?reset=done"}))
        }
        Ok(None) => signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None),
        Err(err) => internal(err),
    }
}

/// `POST /verify-email {token}`: confirms the address the link was sent to;
/// a pending new address then replaces the old one.
pub async fn verify_email(state: State, req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let fields = match checked(&state, &req, &body) {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
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
        Ok(None) => signup_error(StatusCode::BAD_REQUEST, ErrorCode::InvalidToken, None),
        Err(err) => internal(err),
    }
}
