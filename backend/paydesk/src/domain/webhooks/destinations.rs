//! Where a webhook may be sent. A merchant could otherwise point an
//! endpoint at our own network (the database, a cloud metadata service)
//! and read what answers in the delivery log. An address is refused when
//! it is, or its name resolves to, a loopback, private, link-local,
//! shared, metadata or otherwise non-public address, IPv4 or IPv6; checked
//! when the endpoint is saved and again at every delivery, on the
//! addresses the request then connects to (a name can change what it
//! resolves to). `allow_private` (the `WEBHOOKS_ALLOW_PRIVATE_ADDRESSES`
//! setting) lifts the rule for on-premises installs and the tests.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use protocol::ErrorCode;
use url::{Host, Url};

use crate::error::{AppError, AppResult};

/// Longest webhook address we keep.
const MAX_URL_LEN: usize = 2_000;

/// The endpoint address as given, when it is a full http(s) address with a
/// host and no user name or password in it.
pub fn parse_endpoint_url(text: &str) -> AppResult<Url> {
    let invalid = || AppError::field("url", ErrorCode::InvalidUrl);
    let text = text.trim();
    if text.len() > MAX_URL_LEN || text.chars().any(|c| c.is_control() || c == '\\') {
        return Err(invalid());
    }
    let url = Url::parse(text).map_err(|_| invalid())?;
    if !matches!(url.scheme(), "https" | "http")
        || url.host().is_none()
        || !url.username().is_empty()
        || url.password().is_some()
    {
        return Err(invalid());
    }
    Ok(url)
}

/// The addresses a request to `url` would connect to, each checked; an
/// error when the name does not resolve or any address is refused (a name
/// with one public and one private address is refused: which one a client
/// picks is not ours to choose).
pub async fn resolve_allowed(url: &Url, allow_private: bool) -> AppResult<Vec<SocketAddr>> {
    let port = url.port_or_known_default().unwrap_or(443);
    let addresses: Vec<SocketAddr> = match url.host() {
        Some(Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
        Some(Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
        Some(Host::Domain(name)) => tokio::net::lookup_host((name, port))
            .await
            .map_err(|_| AppError::field("url", ErrorCode::WebhookAddressUnresolved))?
            .collect(),
        None => Vec::new(),
    };
    if addresses.is_empty() {
        return Err(AppError::field("url", ErrorCode::WebhookAddressUnresolved));
    }
    if !allow_private && addresses.iter().any(|a| is_forbidden(a.ip())) {
        return Err(AppError::field("url", ErrorCode::WebhookAddressForbidden));
    }
    Ok(addresses)
}

/// Whether an address is no place for a webhook: anything that is not a
/// public unicast address.
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_unspecified()
        || ip.is_loopback() // 127/8
        || ip.is_private() // 10/8, 172.16/12, 192.168/16
        || ip.is_link_local() // 169.254/16, the cloud metadata services among them
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0 // "this network"
        || (a == 100 && (64..128).contains(&b)) // 100.64/10, carrier-grade NAT
        || (a == 192 && b == 0 && c == 0) // 192.0.0/24, protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // 198.18/15, benchmarking
        || a >= 240 // reserved
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    // An IPv4 address written as IPv6 (`::ffff:10.0.0.1`, `::10.0.0.1`, 6to4
    // and NAT64 forms) is judged as the IPv4 address it reaches.
    if let Some(v4) = ip.to_ipv4_mapped() {
        return forbidden_v4(v4);
    }
    let segments = ip.segments();
    if segments[..6] == [0, 0, 0, 0, 0, 0] && !ip.is_unspecified() && !ip.is_loopback() {
        return forbidden_v4(Ipv4Addr::from(ip.to_bits() as u32));
    }
    if segments[0] == 0x2002 {
        let v4 = Ipv4Addr::new(
            (segments[1] >> 8) as u8,
            segments[1] as u8,
            (segments[2] >> 8) as u8,
            segments[2] as u8,
        );
        return forbidden_v4(v4);
    }
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return forbidden_v4(Ipv4Addr::from(ip.to_bits() as u32));
    }
    ip.is_unspecified()
        || ip.is_loopback() // ::1
        || ip.is_multicast()
        || (segments[0] & 0xfe00) == 0xfc00 // fc00::/7, unique local
        || (segments[0] & 0xffc0) == 0xfe80 // fe80::/10, link-local
        || (segments[0] & 0xffc0) == 0xfec0 // fec0::/10, old site-local
        || (segments[0] == 0x2001 && segments[1] == 0x0db8) // documentation
        || segments[0] == 0x0100 && segments[1..4] == [0, 0, 0] // discard-only
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn forbidden(text: &str) -> bool {
        is_forbidden(text.parse().unwrap())
    }

    #[test]
    fn internal_addresses_are_refused() {
        for ip in [
            "127.0.0.1",
            "127.8.9.10",
            "10.0.0.1",
            "10.255.255.255",
            "172.16.0.1",
            "172.31.255.254",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "fc00::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.1.2.3",
            "2002:a00:1::",
            "64:ff9b::a9fe:a9fe",
            "fd00:ec2::254",
        ] {
            assert!(forbidden(ip), "{ip} should be refused");
        }
    }

    #[test]
    fn public_addresses_are_allowed() {
        for ip in [
            "8.8.8.8",
            "172.15.0.1",
            "172.32.0.1",
            "192.169.0.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert!(!forbidden(ip), "{ip} should be allowed");
        }
    }

    #[test]
    fn only_plain_web_addresses_parse() {
        assert!(parse_endpoint_url("https://hooks.example.co.za/paydesk").is_ok());
        for bad in [
            "ftp://example.com",
            "https://user:pw@example.com/",
            "not a url",
            "https://exa\nmple.com",
            "file:///etc/passwd",
        ] {
            assert!(parse_endpoint_url(bad).is_err(), "{bad}");
        }
    }
}
