//! The signing pages' templates (`backend/templates/pay/sign*.html`) and
//! what fills them: the step forms, the terms in plain words, the waiting
//! page and the simulated banking app.

use askama::Template;

use super::super::views::Chrome;
use super::super::words::Words;
use paydesk::domain::calendar::long_date;
use paydesk::domain::commerce::checkout::bank_name;
use paydesk::domain::commerce::receipt::rands;
use paydesk::domain::e_mandate_signing::choices::{amount_limit, changeable};
use paydesk::domain::e_mandate_signing::{Answers, Signing, Step, Terms};
use paydesk::domain::imports::lookups::BANKS;
use paydesk::store::sql::wire_name;

/// One text field of a step.
pub struct Field {
    pub name: &'static str,
    pub label: String,
    pub hint: String,
    pub value: String,
    pub kind: &'static str,
    pub mode: &'static str,
    pub auto: &'static str,
}

#[derive(Template)]
#[template(path = "pay/sign.html")]
pub struct SignView<'a> {
    pub c: Chrome,
    pub step: &'static str,
    pub step_label: String,
    pub title: String,
    pub summary: String,
    pub heading: String,
    pub action: String,
    pub csrf: &'a str,
    pub key: &'a str,
    pub a: &'a Answers,
    pub hidden: Vec<(&'static str, String)>,
    pub fields: Vec<Field>,
    /// The terms the payer may change, on the terms step.
    pub choices: Vec<Field>,
    pub errors: Vec<(&'static str, String)>,
    pub banner: Option<String>,
    pub business_note: Option<String>,
    pub banks: Vec<(String, &'static str)>,
    pub types: Vec<(&'static str, String)>,
    pub terms: Vec<(String, String)>,
    pub consent_label: String,
    pub submit_label: String,
    pub back_step: Option<&'static str>,
    pub test_mode: bool,
}

impl SignView<'_> {
    pub fn error(&self, field: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, message)| message.as_str())
    }
}

#[derive(Template)]
#[template(path = "pay/sign_wait.html")]
pub struct WaitView {
    pub c: Chrome,
    pub heading: String,
    pub body: String,
    pub refresh_seconds: u32,
    pub app_link: Option<String>,
}

/// The names of the answers each step asks for; the others travel along
/// as hidden fields.
fn fields_of(step: Step) -> &'static [&'static str] {
    match step {
        Step::Details => &["payerKind", "name", "idNumber", "cellphone", "email"],
        Step::Bank => &["bank", "branchCode", "accountType", "accountNumber"],
        Step::Consent => &["consent", "amount", "startDate"],
    }
}

fn value_of<'a>(a: &'a Answers, name: &str) -> &'a str {
    match name {
        "payerKind" => &a.payer_kind,
        "name" => &a.name,
        "idNumber" => &a.id_number,
        "cellphone" => &a.cellphone,
        "email" => &a.email,
        "bank" => &a.bank,
        "branchCode" => &a.branch_code,
        "accountType" => &a.account_type,
        "accountNumber" => &a.account_number,
        "amount" => &a.amount,
        "startDate" => &a.start_date,
        _ => &a.consent,
    }
}

pub fn hidden_answers(a: &Answers, step: Step) -> Vec<(&'static str, String)> {
    [Step::Details, Step::Bank, Step::Consent]
        .into_iter()
        .filter(|s| *s != step)
        .flat_map(|s| fields_of(s).iter())
        .map(|name| (*name, value_of(a, name).to_string()))
        .filter(|(_, value)| !value.is_empty())
        .collect()
}

pub fn interval_words(w: &Words, terms: &Terms) -> String {
    w.t(&format!(
        "pay.mandate.intervals.{}",
        wire_name(&terms.interval)
    ))
    .to_string()
}

/// The account as the payer may see it again: bank and last digits.
pub fn account_words(a: &Answers) -> String {
    let bank = paydesk::domain::commerce::checkout::bank_of(&a.bank).map_or("", bank_name);
    let digits = a.account_number.len();
    let last = &a.account_number[digits.saturating_sub(4)..];
    format!("{bank} ···{last}")
}

