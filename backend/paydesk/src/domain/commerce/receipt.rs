//! The receipt e-mailed to a payer who gave an address, in the language the
//! payer used the page in. Its words live in `locales/mail/<language>.json`.

use protocol::{Language, Order, PayPage};
use serde_json::Value;

use super::acquirer::brand_name;
use super::checkout::bank_name;
use crate::domain::calendar::long_date;
use crate::domain::mail::escape;
use crate::store::mail::OutgoingMail;
use crate::store::transactions::TransactionRecord;

const EN: &str = include_str!("../../../../../locales/mail/en.json");
const AFR: &str = include_str!("../../../../../locales/mail/afr.json");

fn words(language: Language) -> Value {
    let source = match language {
        Language::En => EN,
        Language::Afr => AFR,
    };
    serde_json::from_str(source).unwrap_or(Value::Null)
}

/// `R 1 500,00`, written as the dashboard writes rands in both languages
/// (`en-ZA` and `af-ZA`): a decimal comma, and no-break spaces between the
/// `R` and the amount and between thousands, so neither wraps apart.
pub fn rands(cents: i64) -> String {
    const NO_BREAK: char = '\u{a0}';
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(NO_BREAK);
        }
        grouped.push(c);
    }
    format!("{sign}R{NO_BREAK}{grouped},{:02}", cents % 100)
}

pub fn compose(
    merchant: &str,
    page: &PayPage,
    order: &Order,
    record: &TransactionRecord,
    to: &str,
    language: Language,
) -> OutgoingMail {
    let words = words(language);
    let word = |key: &str| {
        words["receipt"][key]
            .as_str()
            .unwrap_or_default()
            .replace("{merchant}", merchant)
            .replace("{name}", &order.payer_name)
    };
    let view = &record.view;
    let method = match (view.card_brand, view.bank) {
        (Some(brand), _) => format!("{} •••• {}", brand_name(brand), view.account_last_digits),
        (None, Some(bank)) => bank_name(bank).to_string(),
        _ => String::new(),
    };
    let rows = [
        (word("amount"), rands(order.amount_cents)),
        (word("reference"), order.reference.clone()),
        (word("method"), method),
        (word("date"), long_date(&view.action_date, language)),
        (word("order"), order.id.clone()),
    ];
    let intro = word("intro");
    let keep = word("keep");
    let plain_rows: String = rows.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
    let text = format!("{intro}\n\n{}\n{plain_rows}\n{keep}\n", page.title);
    let html_rows: String = rows
        .iter()
        .map(|(k, v)| {
            format!(
                "<tr><th align=\"left\">{}</th><td>{}</td></tr>",
                escape(k),
                escape(v)
            )
        })
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:sans-serif;color:#18181b\">\
         <p>{intro}</p><h2>{title}</h2><table cellpadding=\"4\">{html_rows}</table><p>{keep}</p></body></html>",
        lang = language.tag(),
        intro = escape(&intro),
        title = escape(&page.title),
        keep = escape(&keep),
    );
    OutgoingMail {
        to: to.to_string(),
        subject: word("subject"),
        text,
        html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rands_are_grouped_in_thousands() {
        assert_eq!(rands(5), "R\u{a0}0,05");
        assert_eq!(rands(15_000), "R\u{a0}150,00");
        assert_eq!(rands(150_025), "R\u{a0}1\u{a0}500,25");
        assert_eq!(rands(123_456_789), "R\u{a0}1\u{a0}234\u{a0}567,89");
        assert_eq!(rands(-1_050), "-R\u{a0}10,50");
    }
}
