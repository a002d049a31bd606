//! Standard Webhooks signing (<https://www.standardwebhooks.com>): a secret
//! is `whsec_` and the base64 of 32 random bytes; a delivery carries
//! `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`,
//! `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the
//! secret's bytes, one per secret (space-separated) while a rolled secret
//! is still honoured. Every Standard Webhooks verifier checks it unchanged.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::error::{AppError, AppResult};

pub const SECRET_PREFIX: &str = "whsec_";

/// A new signing secret, shown to the merchant once.
pub fn new_signing_secret() -> AppResult<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
    Ok(format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes)))
}

/// The `webhook-signature` header for a delivery: one `v1,` signature per
/// secret, current first.
pub fn signature_header(
    secrets: &[&str],
    id: &str,
    timestamp: i64,
    body: &str,
) -> AppResult<String> {
    let signatures = secrets
        .iter()
        .map(|secret| sign(secret, id, timestamp, body))
        .collect::<AppResult<Vec<_>>>()?;
    Ok(signatures.join(" "))
}

fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> AppResult<String> {
    let key = STANDARD
        .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret))
        .map_err(|_| AppError::Internal("a webhook secret is not base64".into()))?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key)
        .map_err(|_| AppError::Internal("a webhook secret has no bytes".into()))?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    Ok(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The example of the Standard Webhooks specification's reference
    /// libraries: this secret, id, time and body give this signature.
    #[test]
    fn signs_like_the_reference_libraries() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = r#"{"test": 2432232314}"#;
        let header =
            signature_header(&[secret], "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).unwrap();
        assert_eq!(header, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn a_roll_signs_with_both_secrets() {
        let (a, b) = (new_signing_secret().unwrap(), new_signing_secret().unwrap());
        let both = signature_header(&[&a, &b], "msg_1", 1, "{}").unwrap();
        let parts: Vec<_> = both.split(' ').collect();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0], signature_header(&[&a], "msg_1", 1, "{}").unwrap());
        assert!(a.starts_with(SECRET_PREFIX));
    }
}
