//! What a delta carries: the records a committed event changed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    ApiToken, BankAccount, BusinessInfo, Card, CustomRole, Customer, EMandateRequest, HistoryEntry,
    Import, Invite, Mandate, Member, Order, PayPage, Payment, PaymentMethodSettings, Payout,
    PayoutSettings, Transaction, WebhookDelivery, WebhookEndpoint,
};

/// The kinds of record a delta can touch.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    Customer,
    BusinessInfo,
    BankAccount,
    Mandate,
    Payment,
    Transaction,
    Import,
    PayPage,
    Order,
    Card,
    EMandateRequest,
    WebhookEndpoint,
    ApiToken,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum Change {
    /// The customer as it is now (created, edited, archived or restored).
    CustomerUpserted {
        customer: Box<Customer>,
    },
    /// Too many records of a kind changed at once: refetch lists of that kind.
    Invalidate {
        kind: EntityKind,
    },
    BusinessInfoUpdated {
        info: Box<BusinessInfo>,
    },
    TwoFactorPolicyUpdated {
        required: bool,
    },
    BankAccountAdded {
        account: Box<BankAccount>,
    },
    BankAccountRemoved {
        id: String,
        customer_id: String,
    },
    MandateUpserted {
        mandate: Box<Mandate>,
    },
    PaymentUpserted {
        payment: Box<Payment>,
    },
    TransactionUpserted {
        transaction: Box<Transaction>,
    },
    PaymentMethodSettingsUpdated {
        settings: Box<PaymentMethodSettings>,
    },
    /// The merchant's business date moved (the test clock, or midnight).
    ClockAdvanced {
        today: String,
    },
    /// Money or a schedule moved: the figures built from them (home, insights, the balance
    /// and payouts, the statement) are out of date. Added by the server to a member's delta,
    /// beside the changes they may read, when they may read those figures, so a member who
    /// may not read the payments themselves still sees their totals follow.
    FiguresMoved {},
    /// An import as it is now: its progress while it commits, then its summary.
    ImportUpserted {
        import: Box<Import>,
    },
    PayPageUpserted {
        page: Box<PayPage>,
    },
    OrderUpserted {
        order: Box<Order>,
    },
    CardUpserted {
        card: Box<Card>,
    },
    CardRemoved {
        id: String,
        customer_id: String,
    },
    EMandateRequestUpserted {
        request: Box<EMandateRequest>,
    },
    /// A webhook endpoint as it is now (added, edited, paused or enabled,
    /// its secret rolled), or as it is when deliveries of its log were
    /// queued again: open endpoint screens read it and its log afresh.
    WebhookEndpointUpserted {
        endpoint: Box<WebhookEndpoint>,
    },
    /// A webhook endpoint removed, as it was then, so the account history
    /// names the endpoint it removed.
    WebhookEndpointRemoved {
        endpoint: Box<WebhookEndpoint>,
    },
    /// A webhook delivery as its endpoint's log shows it: queued, or after
    /// an attempt.
    WebhookDeliveryUpserted {
        delivery: Box<WebhookDelivery>,
    },
    /// An API token as it is now (made, rolled or revoked): what the
    /// account history reads of those events.
    ApiTokenUpserted {
        token: Box<ApiToken>,
    },
    /// A member joined or their role changed: their open sockets take the
    /// new grant at once.
    MemberUpserted {
        member: Box<Member>,
        /// The member as they were before a change of role (none when they
        /// joined): what the account history shows as "before".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        before: Option<Box<Member>>,
    },
    /// A member left the team: their sockets for the merchant close.
    MemberRemoved {
        user_id: String,
    },
    InviteUpserted {
        invite: Box<Invite>,
    },
    /// A custom role made or changed (its members' grants follow as
    /// `MemberUpserted` in the same delta).
    RoleUpserted {
        role: Box<CustomRole>,
    },
    RoleRemoved {
        role_id: String,
    },
    /// A new entry of the account history (written with the event that
    /// carries it; sent to members who may read its section).
    HistoryEntryAdded {
        entry: Box<HistoryEntry>,
    },
    /// A payout as it is now (requested, submitted, paid or failed).
    PayoutUpserted {
        payout: Box<Payout>,
    },
    /// The settlement account or the payout schedule changed.
    PayoutSettingsUpdated {
        settings: Box<PayoutSettings>,
    },
}
