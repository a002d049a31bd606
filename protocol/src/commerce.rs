//! Pay pages (the merchant's public checkout links), the commerce orders a
//! checkout makes, and cards kept on file.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{Mode, PaymentKind, PaymentMethod};

/// Whether a pay page asks a set amount or lets the payer choose one.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AmountMode {
    Fixed,
    PayerChosen,
}

/// How often a recurring pay page collects.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PageInterval {
    Monthly,
    Annually,
}

/// What a merchant fills in for a pay page.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PayPageInput {
    pub title: String,
    pub description: String,
    pub amount_mode: AmountMode,
    /// The amount of a fixed page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub amount_cents: Option<i64>,
    /// The bounds of a payer-chosen amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub min_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub max_cents: Option<i64>,
    pub kind: PaymentKind,
    /// Recurring pages only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interval: Option<PageInterval>,
    /// Once-off pages take card and instant EFT; recurring pages card and DebiCheck.
    pub methods: Vec<PaymentMethod>,
    /// The last day the page takes payments, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub expires_on: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_uses: Option<u32>,
    /// The merchant's reference, carried by every order and transaction.
    pub reference: String,
    /// Where the payer goes after paying (https), instead of our success page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub success_url: Option<String>,
    /// The page's accent colour, `#rrggbb`.
    pub colour: String,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PayPage {
    pub id: String,
    pub mode: Mode,
    pub title: String,
    pub description: String,
    pub amount_mode: AmountMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub amount_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub min_cents: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub max_cents: Option<i64>,
    pub kind: PaymentKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub interval: Option<PageInterval>,
    pub methods: Vec<PaymentMethod>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub expires_on: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_uses: Option<u32>,
    /// Successful checkouts so far.
    pub uses: u32,
    pub reference: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub success_url: Option<String>,
    pub colour: String,
    /// The logo's version (its upload time), for `/pay/{id}/logo?v=`; none without a logo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub logo_version: Option<i64>,
    pub active: bool,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
    /// The stream seq of the event that last changed it: an edit sends it
    /// back as its `base_version`.
    #[serde(default)]
    #[ts(type = "number")]
    pub version: u64,
}

/// Largest logo a pay page may carry: payers pay for every byte.
pub const PAY_PAGE_LOGO_MAX_BYTES: usize = 24 * 1024;

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OrderStatus {
    Pending,
    Paid,
    Failed,
    Refunded,
    Cancelled,
    // The payer left it at the 3-D Secure or bank step and it expired:
    // nothing was charged, nor will be.
    Abandoned,
}

/// Why a card or bank payment on the pay page did not go through.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PayFailure {
    Declined,
    InsufficientFunds,
    AuthenticationFailed,
    CancelledByPayer,
    // Left unanswered at the 3-D Secure or bank step past its expiry.
    Abandoned,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct OrderItem {
    pub description: String,
    pub quantity: u32,
    #[ts(type = "number")]
    pub unit_cents: i64,
}

/// One checkout on a pay page (or one charge of a card on file).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    pub id: String,
    pub mode: Mode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page_id: Option<String>,
    pub items: Vec<OrderItem>,
    #[ts(type = "number")]
    pub amount_cents: i64,
    pub payer_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub payer_email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub customer_id: Option<String>,
    pub method: PaymentMethod,
    pub status: OrderStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub failure: Option<PayFailure>,
    pub reference: String,
    /// The transaction that carries the money, once there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transaction_id: Option<String>,
    /// What has been paid back so far; the order turns `refunded` when it
    /// reaches the amount.
    #[serde(default)]
    #[ts(type = "number")]
    pub refunded_cents: i64,
    /// The processing fee the order costs: the method's price of the amount
    /// less what refunds gave back of it.
    #[serde(default)]
    #[ts(type = "number")]
    pub fee_cents: i64,
    /// What the merchant keeps: the amount less refunds and the fee.
    #[serde(default)]
    #[ts(type = "number")]
    pub net_cents: i64,
    /// The refunds of the order, oldest first. Filled for one order (its
    /// query and its changes); the orders of a list leave it empty.
    #[serde(default)]
    pub refunds: Vec<OrderRefund>,
    #[ts(type = "number")]
    pub created_at: i64,
    #[ts(type = "number")]
    pub updated_at: i64,
}

/// One refund of an order: money of its own that left the merchant's
/// balance, with the part of the fee it gave back.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct OrderRefund {
    pub id: String,
    #[ts(type = "number")]
    pub amount_cents: i64,
    #[ts(type = "number")]
    pub fee_return_cents: i64,
    /// The business date of the refund.
    pub refunded_on: String,
    #[ts(type = "number")]
    pub created_at: i64,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq, Default)]
#[serde(rename_all = "camelCase")]
pub struct OrderFilter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<OrderStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub method: Option<PaymentMethod>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page_id: Option<String>,
    /// Payer name or e-mail, or the reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub search: Option<String>,
}

/// Merchant actions on an order.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OrderAction {
    /// Give a paid order's money back.
    Refund,
    /// Stop waiting for a payer who left a pending order.
    Cancel,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CardBrand {
    Visa,
    Mastercard,
    Amex,
    Diners,
    Other,
}

/// A card kept on file: never the number or CVV, only what a receipt shows.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Card {
    pub id: String,
    pub mode: Mode,
    pub customer_id: String,
    pub customer_name: String,
    pub brand: CardBrand,
    pub last_four: String,
    pub expiry_month: u8,
    pub expiry_year: u16,
    /// The pay page it was saved on, for a recurring card payment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page_id: Option<String>,
    /// The recurring charge the scheduler makes with this card, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub schedule: Option<CardSchedule>,
    #[ts(type = "number")]
    pub created_at: i64,
}

/// Where a card's recurring charge stands.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CardScheduleStatus {
    /// Charged on its dates (a refused charge is retried: see `retryDate`).
    Active,
    /// The retries ran out or the card expired: waits for the payer's new card.
    Paused,
    /// The merchant stopped it.
    Stopped,
}

/// Why a card's recurring charge paused.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CardPauseReason {
    RetriesExhausted,
    CardExpired,
}

/// A card's recurring charge, as the scheduler makes it.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct CardSchedule {
    #[ts(type = "number")]
    pub amount_cents: i64,
    pub interval: PageInterval,
    pub reference: String,
    pub status: CardScheduleStatus,
    /// The nominal date of the next charge (`YYYY-MM-DD`).
    pub next_charge_date: String,
    /// When a refused charge is tried again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub retry_date: Option<String>,
    /// Refused tries of the charge now due.
    pub failed_tries: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pause_reason: Option<CardPauseReason>,
}
