//! Time-based one-time codes (RFC 6238): 30-second steps, six digits, one
//! step of clock skew either way. Which step a code matched is returned so
//! the caller can refuse a code it already accepted.

use totp_rs::{Builder, Secret, Totp};

use crate::error::{AppError, AppResult};

const ISSUER: &str = "Paydesk";

fn totp(secret_base32: &str, account: &str) -> AppResult<Totp> {
    let secret = Secret::try_from_base32(secret_base32)
        .map_err(|e| AppError::Internal(format!("totp secret: {e}")))?;
    Builder::new()
        .with_secret(secret)
        .with_account_name(account)
        .with_issuer(Some(ISSUER))
        .build()
        .map_err(|e| AppError::Internal(format!("totp: {e}")))
}

/// A new random secret, base32 as authenticator apps expect it.
pub fn new_secret() -> AppResult<String> {
    let mut bytes = [0u8; 20];
    getrandom::fill(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
    Ok(Secret::from(bytes).to_base32())
}

/// The `otpauth://` link an authenticator app reads from the QR code.
pub fn otpauth_url(secret_base32: &str, account: &str) -> AppResult<String> {
    totp(secret_base32, account)?
        .to_url()
        .map_err(|e| AppError::Internal(format!("otpauth url: {e}")))
}

/// The time step `code` is valid for at `unix_seconds`, if any.
pub fn matching_step(secret_base32: &str, code: &str, unix_seconds: u64) -> AppResult<Option<u64>> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    Ok(totp(secret_base32, "")?.check(&code, unix_seconds))
}

/// The code for a moment (tests compute codes the way an app would).
pub fn code_at(secret_base32: &str, unix_seconds: u64) -> AppResult<String> {
    Ok(totp(secret_base32, "")?.generate(unix_seconds).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_their_step_and_one_step_either_side() -> AppResult<()> {
        let secret = new_secret()?;
        let now = 1_800_000_000;
        let code = code_at(&secret, now)?;
        assert_eq!(matching_step(&secret, &code, now)?, Some(now / 30));
        assert_eq!(
            matching_step(&secret, &code, now + 30)?,
            Some(now / 30),
            "one step late is accepted"
        );
        assert_eq!(
            matching_step(&secret, &code, now - 30)?,
            Some(now / 30),
            "one step early is accepted"
        );
        assert_eq!(
            matching_step(&secret, &code, now + 90)?,
            None,
            "three steps late is not"
        );
        assert_eq!(matching_step(&secret, "12345", now)?, None);
        assert_eq!(matching_step(&secret, "abcdef", now)?, None);
        assert!(otpauth_url(&secret, "thandi@example.co.za")?.starts_with("otpauth://totp/"));
        Ok(())
    }
}
