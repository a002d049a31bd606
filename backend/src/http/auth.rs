//! The NextAuth-compatible authentication surface: csrf, providers, session,
//! credentials sign-in, sign-out and sign-up.

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};
use protocol::{ErrorCode, Language};
use serde_json::json;

use super::body::{AuthBody, Fields};
use super::client::client_address;
use super::cookies;
use super::return_address::return_path;
use crate::live::registry::announce_account;
use crate::state::State;
use paydesk::auth::{password, totp};
use paydesk::domain::accounts::send_verification;
use paydesk::domain::notices::Happened;
use paydesk::domain::rules;
use paydesk::domain::sign_in::{self, Failure};
use paydesk::error::{AppError, AppResult};
use paydesk::ids::hash_secret;
use paydesk::store::{accounts, sessions, users};

pub(super) const LOGIN_PAGE: &str = "/auth/login";

pub(super) fn no_store(status: StatusCode) -> HttpResponseBuilder {
    let mut builder = HttpResponse::build(status);
    builder.insert_header(("Cache-Control", "no-store"));
    builder
}

pub(super) fn internal(err: AppError) -> HttpResponse {
    if err.is_busy() {
        // The database had no turn for this request in time: nothing was
        // written, and the same request succeeds a moment later.
        tracing::warn!(error = %err, "auth request answered busy");
        return no_store(StatusCode::SERVICE_UNAVAILABLE)
            .insert_header(("Retry-After", "1"))
            .json(json!({"error": "busy"}));
    }
    tracing::error!(error = %err, "auth request failed");
    no_store(StatusCode::INTERNAL_SERVER_ERROR)
        .json(json!({"error": "Runtime error, check the console logs"}))
}

pub async fn csrf(state: State, req: HttpRequest) -> HttpResponse {
    let (token, set_cookies) = cookies::csrf_token(&state, &req);
    let mut response = no_store(StatusCode::OK);
    for cookie in set_cookies {
        response.cookie(cookie);
    }
    response.json(json!({"csrfToken": token}))
}

pub async fn providers(state: State) -> HttpResponse {
    no_store(StatusCode::OK).json(json!({
        "credentials": {
            "id": "credentials",
            "name": "Credentials",
            "type": "credentials",
            "signinUrl": state.config.auth_path("/signin/credentials"),
            "callbackUrl": state.config.auth_path("/callback/credentials"),
        },
        "email": {
            "id": "email",
            "name": "Email",
            "type": "email",
            "signinUrl": state.config.auth_path("/signin/email"),
            "callbackUrl": state.config.auth_path("/callback/email"),
        }
    }))
}

/// The signed-in user, or `{}`; always 200.
pub async fn session(state: State, req: HttpRequest) -> HttpResponse {
    let Some(token) = cookies::session_token(&state, &req) else {
        return no_store(StatusCode::OK).json(json!({}));
    };
    // A cookie that names no live session (made up, forged, expired or
    // revoked) is cleared, so the browser stops sending it.
    let signed_out = || {
        no_store(StatusCode::OK)
            .cookie(cookies::expired_session(&state))
            .json(json!({}))
    };
    let found = match sessions::find_live_session(
        &state.db,
        &token,
        state.config.session_ttl_seconds,
    )
    .await
    {
        Ok(found) => found,
        Err(err) => return internal(err),
    };
    let Some(session) = found else {
        return signed_out();
    };
    let user = match users::find_user(&state.db, &session.user_id).await {
        Ok(Some(user)) => user,
        Ok(None) => return signed_out(),
        Err(err) => return internal(err),
    };
    let expires = time::OffsetDateTime::from_unix_timestamp(session.expires_at / 1000)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default();
    no_store(StatusCode::OK).json(json!({
        "user": {"id": user.id, "name": user.name, "email": user.email},
        "expires": expires,
    }))
}

