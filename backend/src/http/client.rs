//! Who is asking, as far as the server can know it itself.

use actix_web::HttpRequest;

/// The client address for throttling: the TCP peer, never a forwarded header
/// a client could forge.
pub(crate) fn client_address(req: &HttpRequest) -> String {
    req.peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_default()
}
