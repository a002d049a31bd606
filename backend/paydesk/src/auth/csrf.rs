//! Double-submit CSRF tokens, as NextAuth does them: the cookie holds
//! `token|hmac(token)`, and a form (or header) must repeat `token`.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::ids::new_secret;

pub const COOKIE: &str = "csrf-token";

pub struct CsrfKey(Vec<u8>);

impl CsrfKey {
    pub fn new(secret: &str) -> CsrfKey {
        CsrfKey(secret.as_bytes().to_vec())
    }

    fn sign(&self, token: &str) -> String {
        // HMAC accepts keys of any length, so this cannot fail.
        let mut mac = match Hmac::<Sha256>::new_from_slice(&self.0) {
            Ok(mac) => mac,
            Err(_) => return String::new(),
        };
        mac.update(token.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// A fresh token and the cookie value that vouches for it.
    pub fn issue(&self) -> (String, String) {
        let token = new_secret();
        let cookie = format!("{token}|{}", self.sign(&token));
        (token, cookie)
    }

    /// The token inside a cookie value, if the cookie is ours.
    pub fn token_from_cookie(&self, cookie: &str) -> Option<String> {
        let (token, signature) = cookie.split_once('|')?;
        let expected = self.sign(token);
        bool::from(expected.as_bytes().ct_eq(signature.as_bytes())).then(|| token.to_string())
    }

    /// Whether the submitted token matches the one the cookie vouches for.
    pub fn verify(&self, cookie: Option<&str>, submitted: Option<&str>) -> bool {
        match (cookie.and_then(|c| self.token_from_cookie(c)), submitted) {
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
        let (token, cookie) = key.issue();
        assert!(key.verify(Some(&cookie), Some(&token)));
        assert!(!key.verify(Some(&cookie), Some("other")));
        assert!(!key.verify(None, Some(&token)));
        assert!(!key.verify(Some(&cookie), None));
        assert!(!CsrfKey::new("k2").verify(Some(&cookie), Some(&token)));
        assert!(!key.verify(Some(&format!("{token}|00")), Some(&token)));
    }
}
