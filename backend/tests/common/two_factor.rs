//! Two-factor sign-in turned on over the socket, as a person does it in
//! their profile, for the tests of steps that then ask for a code.

use paydesk::auth::totp;
use protocol::{Command, ReplyBody, ServerFrame};

use super::Socket;

pub fn now_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// Turns two-factor sign-in on for the socket's user: (secret, the code
/// that confirmed it, already used).
pub async fn enable_two_factor(tab: &mut Socket) -> (String, String) {
    let ServerFrame::Reply {
        ok: Some(ReplyBody::TwoFactorEnrolment { secret, .. }),
        ..
    } = tab.command("2fa-begin", Command::BeginTwoFactor {}).await
    else {
        panic!("no enrolment")
    };
    let code = totp::code_at(&secret, now_seconds()).expect("a code");
    let confirmed = tab
        .command(
            "2fa-confirm",
            Command::ConfirmTwoFactor { code: code.clone() },
        )
        .await;
    assert!(
        matches!(
            confirmed,
            ServerFrame::Reply {
                ok: Some(ReplyBody::BackupCodes { .. }),
                ..
            }
        ),
        "{confirmed:?}"
    );
    (secret, code)
}
