//! The one server this tool may talk to. Only loopback addresses are accepted:
//! a load generator pointed at someone else's server is an attack.

use std::net::{IpAddr, ToSocketAddrs};

use reqwest::Url;

/// Where the backend under test listens: its origin, and the derived socket URL.
#[derive(Debug, Clone)]
pub struct Target {
    /// `http://host:port/`, the base every HTTP path is joined to.
    pub base: Url,
    /// `http://host:port`, sent as the socket's `Origin`.
    pub origin: String,
    /// `ws://host:port/ws`.
    pub socket_url: String,
}

impl Target {
    /// Checks `raw` and builds the URLs. `localhost` is resolved once here and
    /// must name only loopback addresses.
    pub fn parse(raw: &str) -> Result<Target, String> {
        let url = Url::parse(raw).map_err(|err| format!("--url {raw:?} is not a URL: {err}"))?;
        if url.scheme() != "http" {
            return Err(format!(
                "--url {raw:?}: only plain http:// to a loopback address is supported"
            ));
        }
        let host = url
            .host_str()
            .ok_or_else(|| format!("--url {raw:?} has no host"))?;
        let port = url
            .port_or_known_default()
            .ok_or_else(|| format!("--url {raw:?} has no port"))?;
        check_loopback(host, |name| resolve(name, port)).map_err(|why| {
            format!(
                "refusing --url {raw:?}: {why}. This tool only loads a server on this machine \
                 (127.0.0.1, [::1] or localhost)."
            )
        })?;
        let origin = url.origin().ascii_serialization();
        let base = Url::parse(&format!("{origin}/"))
            .map_err(|err| format!("--url {raw:?}: cannot build the base URL: {err}"))?;
        let socket_url = format!("{}/ws", origin.replacen("http://", "ws://", 1));
        Ok(Target {
            base,
            origin,
            socket_url,
        })
    }

    /// An absolute URL for a path on the target.
    pub fn join(&self, path: &str) -> Result<Url, String> {
        self.base
            .join(path.trim_start_matches('/'))
            .map_err(|err| format!("cannot build URL for {path}: {err}"))
    }
}

fn resolve(name: &str, port: u16) -> Vec<IpAddr> {
    (name, port)
        .to_socket_addrs()
        .map(|addrs| addrs.map(|a| a.ip()).collect())
        .unwrap_or_default()
}

/// Accepts loopback IP literals, and `localhost` when every address it
/// resolves to is loopback. Any other name is refused without a lookup.
pub fn check_loopback(host: &str, resolve: impl FnOnce(&str) -> Vec<IpAddr>) -> Result<(), String> {
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = literal.parse::<IpAddr>() {
        return if ip.is_loopback() {
            Ok(())
        } else {
            Err(format!("{ip} is not a loopback address"))
        };
    }
    if !host.eq_ignore_ascii_case("localhost") {
        return Err(format!("{host} is not a loopback address"));
    }
    let addresses = resolve(host);
    if addresses.is_empty() {
        return Err("localhost does not resolve".into());
    }
    match addresses.iter().find(|ip| !ip.is_loopback()) {
        Some(ip) => Err(format!("localhost resolves to {ip}, which is not loopback")),
        None => Ok(()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn no_lookup(_: &str) -> Vec<IpAddr> {
        panic!("only localhost may be looked up")
    }

    #[test]
    fn loopback_literals_pass() {
        assert!(check_loopback("127.0.0.1", no_lookup).is_ok());
        assert!(check_loopback("127.8.9.10", no_lookup).is_ok());
        assert!(check_loopback("[::1]", no_lookup).is_ok());
    }

    #[test]
    fn other_hosts_are_refused_without_a_lookup() {
        for host in [
            "10.0.0.5",
            "0.0.0.0",
            "[::]",
            "192.168.1.1",
            "example.co.za",
        ] {
            assert!(check_loopback(host, no_lookup).is_err(), "{host}");
        }
    }

    #[test]
    fn localhost_must_resolve_to_loopback_only() {
        let loopback = |_: &str| vec!["127.0.0.1".parse().unwrap(), "::1".parse().unwrap()];
        assert!(check_loopback("localhost", loopback).is_ok());
        let hijacked = |_: &str| vec!["127.0.0.1".parse().unwrap(), "203.0.113.9".parse().unwrap()];
        assert!(check_loopback("LOCALHOST", hijacked).is_err());
        assert!(check_loopback("localhost", |_| Vec::new()).is_err());
    }

    #[test]
    fn target_urls_come_from_the_origin() {
        let target = Target::parse("http://127.0.0.1:18080/anything?x=1").unwrap();
        assert_eq!(target.origin, "http://127.0.0.1:18080");
        assert_eq!(target.socket_url, "ws://127.0.0.1:18080/ws");
        assert_eq!(
            target.join("/api/auth/csrf").unwrap().as_str(),
            "http://127.0.0.1:18080/api/auth/csrf"
        );
        assert!(Target::parse("https://127.0.0.1:18080").is_err());
        assert!(Target::parse("http://pay.example.co.za").is_err());
    }
}
