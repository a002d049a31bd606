use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{BankAccountInput, BankId, Mode};

/// How money is collected (DOMAIN.md, collection streams). Mandates use the
/// first three; the pay page adds card and instant EFT.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    Debicheck,
    RegisteredMandate,
    EftDebitOrder,
    Card,
    InstantEft,
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 5] = [
        PaymentMethod::Debicheck,
        PaymentMethod::RegisteredMandate,
        PaymentMethod::EftDebitOrder,
        PaymentMethod::Card,
        PaymentMethod::InstantEft,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Debicheck => "debicheck",
            PaymentMethod::RegisteredMandate => "registered_mandate",
            PaymentMethod::EftDebitOrder => "eft_debit_order",
            PaymentMethod::Card => "card",
            PaymentMethod::InstantEft => "instant_eft",
        }
    }

    pub fn parse(value: &str) -> Option<PaymentMethod> {
        PaymentMethod::ALL.into_iter().find(|m| m.as_str() == value)
    }

    /// Debit orders drawn on a bank account under a mandate.
    pub fn is_debit_order(self) -> bool {
        matches!(
            self,
            PaymentMethod::Debicheck
                | PaymentMethod::RegisteredMandate
                | PaymentMethod::EftDebitOrder
        )
    }
}

/// The import templates' Client Type column.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ClientType {
    ResidentIndividual,
    NonResidentIndividual,
    DomesticCompany,
}

/// The import templates' Type of payment column: the payment industry.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Industry {
    AccountRepayment,
    InsurancePremium,
    PensionFundContribution,
    MedicalAidContribution,
    UnitTrustPurchase,
    CharitableOrReligiousContribution,
    HirePurchaseRepayment,
    BondRepayment,
    LoanRepayment,
    RentalOrLease,
    Subscription,
    ServiceFee,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentCategory {
    Never,
    Quarterly,
    Biannually,
    Annually,
    Repo,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AdjustmentType {
    Amount,
    Rate,
}

/// How long a DebiCheck payer has to approve: real-time 120 s, delayed by
/// 20:30 the same day, batch by the second business day.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalWindow {
    Tt1RealTime,
    Tt1Delayed,
    Tt2Batch,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MandateStatus {
    Draft,
    PendingAuthentication,
    Active,
    Rejected,
    NoReply,
    Suspended,
    Cancelled,
    Disabled,
    Completed,
}

/// The bank account a new mandate draws on: one the customer has, or a new one.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum BankAccountChoice {
    Existing { bank_account_id: String },
    New { input: BankAccountInput },
}

/// The authority to debit, with every field of the import templates.
/// Amounts are cents; dates `YYYY-MM-DD`; optional text is empty when blank.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct MandateInput {
    pub method: PaymentMethod,
    pub bank_account: BankAccountChoice,
    pub client_type: ClientType,
    pub industry: Industry,
    /// Letters and digits, up to 14.
    pub contract_reference: String,
    /// The most one collection may take; at most 1.5x the amount for DebiCheck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub maximum_collection_cents: Option<i64>,
    pub allow_tracking: bool,
    /// 1 to 10, only when tracking is allowed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tracking_days: Option<u8>,
    pub allow_date_adjustment: bool,
    pub variable_amount: bool,
    pub adjustment_category: AdjustmentCategory,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub adjustment_type: Option<AdjustmentType>,
    /// A decimal percentage, up to 8 digits of which 5 after the point.
    pub adjustment_rate: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub adjustment_amount_cents: Option<i64>,
    /// Required for DebiCheck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approval_window: Option<ApprovalWindow>,
    /// The name on the payer's statement.
    pub abbreviated_name: String,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Mandate {
    pub id: String,
    pub mode: Mode,
    pub customer_id: String,
    pub customer_name: String,
    pub customer_email: String,
    pub bank_account_id: String,
    pub bank: BankId,
    /// Only the last digits leave the server in lists.
    pub account_last_digits: String,
    pub method: PaymentMethod,
    pub status: MandateStatus,
    pub archived: bool,
    pub client_type: ClientType,
    pub industry: Industry,
    pub contract_reference: String,
    #[ts(type = "number")]
    pub amount_cents: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub maximum_collection_cents: Option<i64>,
    pub allow_tracking: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tracking_days: Option<u8>,
    pub allow_date_adjustment: bool,
    pub variable_amount: bool,
    pub adjustment_category: AdjustmentCategory,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub adjustment_type: Option<AdjustmentType>,
    pub adjustment_rate: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub adjustment_amount_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approval_window: Option<ApprovalWindow>,
    pub abbreviated_name: String,
    /// How many times the payer has been asked to approve (DebiCheck).
    pub authentication_requests: u32,
    /// The business date the payer's bank answers or the window closes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub authentication_due: Option<String>,
    /// The last collection date of the schedule it authorises, if it ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub end_date: Option<String>,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
}

/// Merchant actions on a mandate, each behind a confirmation.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum MandateAction {
    Suspend,
    Resume,
    Cancel,
    /// Ask the payer again after no reply.
    ResendAuthentication,
    Archive,
    Restore,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct MandateFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<MandateStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub method: Option<PaymentMethod>,
    /// Contract reference, name, e-mail, ID number or last digits of the account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub search: Option<String>,
    /// Only mandates that asked a payer to approve (the e-mandates screen).
    #[serde(default)]
    pub e_mandates_only: bool,
    #[serde(default)]
    pub archived: bool,
    /// Only one customer's (the customer page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
}

/// A method's switch and, for DebiCheck, the defaults a new mandate starts from.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodSettings {
    pub enabled: Vec<PaymentMethod>,
    pub debicheck_approval_window: ApprovalWindow,
    pub debicheck_allow_tracking: bool,
    pub debicheck_tracking_days: u8,
    pub debicheck_allow_date_adjustment: bool,
    pub debicheck_abbreviated_name: String,
    /// The stream seq of the event that last changed them (0 before the
    /// first save): an edit sends it back as its `base_version`; the server
    /// ignores it on the way in.
    #[serde(default)]
    #[ts(type = "number")]
    pub version: u64,
}
