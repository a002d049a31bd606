//! The account history in a person's words, for the file the server writes
//! of it: who acted, on which kind of record, what happened, each field's
//! label and its values. The words are the history screen's, from the same
//! locale files, and follow its rules (`web/src/features/history/labels.ts`,
//! `fieldLabels.ts`, `recordFields.ts`), so the file reads like the screen.

use protocol::{BANKS, HistoryActorKind, HistoryEntry, HistoryRecordKind, Language, Permissions};
use serde_json::Value;
use time::OffsetDateTime;
use time::macros::format_description;

use super::locale::text;
use crate::store::sql::wire_name;

/// How a field's value reads where it is more than its text, as the
/// screen's `RECORD_FIELDS` says (a test holds the two together): a worded
/// enum (`<words>`, its values at `<words>.<value>` in the locale files), a
/// list of them (`<words>[]`), a bank's name, or what a role grants. Money
/// (`…Cents`), times (`…At`, `…Until`), yes or no, lists and data are known
/// by their names and values alone.
pub const SHOWN: &[(&str, &str, &str)] = &[
    ("customer", "mode", "header.mode"),
    ("customer", "idType", "customers.idTypes"),
    ("bank_account", "bank", "bank"),
    ("bank_account", "accountType", "bankAccounts.types"),
    ("card", "mode", "header.mode"),
    ("card", "brand", "cards.brand"),
    ("mandate", "mode", "header.mode"),
    ("mandate", "bank", "bank"),
    ("mandate", "method", "collections.method"),
    ("mandate", "status", "collections.mandateStatus"),
    ("mandate", "clientType", "collections.clientType"),
    ("mandate", "industry", "collections.industry"),
    (
        "mandate",
        "adjustmentCategory",
        "collections.adjustmentCategory",
    ),
    ("mandate", "adjustmentType", "collections.adjustmentType"),
    ("mandate", "approvalWindow", "collections.approvalWindow"),
    ("e_mandate_request", "mode", "header.mode"),
    ("e_mandate_request", "language", "languages"),
    ("e_mandate_request", "method", "collections.method"),
    ("e_mandate_request", "interval", "collections.interval"),
    (
        "e_mandate_request",
        "payerMayChange",
        "eMandates.changeable[]",
    ),
    ("e_mandate_request", "state", "eMandates.state"),
    ("payment", "mode", "header.mode"),
    ("payment", "kind", "collections.kind"),
    ("payment", "method", "collections.method"),
    ("payment", "status", "collections.paymentStatus"),
    ("payment", "interval", "collections.interval"),
    ("transaction", "mode", "header.mode"),
    ("transaction", "paymentKind", "collections.kind"),
    ("transaction", "method", "collections.method"),
    ("transaction", "bank", "bank"),
    ("transaction", "cardBrand", "cards.brand"),
    ("transaction", "failure", "commerce.failure"),
    ("transaction", "status", "collections.transactionStatus"),
    ("import", "mode", "header.mode"),
    ("import", "kind", "collections.kind"),
    ("import", "template", "collections.method"),
    ("import", "status", "imports.status"),
    ("pay_page", "mode", "header.mode"),
    ("pay_page", "amountMode", "payPages.amountMode"),
    ("pay_page", "kind", "payPages.kind"),
    ("pay_page", "interval", "payPages.interval"),
    ("pay_page", "methods", "collections.method[]"),
    ("order", "mode", "header.mode"),
    ("order", "method", "collections.method"),
    ("order", "status", "orders.status"),
    ("order", "failure", "commerce.failure"),
    (
        "webhook_endpoint",
        "disabledReason",
        "accountHistory.values.disabledReason",
    ),
    ("api_token", "mode", "header.mode"),
    ("api_token", "permissions", "permissions"),
    ("api_token", "state", "developers.tokens.state"),
    ("member", "role", "teams.roles"),
    ("member", "permissions", "permissions"),
    ("invite", "role", "teams.roles"),
    ("invite", "status", "accountHistory.values.inviteStatus"),
    ("role", "grants", "permissions"),
    ("payment_method_settings", "enabled", "collections.method[]"),
    (
        "payment_method_settings",
        "debicheckApprovalWindow",
        "collections.approvalWindow",
    ),
    ("payout", "kind", "accountHistory.values.payoutKind"),
    ("payout", "status", "payouts.status"),
    ("payout", "failure", "payouts.failures"),
];

