//! Signing in by a mailed link (NextAuth's e-mail provider): `POST
//! {base}/signin/email` mails it, `GET {base}/callback/email` follows it, and
//! `POST {base}/callback/email` finishes it with the code of a user who has
//! two-factor sign-in. The link's token is never logged (the access log
//! redacts query values) and only its hash is stored.

use std::collections::HashMap;

use actix_web::cookie::time::Duration;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;

use super::auth::{
    LOGIN_PAGE, SecondFactor, internal, no_store, refuse, second_factor, session_cookies,
    signup_error, start_session,
};
use super::body::AuthBody;
use super::client::client_address;
use super::cookies;
use super::recovery::{RECOVERY_LIMIT, checked, count_against, throttle_key};
use super::return_address::return_path;
use crate::security_log::{self, Client};
use crate::state::State;
use paydesk::domain::email_sign_in::{self, LinkTarget};
use paydesk::domain::rules;
use paydesk::domain::sign_in::Failure;
use paydesk::store::accounts;

/// How long a followed link waits for the second factor.
const PENDING_MINUTES: i64 = 10;

fn dead_link() -> String {
    format!("{LOGIN_PAGE}?error=Verification")
}

fn redirect(to: &str) -> actix_web::HttpResponseBuilder {
    let mut response = no_store(StatusCode::SEE_OTHER);
    response.insert_header(("Location", to.to_string()));
    response
}

/// `POST /signin/email {email, callbackUrl}`: the same answer at once for
/// any address. Within the address's hourly quota a link is queued in the
/// background when it has an account, so neither the answer nor its timing
/// tells whether it does.
pub async fn request(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    // Every request counts against the client: each may send a mail.
    count_against(&state, &req);
    if let Some((field, code)) = fields.unstorable(&["email"]) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some(field));
    }
    let email = fields.text("email").to_lowercase();
    if let Err(code) = rules::email(&email) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some("email"));
    }
    let then = return_path(&state, &req, fields.get("callbackUrl"), "/");
    match email_sign_in::take_quota(&state.db, &email).await {
        Ok(true) => {
            let background = state.clone();
            actix_web::rt::spawn(async move {
                let origin = background.config.public_origin();
                let callback_path = background.config.auth_path("/callback/email");
                let target = LinkTarget {
                    public_origin: &origin,
                    callback_path: &callback_path,
                    then: &then,
                };
                if let Err(err) = email_sign_in::send_link(&background.db, &email, &target).await {
                    tracing::error!(error = %err, "cannot queue a sign-in link");
                }
            });
        }
        Ok(false) => {}
        Err(err) => return internal(err),
    }
    no_store(StatusCode::OK).json(json!({"ok": true}))
}

/// A link that is made up, used, expired or for another address: counted
/// against the client like any dead mail link, and logged as refused.
fn refused_link(state: &State, req: &HttpRequest) {
    count_against(state, req);
    let client = Client::new(None, &client_address(req));
    security_log::refused(&client, "sign_in_link", "a dead or foreign sign-in link");
}

