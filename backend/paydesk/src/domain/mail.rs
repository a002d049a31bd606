//! The messages we send, in the recipient's language, as plain text and HTML.
//! Their words live in `locales/mail/<language>.json`.

use protocol::Language;
use serde_json::Value;

use crate::store::mail::OutgoingMail;

const EN: &str = include_str!("../../../../locales/mail/en.json");
const AFR: &str = include_str!("../../../../locales/mail/afr.json");

#[derive(Clone, Copy)]
pub enum Template {
    ResetPassword,
    VerifyEmail,
}

impl Template {
    fn key(self) -> &'static str {
        match self {
            Template::ResetPassword => "reset_password",
            Template::VerifyEmail => "verify_email",
        }
    }
}

fn words(language: Language) -> Value {
    let source = match language {
        Language::En => EN,
        Language::Afr => AFR,
    };
    serde_json::from_str(source).unwrap_or(Value::Null)
}

fn text(words: &Value, path: &[&str], vars: &[(&str, &str)]) -> String {
    let mut value = words;
    for key in path {
        value = &value[*key];
    }
    let mut out = value.as_str().unwrap_or_default().to_string();
    for (name, replacement) in vars {
        out = out.replace(&format!("{{{name}}}"), replacement);
    }
    out
}

/// HTML-escapes text for the messages' HTML bodies.
pub fn escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Builds a message with one call to action, `link`.
pub fn compose(
    template: Template,
    language: Language,
    to: &str,
    name: &str,
    email: &str,
    link: &str,
) -> OutgoingMail {
    let words = words(language);
    let vars = [("name", name), ("email", email)];
    let key = template.key();
    let greeting = text(&words, &["greeting"], &vars);
    let intro = text(&words, &[key, "intro"], &vars);
    let action = text(&words, &[key, "action"], &vars);
    let ignore = text(&words, &["ignore"], &vars);
    let signature = text(&words, &["signature"], &vars);
    let plain = format!("{greeting}\n\n{intro}\n\n{link}\n\n{ignore}\n\n{signature}\n");
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:sans-serif;color:#18181b\">\
         <p>{greeting}</p><p>{intro}</p>\
         <p><a href=\"{href}\" style=\"background:#16a34a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none\">{action}</a></p>\
         <p style=\"font-size:12px;color:#52525b\">{href}</p><p>{ignore}</p><p>{signature}</p></body></html>",
        lang = language.as_str(),
        greeting = escape(&greeting),
        intro = escape(&intro),
        action = escape(&action),
        ignore = escape(&ignore),
        signature = escape(&signature),
        href = escape(link),
    );
    OutgoingMail {
        to: to.to_string(),
        subject: text(&words, &[key, "subject"], &vars),
        text: plain,
        html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_come_in_both_languages_with_the_link() {
        let en = compose(
            Template::ResetPassword,
            Language::En,
            "a@example.co.za",
            "Thandi",
            "a@example.co.za",
            "https://x.test/auth/reset/t1",
        );
        let afr = compose(
            Template::VerifyEmail,
            Language::Afr,
            "a@example.co.za",
            "Thandi",
            "a@example.co.za",
            "https://x.test/v/t2",
        );
        assert_eq!(en.subject, "Reset your Paydesk password");
        assert!(
            en.text.starts_with("Hello Thandi,")
                && en.text.contains("https://x.test/auth/reset/t1")
        );
        assert!(en.html.contains("href=\"https://x.test/auth/reset/t1\""));
        assert_eq!(afr.subject, "Bevestig jou e-posadres vir Paydesk");
        assert!(afr.text.contains("a@example.co.za jou e-posadres is"));
        let hostile = compose(
            Template::VerifyEmail,
            Language::En,
            "a@example.co.za",
            "<b>x</b>",
            "a@example.co.za",
            "l",
        );
        assert!(!hostile.html.contains("<b>x</b>"));
    }
}
