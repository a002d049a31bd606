//! The messages we send, in the recipient's language, as plain text and HTML.
//! Their words live in `locales/mail/<language>.json`.

use protocol::Language;
use serde_json::Value;
use time::{OffsetDateTime, UtcOffset};

use crate::store::mail::OutgoingMail;

const EN: &str = include_str!("../../../../locales/mail/en.json");
const AFR: &str = include_str!("../../../../locales/mail/afr.json");

#[derive(Clone, Copy)]
pub enum Template {
    ResetPassword,
    VerifyEmail,
    SignInLink,
}

impl Template {
    fn key(self) -> &'static str {
        match self {
            Template::ResetPassword => "reset_password",
            Template::VerifyEmail => "verify_email",
            Template::SignInLink => "sign_in_link",
        }
    }
}

pub(crate) fn words(language: Language) -> Value {
    let source = match language {
        Language::En => EN,
        Language::Afr => AFR,
    };
    serde_json::from_str(source).unwrap_or(Value::Null)
}

pub(crate) fn text(words: &Value, path: &[&str], vars: &[(&str, &str)]) -> String {
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
    compose_action(
        template.key(),
        language,
        to,
        &[("name", name), ("email", email)],
        link,
    )
}

/// Tells a merchant's owner that deliveries to `url` kept failing and the
/// endpoint was paused; `link` is its page.
pub fn compose_webhook_disabled(
    language: Language,
    to: &str,
    name: &str,
    url: &str,
    link: &str,
) -> OutgoingMail {
    compose_action(
        "webhook_disabled",
        language,
        to,
        &[("name", name), ("url", url)],
        link,
    )
}

/// Invites `to` to the merchant's team; `link` is the invite page.
pub fn compose_invite(
    language: Language,
    to: &str,
    invite: &InviteMail<'_>,
    link: &str,
) -> OutgoingMail {
    let words = words(language);
    let role = text(&words, &["team_invite", "roles", invite.role.as_str()], &[]);
    let expires = mail_time(invite.expires_at);
    compose_action(
        "team_invite",
        language,
        to,
        &[
            ("name", to),
            ("email", to),
            ("inviter", invite.inviter),
            ("merchant", invite.merchant),
            ("role", role.as_str()),
            ("expires", expires.as_str()),
        ],
        link,
    )
}

/// What an invite mail says beside its link.
pub struct InviteMail<'a> {
    pub inviter: &'a str,
    pub merchant: &'a str,
    pub role: protocol::Role,
    pub expires_at: i64,
}

pub(crate) fn compose_action(
    key: &str,
    language: Language,
    to: &str,
    vars: &[(&str, &str)],
    link: &str,
) -> OutgoingMail {
    let words = words(language);
    let greeting = text(&words, &["greeting"], vars);
    let intro = text(&words, &[key, "intro"], vars);
    let action = text(&words, &[key, "action"], vars);
    // A message may say in its own words why it came (one nobody asked for).
    let ignore = match words[key].get("ignore") {
        Some(_) => text(&words, &[key, "ignore"], vars),
        None => text(&words, &["ignore"], vars),
    };
    let signature = text(&words, &["signature"], vars);
    let plain = format!("{greeting}\n\n{intro}\n\n{link}\n\n{ignore}\n\n{signature}\n");
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:sans-serif;color:#18181b\">\
         <p>{greeting}</p><p>{intro}</p>\
         <p><a href=\"{href}\" style=\"background:#16a34a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none\">{action}</a></p>\
         <p style=\"font-size:12px;color:#52525b\">{href}</p><p>{ignore}</p><p>{signature}</p></body></html>",
        lang = language.tag(),
        greeting = escape(&greeting),
        intro = escape(&intro),
        action = escape(&action),
        ignore = escape(&ignore),
        signature = escape(&signature),
        href = escape(link),
    );
    OutgoingMail {
        to: to.to_string(),
        subject: text(&words, &[key, "subject"], vars),
        text: plain,
        html,
    }
}

/// Something that happened to an account which its owner must hear of.
#[derive(Clone, Copy)]
pub enum Notice {
    PasswordChanged,
    TwoFactorDisabled,
    /// The right password with a wrong or used second factor.
    SecondFactorFailed,
    /// Sign-in is refused for a while after this many failures.
    SignInLocked {
        failures: u32,
    },
}

