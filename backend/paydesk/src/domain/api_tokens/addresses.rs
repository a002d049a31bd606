//! A token's allow-list of client addresses: single IP addresses or CIDR
//! ranges (`203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`).

use std::net::IpAddr;

use protocol::ErrorCode;

/// More than this many entries is a list nobody reviews.
pub const MAX_ENTRIES: usize = 20;

/// One allowed address or range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    base: IpAddr,
    bits: u8,
}

impl Range {
    pub fn parse(text: &str) -> Option<Range> {
        let (address, bits) = match text.split_once('/') {
            Some((address, bits)) => (address, Some(bits.parse::<u8>().ok()?)),
            None => (text, None),
        };
        let base: IpAddr = address.parse().ok()?;
        let max = if base.is_ipv4() { 32 } else { 128 };
        let bits = bits.unwrap_or(max);
        (bits <= max).then_some(Range { base, bits })
    }

    pub fn contains(&self, address: IpAddr) -> bool {
        // An IPv4 client seen through an IPv6 socket is the same client.
        let address = match address {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
            v4 => v4,
        };
        match (self.base, address) {
            (IpAddr::V4(base), IpAddr::V4(address)) => {
                prefix_equal(&base.octets(), &address.octets(), self.bits)
            }
            (IpAddr::V6(base), IpAddr::V6(address)) => {
                prefix_equal(&base.octets(), &address.octets(), self.bits)
            }
            _ => false,
        }
    }

    /// Whether every address of `other` is in this range too.
    fn covers(&self, other: &Range) -> bool {
        self.bits <= other.bits && self.contains(other.base)
    }

    /// The canonical text, as stored and shown.
    pub fn to_text(self) -> String {
        let max = if self.base.is_ipv4() { 32 } else { 128 };
        if self.bits == max {
            self.base.to_string()
        } else {
            format!("{}/{}", self.base, self.bits)
        }
    }
}

fn prefix_equal(a: &[u8], b: &[u8], bits: u8) -> bool {
    let whole = usize::from(bits / 8);
    if a[..whole] != b[..whole] {
        return false;
    }
    let rest = bits % 8;
    if rest == 0 {
        return true;
    }
    let mask = 0xffu8 << (8 - rest);
    (a[whole] & mask) == (b[whole] & mask)
}

/// Checks and normalises a list as typed; the stored form is space-separated.
pub fn normalise(entries: &[String]) -> Result<String, ErrorCode> {
    if entries.len() > MAX_ENTRIES {
        return Err(ErrorCode::TooLong);
    }
    let mut out: Vec<String> = Vec::new();
    for entry in entries {
        let range = Range::parse(entry.trim()).ok_or(ErrorCode::InvalidIpAddress)?;
        let text = range.to_text();
        if !out.contains(&text) {
            out.push(text);
        }
    }
    Ok(out.join(" "))
}

pub fn split(stored: &str) -> Vec<String> {
    stored.split_whitespace().map(str::to_string).collect()
}

/// Whether `client` may use a token with this stored allow-list (empty:
/// anyone). An address that does not parse is not on any list.
pub fn allows(stored: &str, client: &str) -> bool {
    if stored.trim().is_empty() {
        return true;
    }
    let Ok(client) = client.parse::<IpAddr>() else {
        return false;
    };
    stored
        .split_whitespace()
        .filter_map(Range::parse)
        .any(|range| range.contains(client))
}

/// Whether every client `child` (a stored allow-list) lets in, `parent`
/// lets in too. An empty list lets in anyone, so it is within only an
/// empty one.
pub fn within(child: &str, parent: &str) -> bool {
    if parent.trim().is_empty() {
        return true;
    }
    let parents: Vec<Range> = parent.split_whitespace().filter_map(Range::parse).collect();
    let mut children = child.split_whitespace().peekable();
    children.peek().is_some()
        && children.all(|entry| {
            Range::parse(entry).is_some_and(|range| parents.iter().any(|p| p.covers(&range)))
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn ranges_match_their_prefix_only() {
        let stored = normalise(&["198.51.100.0/24".into(), " 203.0.113.7 ".into()]).unwrap();
        assert_eq!(stored, "198.51.100.0/24 203.0.113.7");
        assert!(allows(&stored, "198.51.100.200"));
        assert!(allows(&stored, "203.0.113.7"));
        assert!(allows(&stored, "::ffff:203.0.113.7"));
        assert!(!allows(&stored, "203.0.113.8"));
        assert!(!allows(&stored, "198.51.101.1"));
        assert!(!allows(&stored, "not an address"));
        assert!(allows("", "10.0.0.1"));
        let v6 = normalise(&["2001:db8::/32".into()]).unwrap();
        assert!(allows(&v6, "2001:db8:1::5"));
        assert!(!allows(&v6, "2001:db9::5"));
        assert!(allows("10.0.0.0/12", "10.15.255.255"));
        assert!(!allows("10.0.0.0/12", "10.16.0.0"));
    }

    #[test]
    fn a_list_is_within_another_only_if_it_lets_in_no_one_more() {
        assert!(within("", ""));
        assert!(within("10.0.0.1", ""));
        assert!(!within("", "10.0.0.0/8"), "anyone is more than a range");
        assert!(within("10.1.2.3 10.9.0.0/16", "10.0.0.0/8"));
        assert!(!within("10.0.0.0/7", "10.0.0.0/8"));
        assert!(!within("10.0.0.1 192.168.0.1", "10.0.0.0/8"));
        assert!(within("2001:db8:1::/48", "2001:db8::/32 10.0.0.1"));
        assert!(!within("10.0.0.1", "2001:db8::/32"));
    }

    #[test]
    fn bad_entries_are_refused() {
        assert_eq!(
            normalise(&["10.0.0.0/33".into()]),
            Err(ErrorCode::InvalidIpAddress)
        );
        assert_eq!(
            normalise(&["example.com".into()]),
            Err(ErrorCode::InvalidIpAddress)
        );
        let many: Vec<String> = (0..21).map(|n| format!("10.0.0.{n}")).collect();
        assert_eq!(normalise(&many), Err(ErrorCode::TooLong));
    }
}
