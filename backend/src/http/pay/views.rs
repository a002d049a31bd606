//! The pay page's templates (`backend/templates/pay/`) and what fills them.
//! Everything a template prints is escaped by the template engine; only
//! our own stylesheet goes in as is.

use askama::Template;
use protocol::{Language, PayPage};

use super::words::Words;
use paydesk::domain::commerce::checkout::KeptAnswers;

pub const CSS: &str = include_str!("../../../templates/pay/pay.css");

/// A link of the language switch.
pub struct LanguageLink {
    pub href: String,
    /// The BCP 47 tag of the page in that language (`af`, `en`).
    pub tag: &'static str,
    pub label: &'static str,
    pub current: bool,
}

/// What every pay page shares: language, title, the merchant's name, logo
/// and colour.
pub struct Chrome {
    pub w: Words,
    pub lang: &'static str,
    pub title: String,
    pub css: &'static str,
    pub accent: String,
    pub accent_text: &'static str,
    pub logo_url: Option<String>,
    pub merchant: String,
    pub switch: Vec<LanguageLink>,
}

/// Black or white, whichever reads better on the merchant's colour.
pub fn text_on(colour: &str) -> &'static str {
    let hex = colour.trim_start_matches('#');
    let channel = |i: usize| {
        let value = hex
            .get(i..i + 2)
            .and_then(|c| u8::from_str_radix(c, 16).ok())
            .map_or(0.0, f64::from)
            / 255.0;
        if value <= 0.039_28 {
            value / 12.92
        } else {
            ((value + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
    // The contrast with white against the contrast with black.
    if 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 {
        "#ffffff"
    } else {
        "#000000"
    }
}

impl Chrome {
    pub fn new(
        w: Words,
        title: String,
        merchant: &str,
        page: Option<&PayPage>,
        here: &str,
    ) -> Chrome {
        let lang = w.language().tag();
        let chosen = w.language().as_str();
        let accent = page.map_or("#16a34a".to_string(), |p| p.colour.clone());
        let logo_url =
            page.and_then(|p| p.logo_version.map(|v| format!("/pay/{}/logo?v={v}", p.id)));
        let separator = if here.contains('?') { '&' } else { '?' };
        let switch = [Language::En, Language::Afr]
            .into_iter()
            .map(|language| LanguageLink {
                href: format!("{here}{separator}lang={}", language.as_str()),
                tag: language.tag(),
                label: match language {
                    Language::En => "English",
                    Language::Afr => "Afrikaans",
                },
                current: language.as_str() == chosen,
            })
            .collect();
        Chrome {
            w,
            lang,
            title,
            css: CSS,
            accent_text: text_on(&accent),
            accent,
            logo_url,
            merchant: merchant.to_string(),
            switch,
        }
    }
}

pub struct MethodTab {
    pub href: String,
    pub label: String,
    pub current: bool,
}

#[derive(Template)]
#[template(path = "pay/page.html")]
pub struct PageView<'a> {
    pub c: Chrome,
    pub page_title: &'a str,
    pub description: &'a str,
    pub amount_label: Option<String>,
    pub payer_chooses: bool,
    pub amount_hint: String,
    pub recurring_note: Option<String>,
    pub tabs: Vec<MethodTab>,
    pub method: &'static str,
    pub action: String,
    pub csrf: &'a str,
    pub attempt_key: &'a str,
    pub values: &'a KeptAnswers,
    pub errors: Vec<(&'static str, String)>,
    pub banner: Option<String>,
    pub email_required: bool,
    pub banks: Vec<(String, &'static str)>,
    pub pay_label: String,
    pub test_mode: bool,
}

impl PageView<'_> {
    /// The message under a field, if it has a problem.
    pub fn error(&self, field: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, message)| message.as_str())
    }
}

#[derive(Template)]
#[template(path = "pay/step.html")]
pub struct StepView<'a> {
    pub c: Chrome,
    pub heading: String,
    pub body: String,
    pub action: String,
    pub csrf: &'a str,
    /// Says which bank answers: the simulated bank of test mode, or the
    /// simulated bank that stands in for a live one not connected yet.
    pub simulated_note: String,
    pub refuse_label: String,
}

#[derive(Template)]
#[template(path = "pay/done.html")]
pub struct DoneView {
    pub c: Chrome,
    pub heading: String,
    pub body: String,
    pub receipt_note: Option<String>,
    pub amount: String,
    pub reference: String,
    pub source: Option<String>,
    pub order_id: String,
    pub redirect: Option<String>,
}

#[derive(Template)]
#[template(path = "pay/notice.html")]
pub struct NoticeView {
    pub c: Chrome,
    pub heading: String,
    pub body: String,
    pub back: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_text_keeps_its_contrast() {
        assert_eq!(text_on("#16a34a"), "#000000");
        assert_eq!(text_on("#1e3a8a"), "#ffffff");
        assert_eq!(text_on("#ffff00"), "#000000");
        assert_eq!(text_on("#000000"), "#ffffff");
    }
}