pub async fn sign_in(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = Fields::parse(&req, &body);
    if !cookies::csrf_ok(&state, &req, fields.get("csrfToken")).await {
        return no_store(StatusCode::FORBIDDEN)
            .json(json!({"url": format!("{LOGIN_PAGE}?csrf=true")}));
    }
    let callback = return_path(&state, &req, fields.get("callbackUrl"), "/");
    let email = fields.text("email").to_lowercase();
    let password = fields.get("password").unwrap_or_default().to_string();
    // A form sent half empty is no guess at anyone's password: no failure
    // is counted (against the shared empty address, or the account).
    if email.is_empty() || password.is_empty() {
        return no_store(StatusCode::BAD_REQUEST)
            .json(json!({"url": format!("{LOGIN_PAGE}?error=CredentialsSignin")}));
    }
    // Text no account could hold (a NUL, bytes that were not text, an
    // address longer than any account's) signs nobody in and guesses no
    // one's password: a failed sign-in, before the database is asked, and
    // nothing is counted.
    if fields
        .unstorable(&["email", "password", "code", "backupCode"])
        .is_some()
        || rules::at_most(&email, rules::EMAIL_MAX).is_err()
    {
        return no_store(StatusCode::UNAUTHORIZED)
            .json(json!({"url": format!("{LOGIN_PAGE}?error=CredentialsSignin")}));
    }
    let address_key = format!("address:{}", client_address(&req));
    // Counted in the database, so every node sees the same lockout.
    let account_failures = match sign_in::recent_failures(&state.db, &email).await {
        Ok(failures) => failures,
        Err(err) => return internal(err),
    };
    if account_failures >= state.config.signin_limit_per_account
        || state
            .throttle
            .is_blocked(&address_key, state.config.signin_limit_per_address)
    {
        tracing::warn!(address = %client_address(&req), "sign-in refused: too many failures");
        return no_store(StatusCode::TOO_MANY_REQUESTS)
            .json(json!({"url": format!("{LOGIN_PAGE}?error=TooManyAttempts")}));
    }
    let credentials = match users::find_credentials_by_email(&state.db, &email).await {
        Ok(found) => found,
        Err(err) => return internal(err),
    };
    let stored_hash = credentials.as_ref().map(|c| c.password_hash.clone());
    let valid = match password::verify_password(password, stored_hash).await {
        Ok(valid) => valid,
        Err(err) => return internal(err),
    };
    let Some(user) = credentials.filter(|_| valid) else {
        return refuse(&state, &req, &email, &address_key, Failure::WrongPassword).await;
    };
    match second_factor(
        &state,
        &user.id,
        fields.get("code"),
        fields.get("backupCode"),
    )
    .await
    {
        Ok(SecondFactor::NotNeeded | SecondFactor::Passed) => {}
        // A right password with no code yet is no failure: the form asks for one.
        Ok(SecondFactor::Missing) => {
            return no_store(StatusCode::UNAUTHORIZED)
                .json(json!({"url": format!("{LOGIN_PAGE}?error=TwoFactorRequired")}));
        }
        Ok(SecondFactor::Wrong) => {
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
    if account_failures > 0
        && let Err(err) = sign_in::forget_failures(&state.db, &email).await
    {
        return internal(err);
    }
    start_session(&state, &req, &user.id, callback).await
}

/// Counts a failure against the account and the address, waits longer the
/// more failures the account had (slowing guessing down), and answers with
/// the failure's error. The wait follows the account only, so colleagues
/// behind one office address do not slow each other down; the address still
/// has its own limit. The account's owner is mailed when the lockout starts
/// and when the right password came with a wrong second factor.
pub(super) async fn refuse(
    state: &State,
    req: &HttpRequest,
    email: &str,
    address_key: &str,
    failure: Failure,
) -> HttpResponse {
    let error = match failure {
        Failure::WrongPassword => "CredentialsSignin",
        Failure::WrongSecondFactor => "TwoFactorInvalid",
    };
    let address = client_address(req);
    let origin = state.config.public_origin();
    let happened = Happened {
        address: &address,
        public_origin: &origin,
    };
    state.throttle.record_failure(address_key);
    let limit = state.config.signin_limit_per_account;
    let user_agent = req
        .headers()
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let failures = match sign_in::record_failure(
        &state.db, email, failure, limit, &happened, user_agent,
    )
    .await
    {
        Ok((failures, entry)) => {
            if let Some(entry) = entry {
                announce_account(&state.db, &state.merchants, &entry).await;
            }
            failures
        }
        Err(err) => return internal(err),
    };
    tracing::info!(address = %address, error, "sign-in failed");
    let delay_ms = (100u64 << failures.saturating_sub(1).min(5)).min(2_000);
    tokio::time::sleep(std::time::Duration::from_millis(delay_ms)).await;
    no_store(StatusCode::UNAUTHORIZED).json(json!({"url": format!("{LOGIN_PAGE}?error={error}")}))
}

pub(super) enum SecondFactor {
    NotNeeded,
    Passed,
    Missing,
    Wrong,
}

/// With two-factor sign-in on, a current code (each accepted once) or an
/// unused backup code must come with the password.
pub(super) async fn second_factor(
    state: &State,
    user_id: &str,
    code: Option<&str>,
    backup_code: Option<&str>,
) -> AppResult<SecondFactor> {
    let Some(account) = accounts::find_account(&state.db, user_id).await? else {
        return Ok(SecondFactor::Wrong);
    };
    let Some(sealed) = &account.totp_secret else {
        return Ok(SecondFactor::NotNeeded);
    };
    let code = code.map(str::trim).filter(|c| !c.is_empty());
    let backup_code = backup_code.map(str::trim).filter(|c| !c.is_empty());
    let passed = match (code, backup_code) {
        (Some(code), _) => {
            let secret = state.keys.totp.open(user_id, sealed)?;
            match totp::matching_step(&secret, code, paydesk::domain::accounts::unix_seconds())? {
                Some(step) => accounts::accept_totp_step(&state.db, user_id, step as i64).await?,
                None => false,
            }
        }
        (None, Some(backup)) => {
            let candidates = state.keys.backup_codes.candidates(user_id, backup);
            accounts::use_backup_code(&state.db, user_id, &candidates).await?
        }
        (None, None) => return Ok(SecondFactor::Missing),
    };
    Ok(if passed {
        SecondFactor::Passed
    } else {
        SecondFactor::Wrong
    })
}

pub(super) async fn start_session(
    state: &State,
    req: &HttpRequest,
    user_id: &str,
    url: String,
) -> HttpResponse {
    match session_cookies(state, req, user_id).await {
        Ok(set) => {
            let mut response = no_store(StatusCode::OK);
            for cookie in set {
                response.cookie(cookie);
            }
            response.json(json!({"url": url}))
        }
        Err(response) => response,
    }
}

/// Starts a session for `user_id`: its cookie and, for a browser that has
/// not chosen an interface language, the one the user saved.
pub(super) async fn session_cookies(
    state: &State,
    req: &HttpRequest,
    user_id: &str,
) -> Result<Vec<Cookie<'static>>, HttpResponse> {
    let user_agent = req
        .headers()
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let (token, entry) = sessions::create_session(
        &state.db,
        user_id,
        state.config.session_ttl_seconds,
        user_agent,
        &client_address(req),
    )
    .await
    .map_err(internal)?;
    announce_account(&state.db, &state.merchants, &entry).await;
    let mut set = vec![cookies::session(state, token)];
    // The language the user saved follows them to a browser that has not
    // chosen one; a browser's own choice stays.
    if !cookies::has_locale(req)
        && let Some(language) = users::find_language(&state.db, user_id)
            .await
            .map_err(internal)?
    {
        set.push(cookies::locale(state, language));
    }
    Ok(set)
}

pub async fn sign_out(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = Fields::parse(&req, &body);
    if !cookies::csrf_ok(&state, &req, fields.get("csrfToken")).await {
        return no_store(StatusCode::BAD_REQUEST)
            .json(json!({"error": "Could not fetch CSRF Token for signing out"}));
    }
    if let Some(token) = cookies::session_token(&state, &req) {
        let token_hash = hash_secret(&token);
        if let Err(err) = sessions::delete_session(&state.db, &token_hash).await {
            return internal(err);
        }
        state.sockets.close_session(&token_hash);
    }
    let url = match fields.get("callbackUrl") {
        Some(_) => return_path(&state, &req, fields.get("callbackUrl"), "/"),
        None => LOGIN_PAGE.to_string(),
    };
    no_store(StatusCode::OK)
        .cookie(cookies::expired_session(&state))
        .json(json!({"url": url}))
}

pub(super) fn signup_error(
    status: StatusCode,
    code: ErrorCode,
    field: Option<&str>,
) -> HttpResponse {
    let mut error = json!({"code": code});
    if let Some(field) = field {
        error["field"] = json!(field);
    }
    no_store(status).json(json!({"error": error}))
}

pub async fn sign_up(state: State, req: HttpRequest, body: AuthBody) -> HttpResponse {
    let fields = Fields::parse(&req, &body);
    if !cookies::csrf_ok(&state, &req, fields.get("csrfToken")).await {
        return signup_error(StatusCode::FORBIDDEN, ErrorCode::CsrfInvalid, None);
    }
    let address_key = format!("signup:{}", client_address(&req));
    if state
        .throttle
        .is_blocked(&address_key, state.config.signup_limit_per_address)
    {
        return signup_error(StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, None);
    }
    if let Some((field, code)) = fields.unstorable(&["name", "businessName", "email", "password"]) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some(field));
    }
    let name = fields.text("name");
    let business_name = fields.text("businessName");
    let email = fields.text("email").to_lowercase();
    let password = fields.get("password").unwrap_or_default().to_string();
    let checks = [
        ("name", rules::name(&name, 64)),
        ("businessName", rules::name(&business_name, 64)),
        ("email", rules::email(&email)),
        ("password", password::check_new_password(&password)),
    ];
    if let Some((field, Err(code))) = checks.into_iter().find(|(_, result)| result.is_err()) {
        return signup_error(StatusCode::BAD_REQUEST, code, Some(field));
    }
    // Counted before the (slow) hash so a flood of sign-ups is throttled too.
    state.throttle.record_failure(&address_key);
    let password_hash = match password::hash_password(password).await {
        Ok(hash) => hash,
        Err(err) => return internal(err),
    };
    let account = users::NewAccount {
        name: &name,
        email: &email,
        password_hash: &password_hash,
        business_name: &business_name,
    };
    match users::create_account(&state.db, account).await {
        Ok(Some(user_id)) => {
            let language = request_language(&req);
            let welcome = async {
                accounts::update_profile(&state.db, &user_id, Some(&name), language).await?;
                send_verification(
                    &state.db,
                    &state.config.public_origin(),
                    &user_id,
                    &name,
                    &email,
                    language,
                )
                .await
            };
            // The account stands even if the link cannot be queued; it can be resent from the profile.
            if let Err(err) = welcome.await {
                tracing::error!(error = %err, "cannot queue the verification link");
            }
            start_session(&state, &req, &user_id, "/".into()).await
        }
        Ok(None) => signup_error(StatusCode::CONFLICT, ErrorCode::EmailTaken, Some("email")),
        Err(err) => internal(err),
    }
}

/// The language the visitor chose (the app's `locale` cookie), else their
/// browser's (Accept-Language, as the web app reads it too), else English.
pub(super) fn request_language(req: &HttpRequest) -> Language {
    crate::http::pay::words::language_of(req, None).0
}

pub async fn unknown() -> HttpResponse {
    no_store(StatusCode::NOT_FOUND).json(json!({"error": "Not found"}))
}
