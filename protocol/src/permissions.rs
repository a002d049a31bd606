//! What a member may do on a merchant: a matrix of sections × access. The
//! server decides with it (`paydesk::domain::permissions`); the web app gets
//! the same matrix to hide what the member cannot do.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One area of the merchant's data a role grants access to.
#[derive(
    Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    Customers,
    Mandates,
    Payments,
    Imports,
    PayPages,
    Transactions,
    Orders,
    Refunds,
    Exports,
    Payouts,
    Insights,
    /// API tokens, webhooks and integrations.
    Developers,
    /// Members, invites and roles.
    Team,
    /// The account history.
    History,
    /// Business info, payment-method settings, the merchant's own bank details.
    Settings,
}

impl Section {
    pub const ALL: [Section; 15] = [
        Section::Customers,
        Section::Mandates,
        Section::Payments,
        Section::Imports,
        Section::PayPages,
        Section::Transactions,
        Section::Orders,
        Section::Refunds,
        Section::Exports,
        Section::Payouts,
        Section::Insights,
        Section::Developers,
        Section::Team,
        Section::History,
        Section::Settings,
    ];
}

/// How far a role reaches into a section. Ordered: write includes read.
#[derive(
    Serialize,
    Deserialize,
    TS,
    JsonSchema,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    #[default]
    None,
    Read,
    Write,
}

/// A role's access to every section. One named field per section, so the
/// web app reads `permissions.customers` and a new section cannot be
/// forgotten by either side.
#[derive(
    Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash, Default,
)]
#[serde(rename_all = "camelCase", default)]
pub struct Permissions {
    pub customers: Access,
    pub mandates: Access,
    pub payments: Access,
    pub imports: Access,
    pub pay_pages: Access,
    pub transactions: Access,
    pub orders: Access,
    pub refunds: Access,
    pub exports: Access,
    pub payouts: Access,
    pub insights: Access,
    pub developers: Access,
    pub team: Access,
    pub history: Access,
    pub settings: Access,
}

impl Permissions {
    /// Every section at the same access.
    pub const fn all(access: Access) -> Permissions {
        Permissions {
            customers: access,
            mandates: access,
            payments: access,
            imports: access,
            pay_pages: access,
            transactions: access,
            orders: access,
            refunds: access,
            exports: access,
            payouts: access,
            insights: access,
            developers: access,
            team: access,
            history: access,
            settings: access,
        }
    }

    fn slot(&mut self, section: Section) -> &mut Access {
        match section {
            Section::Customers => &mut self.customers,
            Section::Mandates => &mut self.mandates,
            Section::Payments => &mut self.payments,
            Section::Imports => &mut self.imports,
            Section::PayPages => &mut self.pay_pages,
            Section::Transactions => &mut self.transactions,
            Section::Orders => &mut self.orders,
            Section::Refunds => &mut self.refunds,
            Section::Exports => &mut self.exports,
            Section::Payouts => &mut self.payouts,
            Section::Insights => &mut self.insights,
            Section::Developers => &mut self.developers,
            Section::Team => &mut self.team,
            Section::History => &mut self.history,
            Section::Settings => &mut self.settings,
        }
    }

    pub fn get(&self, section: Section) -> Access {
        let mut copy = *self;
        *copy.slot(section)
    }

    /// The same matrix with one section set.
    #[must_use]
    pub fn with(mut self, section: Section, access: Access) -> Permissions {
        *self.slot(section) = access;
        self
    }

    /// Whether the matrix grants at least `access` on `section`.
    pub fn allows(&self, section: Section, access: Access) -> bool {
        self.get(section) >= access
    }

    /// True when nothing in `self` reaches further than `ceiling`: what an
    /// admin may grant is bounded by what they hold.
    pub fn within(&self, ceiling: &Permissions) -> bool {
        Section::ALL.iter().all(|s| self.get(*s) <= ceiling.get(*s))
    }
}
