//! Double-submit CSRF tokens, as NextAuth does them: the cookie holds
//! `token|hmac(token)`, and a form (or header) must repeat `token`. The
//! HMAC also covers the browser's pre-session id (a cookie of its own), so
//! a cookie and token minted for one browser and planted in another (login
//! CSRF, sign-out CSRF) do not verify there.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::ids::new_secret;

pub const COOKIE: &str = "csrf-token";
/// The cookie naming the browser before (and beside) any session.
pub const PRE_SESSION_COOKIE: &str = "pre-session";

pub struct CsrfKey(Vec<u8>);

impl CsrfKey {
    pub fn new(secret: &str) -> CsrfKey {
        CsrfKey(secret.as_bytes().to_vec())
    }

    fn sign(&self, token: &str, browser: &str) -> String {
        // HMAC accepts keys of any length, so this cannot fail.
        let mut mac = match Hmac::<Sha256>::new_from_slice(&self.0) {
            Ok(mac) => mac,
            Err(_) => return String::new(),
        };
        // Neither part holds a `|` (both are URL-safe base64), so no two pairs sign alike.
        mac.update(token.as_bytes());
        mac.update(b"|");
        mac.update(browser.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// A fresh token for the browser whose pre-session is `browser`, and
    /// the cookie value that vouches for it.
    pub fn issue(&self, browser: &str) -> (String, String) {
        let token = new_secret();
        let cookie = format!("{token}|{}", self.sign(&token, browser));
        (token, cookie)
    }

    /// The token inside a cookie value, if the cookie is ours and was
    /// minted for `browser`.
    pub fn token_from_cookie(&self, cookie: &str, browser: &str) -> Option<String> {
        let (token, signature) = cookie.split_once('|')?;
        let expected = self.sign(token, browser);
        bool::from(expected.as_bytes().ct_eq(signature.as_bytes())).then(|| token.to_string())
    }

    /// Whether the submitted token matches the one the cookie vouches for,
    /// in the browser whose pre-session is `browser`.
    pub fn verify(&self, cookie: Option<&str>, submitted: Option<&str>, browser: &str) -> bool {
        if browser.is_empty() {
            return false;
        }
        match (
            cookie.and_then(|c| self.token_from_cookie(c, browser)),
            submitted,
        ) {
            (Some(token), Some(submitted)) if !submitted.is_empty() => {
                bool::from(token.as_bytes().ct_eq(submitted.as_bytes()))
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forged_or_foreign_token_is_refused() {
        let key = CsrfKey::new("k1");
        let (token, cookie) = key.issue("browser-a");
        let verify =
            |cookie: Option<&str>, token: Option<&str>| key.verify(cookie, token, "browser-a");
        assert!(verify(Some(&cookie), Some(&token)));
        assert!(!verify(Some(&cookie), Some("other")));
        assert!(!verify(None, Some(&token)));
        assert!(!verify(Some(&cookie), None));
        assert!(!CsrfKey::new("k2").verify(Some(&cookie), Some(&token), "browser-a"));
        assert!(!verify(Some(&format!("{token}|00")), Some(&token)));
    }

    #[test]
    fn a_pair_minted_for_one_browser_is_refused_in_another() {
        let key = CsrfKey::new("k1");
        let (token, cookie) = key.issue("browser-a");
        assert!(!key.verify(Some(&cookie), Some(&token), "browser-b"));
        assert!(!key.verify(Some(&cookie), Some(&token), ""));
        assert_eq!(key.token_from_cookie(&cookie, "browser-b"), None);
    }
}
