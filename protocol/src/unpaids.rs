//! What a merchant does about a debit order the bank returned unpaid, and
//! the record of it kept on the transaction.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::Language;

/// One way to follow up an unpaid debit order (`Command::ActOnUnpaid`).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum UnpaidAction {
    /// Present the debit again on `date` (`YYYY-MM-DD`, a business day from
    /// today). Only a return the bank allows again (02, insufficient funds)
    /// that still waits to be presented; other codes need a new mandate.
    Represent { date: String },
    /// Make a once-off pay page for the amount and mail its link to the payer.
    SendPayLink { language: Language },
    /// Ask the payer to sign a new mandate online (an e-mandate request on
    /// the payment's terms), mailed to them.
    RequestMandate { language: Language },
    /// Mail the payer the merchant's own words about the unpaid.
    EmailPayer { message: String, language: Language },
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum UnpaidFollowUpKind {
    Represented,
    PayLinkSent,
    MandateRequested,
    PayerEmailed,
}

/// What was done about an unpaid, newest last, kept on its transaction.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct UnpaidFollowUp {
    pub kind: UnpaidFollowUpKind,
    /// When it was done, on the stream's clock.
    #[ts(type = "number")]
    pub done_at: i64,
    /// The day chosen to present the debit again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub date: Option<String>,
    /// The pay page made for the amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pay_page_id: Option<String>,
    /// The e-mandate request sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub e_mandate_request_id: Option<String>,
    /// The address a mail went to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub email: Option<String>,
}
