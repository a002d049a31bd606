//! Addresses a browser is sent to: the return address after signing in or
//! out (ours only) and a pay page's success address (the merchant's https
//! site). Both are judged as a browser will parse them, with a real URL
//! parser: a browser silently drops tabs and line breaks and reads `\` as
//! `/`, so `/\t/evil.example` is `//evil.example` to it, another site.

use url::Url;

/// Characters no address we accept may hold: a browser drops or rewrites
/// them, so the address it follows is not the one we checked.
fn has_rewritten_characters(address: &str) -> bool {
    address.chars().any(|c| c.is_control() || c == '\\')
}

/// The path (with its query) on `own_origin` that `candidate` leads to,
/// when it leads nowhere else: a relative path or a full address of our
/// own origin. Never a path starting with `//`, which a client following
/// it would read as another host. The one check for every return address
/// a client hands us.
pub fn same_origin_path(own_origin: &Url, candidate: &str) -> Option<String> {
    let candidate = candidate.trim_matches(' ');
    if candidate.is_empty() || has_rewritten_characters(candidate) {
        return None;
    }
    let url = Url::options()
        .base_url(Some(own_origin))
        .parse(candidate)
        .ok()?;
    if url.origin() != own_origin.origin() || !url.username().is_empty() || url.password().is_some()
    {
        return None;
    }
    let path = url.path();
    if !path.starts_with('/') || path.starts_with("//") {
        return None;
    }
    Some(match url.query() {
        Some(query) => format!("{path}?{query}"),
        None => path.to_string(),
    })
}

/// `candidate` as an absolute https address on a plain domain name (or an
/// IPv4 address), exactly as a browser reads it; `None` for anything else.
/// The host is held to letters, digits, dots and dashes because its origin
/// goes into a Content-Security-Policy header.
pub fn https_address(candidate: &str) -> Option<Url> {
    if has_rewritten_characters(candidate) || candidate.trim() != candidate {
        return None;
    }
    let url = Url::parse(candidate).ok()?;
    let plain_host = url.host_str().is_some_and(|host| {
        !host.is_empty()
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
    });
    let credentials = !url.username().is_empty() || url.password().is_some();
    (url.scheme() == "https" && plain_host && !credentials).then_some(url)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn ours() -> Url {
        Url::parse("https://pay.example.co.za").unwrap()
    }

    #[test]
    fn own_paths_and_own_absolute_addresses_come_back_as_paths() {
        let o = ours();
        assert_eq!(same_origin_path(&o, "/").as_deref(), Some("/"));
        assert_eq!(
            same_origin_path(&o, "/customers?status=all").as_deref(),
            Some("/customers?status=all")
        );
        assert_eq!(
            same_origin_path(&o, "https://pay.example.co.za/mandates/man_1").as_deref(),
            Some("/mandates/man_1")
        );
        assert_eq!(
            same_origin_path(&o, "customers").as_deref(),
            Some("/customers")
        );
    }

    #[test]
    fn anything_a_browser_would_take_elsewhere_is_refused() {
        let o = ours();
        for address in [
            "/\t/evil.example",
            "/\n/evil.example",
            "/\r/evil.example",
            "\t//evil.example",
            "//evil.example",
            "/\\evil.example",
            "\\\\evil.example",
            "https://pay.example.co.za//evil.example",
            "https://pay.example.co.za/.//evil.example",
            "https://evil.example/",
            "http://pay.example.co.za/",
            "https://pay.example.co.za:444/",
            "https://user@pay.example.co.za/",
            "javascript:alert(1)",
            "/ok\u{7f}",
            "",
            "   ",
        ] {
            assert_eq!(same_origin_path(&o, address), None, "{address:?}");
        }
    }

    #[test]
    fn success_addresses_are_plain_https_sites() {
        let url = https_address("https://shop.example/thanks?o=1");
        assert_eq!(
            url.map(|u| u.origin().ascii_serialization()).as_deref(),
            Some("https://shop.example")
        );
        for address in [
            "http://shop.example/",
            "https://shop.example/\tx",
            "https://shop.example\\@evil.example/",
            " https://shop.example/",
            "https://a;b.example/",
            "https://user:pw@shop.example/",
            "https://[::1]/",
            "javascript:alert(1)",
        ] {
            assert!(https_address(address).is_none(), "{address:?}");
        }
    }
}