/// Fields inside a record's structured data worded apart from any record's
/// field of the same name (a transaction's follow-ups' `kind`), as the
/// screen's `NESTED_FIELDS` (web/src/features/history/recordFields.ts) says.
pub const NESTED_SHOWN: &[(&str, &str, &str)] =
    &[("transaction", "kind", "transactions.followUpKind")];

fn shown(kind: &str, field: &str) -> Option<&'static str> {
    SHOWN
        .iter()
        .find(|(k, f, _)| *k == kind && *f == field)
        .map(|(_, _, shown)| *shown)
}

/// The history's words in one language.
#[derive(Clone, Copy, Debug)]
pub struct HistoryWords {
    language: Language,
}

impl HistoryWords {
    pub fn new(language: Language) -> HistoryWords {
        HistoryWords { language }
    }

    fn at(&self, path: &[&str]) -> Option<&'static str> {
        text(self.language, path)
    }

    fn history(&self, group: &str, key: &str) -> Option<&'static str> {
        self.at(&["accountHistory", group, key])
    }

    /// A column of the file, as the screen's export names it.
    pub fn column(&self, column: &str) -> String {
        self.history("csv", column).unwrap_or(column).to_string()
    }

    /// The member's name, or what acted (the scheduler, a payer, ...).
    pub fn who(&self, entry: &HistoryEntry) -> String {
        if entry.actor_kind == HistoryActorKind::User
            && let Some(name) = entry.actor_name.as_deref().filter(|n| !n.trim().is_empty())
        {
            return name.to_string();
        }
        let kind = wire_name(&entry.actor_kind);
        self.history("actor", &kind).unwrap_or(&kind).to_string()
    }

    /// The kind of record, or its code when this build has no words for it.
    pub fn record(&self, entry: &HistoryEntry) -> String {
        let kind = entry.record_kind.as_str();
        self.history("record", kind).unwrap_or(kind).to_string()
    }

    pub fn action(&self, entry: &HistoryEntry) -> String {
        let action = entry.action.as_str();
        self.history("action", action).unwrap_or(action).to_string()
    }

    /// The record's own wording of a field, else the field's shared label,
    /// else its name: an entry recorded before a field was renamed still reads.
    pub fn field(&self, kind: &str, field: &str) -> String {
        self.at(&["accountHistory", "recordFieldNames", kind, field])
            .or_else(|| self.history("fieldNames", field))
            .unwrap_or(field)
            .to_string()
    }

    /// A field's value: nothing as an empty cell, yes or no, money in rand
    /// with a point, times in UTC, business dates as they are, enum codes in
    /// the app's words, what a role grants by section, and other structures
    /// field by field. Free text is left as it is.
    pub fn value(&self, kind: &str, field: &str, value: Option<&Value>) -> String {
        let shown = shown(kind, field);
        match value {
            None | Some(Value::Null) => String::new(),
            Some(Value::Bool(yes)) => self.yes_no(*yes),
            Some(Value::Number(number)) => match number.as_i64() {
                Some(cents) if field.ends_with("Cents") => rands(cents),
                Some(ms) if field.ends_with("At") || field.ends_with("Until") => utc_time(ms),
                _ => number.to_string(),
            },
            Some(Value::String(code)) => match shown {
                Some("bank") => bank_name(code),
                Some(words) if !words.ends_with("[]") && words != "permissions" => {
                    self.word(words, code)
                }
                _ => code.clone(),
            },
            Some(Value::Array(items)) if items.iter().any(Value::is_object) => items
                .iter()
                .map(|item| self.structured(kind, item))
                .collect::<Vec<_>>()
                .join("; "),
            Some(Value::Array(items)) => {
                let words = shown.and_then(|s| s.strip_suffix("[]"));
                items
                    .iter()
                    .map(|item| match (item, words) {
                        (Value::String(code), Some(words)) => self.word(words, code),
                        (Value::String(text), None) => text.clone(),
                        (other, _) => other.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            Some(other @ Value::Object(_)) => match shown {
                Some("permissions") => serde_json::from_value::<Permissions>(other.clone())
                    .map_or_else(|_| other.to_string(), |p| self.permissions(&p)),
                _ => self.structured(kind, other),
            },
        }
    }

    /// Structured data (a debit's steps, an order's items, a payout
    /// schedule) field by field: each labelled and read as the record's own
    /// field of that name reads, else as the first kind's field of that
    /// name, as the screen does (`fieldLabels.ts`, `structuredText`). The
    /// screen keeps the fields in the order sent; the file, in name order.
    fn structured(&self, kind: &str, value: &Value) -> String {
        match value {
            Value::Object(fields) => fields
                .iter()
                .filter(|(_, inner)| !inner.is_null())
                .map(|(field, inner)| {
                    let nested = NESTED_SHOWN
                        .iter()
                        .find(|(k, f, _)| *k == kind && f == field)
                        .map(|(_, _, words)| *words);
                    let text = if inner.is_object() || inner.is_array() {
                        self.structured(kind, inner)
                    } else if let (Some(words), Value::String(code)) = (nested, inner) {
                        self.word(words, code)
                    } else {
                        let worded_as = if shown(kind, field).is_some() {
                            kind
                        } else {
                            SHOWN
                                .iter()
                                .find(|(_, f, _)| f == field)
                                .map_or(kind, |(k, _, _)| *k)
                        };
                        self.value(worded_as, field, Some(inner))
                    };
                    format!("{}: {text}", self.field(kind, field))
                })
                .collect::<Vec<_>>()
                .join(", "),
            Value::Array(items) => items
                .iter()
                .map(|item| self.structured(kind, item))
                .collect::<Vec<_>>()
                .join("; "),
            other => self.value(kind, "", Some(other)),
        }
    }

    fn yes_no(&self, yes: bool) -> String {
        let key = if yes { "yes" } else { "no" };
        self.history("values", key)
            .map_or_else(|| yes.to_string(), str::to_string)
    }

    /// An enum code in the words the app uses for it elsewhere.
    fn word(&self, words: &str, code: &str) -> String {
        let mut path: Vec<&str> = words.split('.').collect();
        path.push(code);
        self.at(&path).unwrap_or(code).to_string()
    }

    /// What a role or token grants, as the team screen says it: the sections
    /// it changes, then those it only reads.
    fn permissions(&self, permissions: &Permissions) -> String {
        let names = |access: protocol::Access| {
            protocol::Section::ALL
                .into_iter()
                .filter(|section| permissions.get(*section) == access)
                .map(|section| {
                    let key = camel_case(&wire_name(&section));
                    self.at(&["developers", "tokens", "sections", &key])
                        .map_or(key.clone(), str::to_string)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let sentence = |key: &str, sections: String| {
            self.at(&["teams", "rolesList", key])
                .unwrap_or("{{sections}}")
                .replace("{{sections}}", &sections)
        };
        let (write, read) = (
            names(protocol::Access::Write),
            names(protocol::Access::Read),
        );
        let mut parts = Vec::new();
        if !write.is_empty() {
            parts.push(sentence("changes", write));
        }
        if !read.is_empty() {
            parts.push(sentence("reads", read));
        }
        if parts.is_empty() {
            return self
                .at(&["teams", "rolesList", "nothing"])
                .unwrap_or_default()
                .to_string();
        }
        parts.join(" ")
    }
}

/// The record's id as a person needs it: none for a one-per-stream setting
/// (its id is its kind) or an account (the person is named already).
pub fn shown_record_id(entry: &HistoryEntry) -> &str {
    let hidden = HistoryRecordKind::parse(&entry.record_kind)
        .is_some_and(|kind| kind.is_single() || kind == HistoryRecordKind::Account);
    match entry.record_id.as_deref() {
        Some(id) if !hidden && id != entry.record_kind => id,
        _ => "",
    }
}

fn camel_case(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn bank_name(id: &str) -> String {
    BANKS
        .iter()
        .find(|bank| wire_name(&bank.id) == id)
        .map_or_else(|| id.to_string(), |bank| bank.name.to_string())
}

/// Cents as rand with two decimals and a point, never a thousands separator.
fn rands(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.unsigned_abs();
    format!("{sign}{}.{:02}", cents / 100, cents % 100)
}

/// Milliseconds as an ISO 8601 time in UTC, as the file's time column.
pub fn utc_time(ms: i64) -> String {
    let format =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|at| at.format(&format).ok())
        .unwrap_or_else(|| ms.to_string())
}

#[cfg(test)]
#[path = "history_values_tests.rs"]
mod tests;