impl Notice {
    fn key(self) -> &'static str {
        match self {
            Notice::PasswordChanged => "password_changed",
            Notice::TwoFactorDisabled => "two_factor_disabled",
            Notice::SecondFactorFailed => "second_factor_failed",
            Notice::SignInLocked { .. } => "signin_locked",
        }
    }
}

/// South African time (SAST, UTC+2 all year), which the merchants read.
pub fn mail_time(at_ms: i64) -> String {
    let sast = UtcOffset::from_hms(2, 0, 0).unwrap_or(UtcOffset::UTC);
    let at = OffsetDateTime::from_unix_timestamp(at_ms.div_euclid(1000))
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .to_offset(sast);
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]");
    format!("{} SAST", at.format(format).unwrap_or_default())
}

/// What happened, when and from which client address, with a way out when
/// it was not the owner: `reset_page`, where anyone may ask for a new
/// password link (never a secret link itself).
pub fn compose_notice(
    notice: Notice,
    language: Language,
    to: &str,
    name: &str,
    at_ms: i64,
    address: &str,
    reset_page: &str,
) -> OutgoingMail {
    let words = words(language);
    let when = mail_time(at_ms);
    let failures = match notice {
        Notice::SignInLocked { failures } => failures.to_string(),
        _ => String::new(),
    };
    let vars = [
        ("name", name),
        ("when", when.as_str()),
        ("address", address),
        ("count", failures.as_str()),
    ];
    let key = notice.key();
    let greeting = text(&words, &["greeting"], &vars);
    let intro = text(&words, &[key, "intro"], &vars);
    let note = text(&words, &[key, "note"], &vars);
    let not_you = text(&words, &["not_you"], &vars);
    let action = text(&words, &["reset_action"], &vars);
    let signature = text(&words, &["signature"], &vars);
    let paragraphs: Vec<&str> = [intro.as_str(), note.as_str()]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    let plain = format!(
        "{greeting}\n\n{}\n\n{not_you}\n\n{reset_page}\n\n{signature}\n",
        paragraphs.join("\n\n")
    );
    let html_paragraphs: String = paragraphs
        .iter()
        .map(|p| format!("<p>{}</p>", escape(p)))
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:sans-serif;color:#18181b\">\
         <p>{greeting}</p>{html_paragraphs}<p>{not_you}</p>\
         <p><a href=\"{href}\" style=\"background:#16a34a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none\">{action}</a></p>\
         <p style=\"font-size:12px;color:#52525b\">{href}</p><p>{signature}</p></body></html>",
        lang = language.tag(),
        greeting = escape(&greeting),
        not_you = escape(&not_you),
        action = escape(&action),
        signature = escape(&signature),
        href = escape(reset_page),
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

    #[test]
    fn notices_say_what_when_and_where_in_both_languages() {
        let notices = [
            Notice::PasswordChanged,
            Notice::TwoFactorDisabled,
            Notice::SecondFactorFailed,
            Notice::SignInLocked { failures: 10 },
        ];
        // 2026-03-02 12:05:09 UTC is 14:05:09 in South Africa.
        let at_ms = 1_772_453_109_000;
        for language in [Language::En, Language::Afr] {
            for notice in notices {
                let mail = compose_notice(
                    notice,
                    language,
                    "a@example.co.za",
                    "Thandi",
                    at_ms,
                    "196.25.1.1",
                    "https://x.test/auth/forgot",
                );
                let key = notice.key();
                assert!(!mail.subject.is_empty(), "{key} subject");
                assert!(
                    !mail.text.contains('{'),
                    "{key}: every placeholder filled: {}",
                    mail.text
                );
                for part in [&mail.text, &mail.html] {
                    assert!(part.contains("2026-03-02 14:05:09 SAST"), "{key}: {part}");
                    assert!(part.contains("196.25.1.1"), "{key}");
                    assert!(part.contains("https://x.test/auth/forgot"), "{key}");
                }
            }
        }
        let locked = compose_notice(
            Notice::SignInLocked { failures: 10 },
            Language::Afr,
            "a@example.co.za",
            "Thandi",
            at_ms,
            "196.25.1.1",
            "https://x.test/auth/forgot",
        );
        assert!(locked.text.starts_with("Hallo Thandi,"));
        assert!(locked.text.contains("Na 10 mislukte aanmeldpogings"));
        let warned = compose_notice(
            Notice::SecondFactorFailed,
            Language::En,
            "a@example.co.za",
            "Thandi",
            at_ms,
            "196.25.1.1",
            "https://x.test/auth/forgot",
        );
        assert!(warned.text.contains("at most once an hour"));
    }
}
