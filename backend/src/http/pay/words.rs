//! The pay page's words, from the app's own `locales/<language>.json`
//! (`pay.*`, and `errors.<code>` for field messages), and which language a
//! payer gets: the switch on the page, then the `locale` cookie, then the
//! browser's Accept-Language.

use std::sync::OnceLock;

use actix_web::HttpRequest;
use actix_web::http::header::ACCEPT_LANGUAGE;
use protocol::{ErrorCode, Language};
use serde_json::Value;

const EN: &str = include_str!("../../../../locales/en.json");
const AFR: &str = include_str!("../../../../locales/afr.json");

pub const LOCALE_COOKIE: &str = "locale";

pub struct Words {
    language: Language,
    values: &'static Value,
}

impl Words {
    pub fn of(language: Language) -> Words {
        static EN_WORDS: OnceLock<Value> = OnceLock::new();
        static AFR_WORDS: OnceLock<Value> = OnceLock::new();
        let (cell, source) = match language {
            Language::En => (&EN_WORDS, EN),
            Language::Afr => (&AFR_WORDS, AFR),
        };
        Words {
            language,
            values: cell.get_or_init(|| serde_json::from_str(source).unwrap_or(Value::Null)),
        }
    }

    pub fn language(&self) -> Language {
        self.language
    }

    /// The text at a dotted key; the key itself when none was written, so a
    /// missing word shows up instead of vanishing.
    pub fn t<'a>(&self, key: &'a str) -> &'a str {
        let mut value = self.values;
        for part in key.split('.') {
            value = &value[part];
        }
        value.as_str().unwrap_or(key)
    }

    /// The text at `key` with `{name}` placeholders filled in.
    pub fn fill(&self, key: &str, vars: &[(&str, &str)]) -> String {
        let mut out = self.t(key).to_string();
        for (name, value) in vars {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    pub fn error(&self, code: ErrorCode) -> String {
        let key = paydesk::store::sql::wire_name(&code);
        self.t(&format!("errors.{key}")).to_string()
    }
}

fn parse_choice(value: &str) -> Option<Language> {
    let value = value.trim().to_ascii_lowercase();
    if value == "afr" || value == "af" || value.starts_with("af-") {
        Some(Language::Afr)
    } else if value == "en" || value.starts_with("en-") {
        Some(Language::En)
    } else {
        None
    }
}

/// The first language of Accept-Language (by quality) that we speak.
fn from_accept_language(header: &str) -> Option<Language> {
    let mut choices: Vec<(f32, Language)> = header
        .split(',')
        .filter_map(|part| {
            let mut pieces = part.split(';');
            let language = parse_choice(pieces.next()?)?;
            let quality = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.parse().ok())
                .unwrap_or(1.0);
            Some((quality, language))
        })
        .collect();
    choices.sort_by(|a, b| b.0.total_cmp(&a.0));
    choices.first().map(|(_, language)| *language)
}

/// The payer's language, and whether it was just chosen on the page (then
/// the cookie is set, so the next page keeps it).
pub fn language_of(req: &HttpRequest, chosen: Option<&str>) -> (Language, bool) {
    if let Some(language) = chosen.and_then(parse_choice) {
        return (language, true);
    }
    if let Some(language) = req
        .cookie(LOCALE_COOKIE)
        .and_then(|c| parse_choice(c.value()))
    {
        return (language, false);
    }
    let header = req
        .headers()
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    (from_accept_language(header).unwrap_or(Language::En), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn afrikaans_browsers_get_afrikaans() {
        assert_eq!(
            from_accept_language("af-ZA,af;q=0.9,en;q=0.8"),
            Some(Language::Afr)
        );
        assert_eq!(
            from_accept_language("en-ZA,en;q=0.9,af;q=0.8"),
            Some(Language::En)
        );
        assert_eq!(from_accept_language("fr;q=1,af;q=0.5"), Some(Language::Afr));
        assert_eq!(from_accept_language("fr"), None);
    }

    #[test]
    fn every_pay_word_exists_in_both_languages() {
        for key in [
            "pay.title",
            "pay.step.approve",
            "pay.done.paidTitle",
            "pay.gone.expiredBody",
            "pay.gone.errorBody",
            "pay.method.card",
        ] {
            for language in [Language::En, Language::Afr] {
                assert_ne!(Words::of(language).t(key), key, "{key}");
            }
        }
        assert!(
            Words::of(Language::Afr)
                .error(ErrorCode::CardDeclined)
                .contains("geweier")
        );
    }
}
