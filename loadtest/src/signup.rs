//! Signs up merchants over HTTP the way the web app does: fetch a CSRF token
//! (which sets its cookie), then post the sign-up form as JSON.

use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::cookie::{CookieStore, Jar};
use serde_json::json;

use crate::error::{Fallible, describe};
use crate::target::Target;

pub const PASSWORD: &str = "karoo-sunset-41";
/// Why a single HTTP step may take this long: argon2 hashing on a busy 2-core server.
const HTTP_TIMEOUT: Duration = Duration::from_secs(20);

/// A signed-up merchant owner: the `Cookie` header that carries their session.
#[derive(Debug, Clone)]
pub struct Merchant {
    pub email: String,
    pub cookie: String,
}

pub fn merchant_email(run: &str, index: usize) -> String {
    format!("load-{run}-{index}@example.co.za")
}

/// A merchant of a bare fan-out server: no account, the cookie names it.
pub fn bare_merchant(run: &str, index: usize) -> Merchant {
    Merchant {
        email: merchant_email(run, index),
        cookie: format!("session-token=bare-{run}-{index}"),
    }
}

pub async fn sign_up(target: &Target, run: &str, index: usize) -> Fallible<Merchant> {
    let email = merchant_email(run, index);
    let jar = Arc::new(Jar::default());
    let http = reqwest::Client::builder()
        .cookie_provider(jar.clone())
        // Only the given loopback URL: no proxy from the environment, no redirects.
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(HTTP_TIMEOUT)
        .build()?;

    let csrf: serde_json::Value = http
        .get(target.join("/api/auth/csrf")?)
        .send()
        .await
        .map_err(|err| format!("GET /api/auth/csrf: {}", describe(&err)))?
        .error_for_status()
        .map_err(|err| format!("GET /api/auth/csrf: {}", describe(&err)))?
        .json()
        .await
        .map_err(|err| format!("GET /api/auth/csrf: not JSON: {}", describe(&err)))?;
    let token = csrf["csrfToken"]
        .as_str()
        .ok_or("GET /api/auth/csrf: no csrfToken in the answer")?;

    let body = json!({
        "name": "Load Tester",
        "email": email,
        "password": PASSWORD,
        "businessName": format!("Load Merchant {index}"),
        "csrfToken": token,
    });
    let response = http
        .post(target.join("/api/auth/signup")?)
        .json(&body)
        .send()
        .await
        .map_err(|err| format!("sign-up of {email}: {}", describe(&err)))?;
    let status = response.status();
    if status == StatusCode::TOO_MANY_REQUESTS {
        return Err(format!(
            "sign-up of {email} refused (429): the server allows SIGNUP_LIMIT_PER_ADDRESS \
             sign-ups per address per 15 minutes (30 by default); restart it with a higher \
             limit or wait"
        )
        .into());
    }
    if status != StatusCode::OK {
        let text = response.text().await.unwrap_or_default();
        return Err(format!("sign-up of {email} failed ({status}): {text}").into());
    }

    let cookie = jar
        .cookies(&target.base)
        .and_then(|value| value.to_str().ok().map(str::to_string))
        .unwrap_or_default();
    if !cookie.contains("session-token=") {
        return Err(format!("sign-up of {email} returned no session cookie").into());
    }
    Ok(Merchant { email, cookie })
}
