//! What the API token and machine API tests share: making a token over the
//! socket as the merchant's owner, and reading its reply.

#![allow(dead_code)]

use crate::common::{Socket, error_of};
use protocol::{Access, ApiToken, Command, Mode, Permissions, ReplyBody, Section, ServerFrame};

/// The token and the secret of an `ApiTokenSecret` reply.
pub fn token_of(frame: ServerFrame) -> (ApiToken, Option<String>) {
    match frame {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokenSecret { token, secret, .. }),
            ..
        } => (*token, secret),
        ServerFrame::Reply {
            error: Some(error), ..
        } => panic!("expected a token, got {error:?}"),
        other => panic!("expected a token, got {other:?}"),
    }
}

/// A matrix with these sections at these accesses, the rest none.
pub fn grants(of: &[(Section, Access)]) -> Permissions {
    of.iter()
        .fold(Permissions::all(Access::None), |p, (s, a)| p.with(*s, *a))
}

pub fn create(name: &str, mode: Mode, permissions: Permissions) -> Command {
    Command::CreateApiToken {
        name: name.into(),
        mode,
        permissions,
        expires_at: None,
        allowed_addresses: Vec::new(),
    }
}

/// Makes a token on the socket's stream and returns it with its secret.
pub async fn make_token(
    socket: &mut Socket,
    id: &str,
    mode: Mode,
    permissions: Permissions,
) -> (ApiToken, String) {
    let (token, secret) = token_of(socket.command(id, create(id, mode, permissions)).await);
    (token, secret.expect("a new token's secret"))
}

pub fn code_of(frame: ServerFrame) -> protocol::ErrorCode {
    error_of(frame).code
}
