//! The DSN reports go to: `{scheme}://{public_key}@{host}[:port]/[path/]{project}`.
//! The public key is public by design (browsers send it too).

/// A parsed `SENTRY_DSN`, kept as configured for the web app's SDK.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dsn {
    raw: String,
    parsed: sentry::types::Dsn,
}

impl Dsn {
    pub fn parse(value: &str) -> Result<Dsn, String> {
        let raw = value.trim();
        let parsed: sentry::types::Dsn = raw
            .parse()
            .map_err(|_| "SENTRY_DSN: not a DSN as https://KEY@HOST/PROJECT".to_string())?;
        Ok(Dsn {
            raw: raw.to_string(),
            parsed,
        })
    }

    /// The DSN as configured, for the web app's SDK.
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// The origin reports are posted to, for the web app's content policy.
    pub fn origin(&self) -> String {
        self.parsed
            .envelope_api_url()
            .origin()
            .ascii_serialization()
    }

    pub(super) fn parsed(&self) -> &sentry::types::Dsn {
        &self.parsed
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn dsns_name_their_envelope_endpoint() {
        let dsn = Dsn::parse("https://abc123@o1.ingest.example.com/42").unwrap();
        assert_eq!(
            dsn.parsed().envelope_api_url().as_str(),
            "https://o1.ingest.example.com/api/42/envelope/"
        );
        assert_eq!(dsn.parsed().public_key(), "abc123");
        let local = Dsn::parse("http://key@127.0.0.1:9000/sub/7").unwrap();
        assert_eq!(
            local.parsed().envelope_api_url().as_str(),
            "http://127.0.0.1:9000/sub/api/7/envelope/"
        );
        assert_eq!(local.origin(), "http://127.0.0.1:9000");
        assert!(Dsn::parse("https://o1.example.com/42").is_err());
        assert!(Dsn::parse("ftp://k@o1.example.com/42").is_err());
        assert!(Dsn::parse("not a dsn").is_err());
    }
}