/// The terms in plain words, as the merchant set them.
pub fn terms_list(w: &Words, signing: &Signing, a: &Answers) -> Vec<(String, String)> {
    let t = &signing.terms;
    let row = |key: &str, value: String| (w.t(key).to_string(), value);
    let mut rows = vec![
        row("pay.sign.amount", rands(t.amount_cents)),
        row(
            "pay.sign.maximum",
            rands(t.max_cents.unwrap_or(t.amount_cents)),
        ),
        row("pay.sign.interval", interval_words(w, t)),
        row("pay.sign.first", long_date(&t.start_date, w.language())),
        row(
            "pay.sign.method",
            w.t(&format!("pay.mandate.methods.{}", t.method.as_str()))
                .to_string(),
        ),
        row("pay.sign.statement", t.statement.clone()),
        row(
            "pay.sign.tracking",
            match t.tracking_days {
                Some(days) => w.fill("pay.sign.trackingOn", &[("days", &days.to_string())]),
                None => w.t("pay.sign.trackingOff").to_string(),
            },
        ),
        row(
            "pay.sign.adjustment",
            w.t(if t.date_adjustment {
                "pay.sign.adjustmentOn"
            } else {
                "pay.sign.adjustmentOff"
            })
            .to_string(),
        ),
        row("pay.sign.account", account_words(a)),
    ];
    if let Some(window) = t.window {
        let key = format!("pay.sign.windows.{}", wire_name(&window));
        rows.push(row("pay.sign.approval", w.t(&key).to_string()));
    }
    rows
}

pub fn details_fields(w: &Words, a: &Answers) -> Vec<Field> {
    let field = |name, key: &str, hint: &str, value: &str, kind, mode, auto| Field {
        name,
        label: w.t(key).to_string(),
        hint: w.t(hint).to_string(),
        value: value.to_string(),
        kind,
        mode,
        auto,
    };
    vec![
        field("name", "pay.sign.name", "", &a.name, "", "", "name"),
        field(
            "idNumber",
            "pay.sign.idNumber",
            "pay.sign.idHint",
            &a.id_number,
            "",
            "numeric",
            "off",
        ),
        field(
            "cellphone",
            "pay.sign.cellphone",
            "pay.sign.cellphoneHint",
            &a.cellphone,
            "tel",
            "tel",
            "tel",
        ),
        field(
            "email",
            "pay.sign.email",
            "pay.sign.emailHint",
            &a.email,
            "email",
            "email",
            "email",
        ),
    ]
}

pub fn bank_fields(w: &Words, a: &Answers) -> Vec<Field> {
    vec![
        Field {
            name: "branchCode",
            label: w.t("pay.sign.branchCode").to_string(),
            hint: w.t("pay.sign.branchHint").to_string(),
            value: a.branch_code.clone(),
            kind: "",
            mode: "numeric",
            auto: "off",
        },
        Field {
            name: "accountNumber",
            label: w.t("pay.sign.accountNumber").to_string(),
            hint: String::new(),
            value: a.account_number.clone(),
            kind: "",
            mode: "numeric",
            auto: "off",
        },
    ]
}

/// The terms step's fields for what the merchant lets the payer change,
/// filled with the payer's answer or else the merchant's terms.
pub fn choice_fields(w: &Words, signing: &Signing, a: &Answers) -> Vec<Field> {
    let may = changeable(signing);
    let t = &signing.terms;
    let or = |answer: &str, default: String| {
        if answer.is_empty() {
            default
        } else {
            answer.to_string()
        }
    };
    let mut fields = Vec::new();
    if may.amount {
        let limit = amount_limit(signing);
        fields.push(Field {
            name: "amount",
            label: w.t("pay.sign.chooseAmount").to_string(),
            hint: limit.map_or_else(String::new, |max| {
                w.fill("pay.sign.chooseAmountHint", &[("maximum", &rands(max))])
            }),
            value: or(&a.amount, cents_words(t.amount_cents)),
            kind: "",
            mode: "decimal",
            auto: "off",
        });
    }
    if may.start_date {
        fields.push(Field {
            name: "startDate",
            label: w.t("pay.sign.chooseStart").to_string(),
            hint: w.t("pay.sign.chooseStartHint").to_string(),
            value: or(&a.start_date, t.start_date.clone()),
            kind: "date",
            mode: "",
            auto: "off",
        });
    }
    fields
}

/// Cents as the payer types rands: `500.00`.
fn cents_words(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

pub fn banks() -> Vec<(String, &'static str)> {
    BANKS
        .entries
        .iter()
        .map(|(name, _, bank)| (wire_name(bank), *name))
        .collect()
}

pub fn account_types(w: &Words) -> Vec<(&'static str, String)> {
    ["current", "savings", "transmission"]
        .into_iter()
        .map(|t| (t, w.t(&format!("pay.sign.types.{t}")).to_string()))
        .collect()
}

#[derive(Template)]
#[template(path = "pay/sign_offer.html")]
pub struct OfferView<'a> {
    pub c: Chrome,
    pub page_title: &'a str,
    pub description: &'a str,
    pub amount: String,
    pub tabs: Vec<super::super::views::MethodTab>,
    pub body: String,
    pub action: String,
    pub csrf: &'a str,
    pub test_mode: bool,
}