/// `GET /callback/email?token&email&callbackUrl`: signs in once and lands on
/// the page asked for. A user with two-factor sign-in is sent to the sign-in
/// page for their code, the link kept (unused) in a short-lived cookie.
pub async fn follow(
    state: State,
    req: HttpRequest,
    query: web::Query<HashMap<String, String>>,
) -> HttpResponse {
    if state
        .throttle
        .is_blocked(&throttle_key(&req), RECOVERY_LIMIT)
    {
        return redirect(&format!("{LOGIN_PAGE}?error=TooManyAttempts")).finish();
    }
    let token = query.get("token").map(String::as_str).unwrap_or_default();
    let email = query.get("email").map(String::as_str).unwrap_or_default();
    let then = return_path(
        &state,
        &req,
        query.get("callbackUrl").map(String::as_str),
        "/",
    );
    if rules::storable(token, 128).is_err() || rules::storable(email, rules::EMAIL_MAX).is_err() {
        refused_link(&state, &req);
        return redirect(&dead_link()).finish();
    }
    let user_id = match email_sign_in::holder(&state.db, token, email).await {
        Ok(Some(user_id)) => user_id,
        Ok(None) => {
            refused_link(&state, &req);
            return redirect(&dead_link()).finish();
        }
        Err(err) => return internal(err),
    };
    let two_factor = match accounts::find_account(&state.db, &user_id).await {
        Ok(account) => account.is_some_and(|a| a.totp_secret.is_some()),
        Err(err) => return internal(err),
    };
    if two_factor {
        let held = serde_urlencoded::to_string([
            ("token", token),
            ("email", email),
            ("callbackUrl", then.as_str()),
        ])
        .unwrap_or_default();
        return redirect(&format!("{LOGIN_PAGE}?error=TwoFactorRequired&via=email"))
            .cookie(cookies::pending_link(
                &state,
                held,
                Duration::minutes(PENDING_MINUTES),
            ))
            .finish();
    }
    match email_sign_in::use_link(&state.db, token, email).await {
        Ok(Some(user_id)) => match session_cookies(&state, &req, &user_id).await {
            Ok(set) => {
                let mut response = redirect(&then);
                for cookie in set {
                    response.cookie(cookie);
                }
                response.finish()
            }
            Err(response) => response,
        },
        // Used by a second request that raced this one.
        Ok(None) => {
            refused_link(&state, &req);
            redirect(&dead_link()).finish()
        }
        Err(err) => internal(err),
    }
}

/// `POST /callback/email {code | backupCode}`: the second factor after a
/// followed link. A wrong code counts as a failed sign-in of the account.
pub async fn finish(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = match checked(&state, &req, &body).await {
        Ok(fields) => fields,
        Err(response) => return *response,
    };
    let held: HashMap<String, String> = cookies::pending_link_value(&state, &req)
        .and_then(|value| serde_urlencoded::from_str(&value).ok())
        .unwrap_or_default();
    let field = |name: &str| held.get(name).cloned().unwrap_or_default();
    let (token, email, then) = (field("token"), field("email"), field("callbackUrl"));
    let then = return_path(&state, &req, Some(&then), "/");
    let gone = |state: &State| {
        no_store(StatusCode::BAD_REQUEST)
            .cookie(cookies::pending_link(state, String::new(), Duration::ZERO))
            .json(json!({"url": dead_link()}))
    };
    let user_id = match email_sign_in::holder(&state.db, &token, &email).await {
        Ok(Some(user_id)) => user_id,
        Ok(None) => {
            refused_link(&state, &req);
            return gone(&state);
        }
        Err(err) => return internal(err),
    };
    match second_factor(
        &state,
        &user_id,
        fields.get("code"),
        fields.get("backupCode"),
    )
    .await
    {
        Ok(SecondFactor::NotNeeded | SecondFactor::Passed) => {}
        Ok(SecondFactor::Missing) => {
            return no_store(StatusCode::UNAUTHORIZED).json(json!({
                "url": format!("{LOGIN_PAGE}?error=TwoFactorRequired&via=email")
            }));
        }
        Ok(SecondFactor::Wrong) => {
            let address_key = format!("address:{}", client_address(&req));
            return refuse(
                &state,
                &req,
                &email,
                &address_key,
                Failure::WrongSecondFactor,
            )
            .await;
        }
        Err(err) => return internal(err),
    }
    match email_sign_in::use_link(&state.db, &token, &email).await {
        Ok(Some(user_id)) => {
            let mut response = start_session(&state, &req, &user_id, then).await;
            // The link is used: the cookie that held it goes (it would lapse anyway).
            let spent = cookies::pending_link(&state, String::new(), Duration::ZERO);
            if let Err(err) = response.add_cookie(&spent) {
                tracing::warn!(error = %err, "cannot clear the followed sign-in link's cookie");
            }
            response
        }
        Ok(None) => {
            refused_link(&state, &req);
            gone(&state)
        }
        Err(err) => internal(err),
    }
}
