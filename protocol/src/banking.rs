use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The banks a South African debit order can be drawn on (DOMAIN.md, Banks).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BankId {
    Absa,
    Capitec,
    Fnb,
    Nedbank,
    StandardBank,
    AfricanBank,
    Investec,
    Tymebank,
    DiscoveryBank,
    BidvestBank,
    BankZero,
    AccessBank,
    Sasfin,
    SaPostBank,
    RandMerchantBank,
    Albaraka,
    Hsbc,
    Citibank,
    StandardChartered,
    FinbondMutual,
    Ubank,
}

/// A bank as the product lists it: its name, other names merchants write
/// in spreadsheets, and the universal branch code a debit to any of its
/// branches can use. This is the one list: the server checks and imports by
/// it, and the web app gets it generated into `wire.ts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bank {
    pub id: BankId,
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    pub branch_code: &'static str,
    /// The fewest and most digits this bank's account numbers have
    /// (docs/bank-accounts.md). A number outside them cannot be the bank's,
    /// and a debit to it would come back rejected.
    pub account_digits: (u8, u8),
}

const fn bank(
    id: BankId,
    name: &'static str,
    aliases: &'static [&'static str],
    branch_code: &'static str,
    account_digits: (u8, u8),
) -> Bank {
    Bank {
        id,
        name,
        aliases,
        branch_code,
        account_digits,
    }
}

/// A bank whose numbering we have no published rule for: anything the
/// clearing house's eleven-digit account field can carry.
const ANY_CLEARING_LENGTH: (u8, u8) = (7, 11);

/// South African banks in the order merchants look for them (DOMAIN.md, Banks).
pub const BANKS: &[Bank] = &[
    bank(BankId::Absa, "Absa", &["ABSA Bank"], "632005", (9, 11)),
    bank(
        BankId::Capitec,
        "Capitec",
        &["Capitec Bank"],
        "470010",
        (10, 10),
    ),
    bank(
        BankId::Fnb,
        "FNB",
        &["First National Bank"],
        "250655",
        (10, 11),
    ),
    bank(BankId::Nedbank, "Nedbank", &[], "198765", (10, 11)),
    bank(
        BankId::StandardBank,
        "Standard Bank",
        &[],
        "051001",
        (9, 11),
    ),
    bank(BankId::AfricanBank, "African Bank", &[], "430000", (11, 11)),
    bank(BankId::Investec, "Investec", &[], "580105", (10, 11)),
    bank(BankId::Tymebank, "TymeBank", &[], "678910", (11, 11)),
    bank(
        BankId::DiscoveryBank,
        "Discovery Bank",
        &[],
        "679000",
        (10, 11),
    ),
    bank(
        BankId::BidvestBank,
        "Bidvest Bank",
        &[],
        "462005",
        ANY_CLEARING_LENGTH,
    ),
    bank(
        BankId::BankZero,
        "Bank Zero",
        &[],
        "888000",
        ANY_CLEARING_LENGTH,
    ),
    bank(
        BankId::AccessBank,
        "Access Bank",
        &[],
        "410506",
        ANY_CLEARING_LENGTH,
    ),
    bank(BankId::Sasfin, "Sasfin", &[], "683000", ANY_CLEARING_LENGTH),
    bank(
        BankId::SaPostBank,
        "SA Post Bank",
        &[],
        "460005",
        ANY_CLEARING_LENGTH,
    ),
    bank(
        BankId::RandMerchantBank,
        "Rand Merchant Bank",
        &[],
        "261251",
        ANY_CLEARING_LENGTH,
    ),
    bank(
        BankId::Albaraka,
        "Albaraka",
        &[],
        "800000",
        ANY_CLEARING_LENGTH,
    ),
    bank(BankId::Hsbc, "HSBC", &[], "587000", ANY_CLEARING_LENGTH),
    bank(
        BankId::Citibank,
        "Citibank",
        &[],
        "350005",
        ANY_CLEARING_LENGTH,
    ),
    bank(
        BankId::StandardChartered,
        "Standard Chartered",
        &[],
        "730020",
        ANY_CLEARING_LENGTH,
    ),
    bank(
        BankId::FinbondMutual,
        "Finbond Mutual",
        &[],
        "589000",
        ANY_CLEARING_LENGTH,
    ),
    bank(BankId::Ubank, "Ubank", &[], "431010", ANY_CLEARING_LENGTH),
];

impl BankId {
    /// This bank's entry in [`BANKS`], which lists every bank (a test checks).
    pub fn listed(self) -> &'static Bank {
        // The fallback is unreachable while every variant is listed.
        BANKS.iter().find(|b| b.id == self).unwrap_or(&BANKS[0])
    }
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AccountType {
    /// Also called a cheque account.
    Current,
    Savings,
    Transmission,
}

/// What a user types to add a customer's bank account.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BankAccountInput {
    /// Required, but optional on the wire: an account without it is refused
    /// with a `required` field error among its other mistakes, so that a
    /// form sent before a bank is chosen hears of them all at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bank: Option<BankId>,
    pub branch_code: String,
    pub account_type: AccountType,
    pub holder_name: String,
    pub account_number: String,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BankAccount {
    pub id: String,
    pub customer_id: String,
    pub bank: BankId,
    pub branch_code: String,
    pub account_type: AccountType,
    pub holder_name: String,
    pub account_number: String,
    #[ts(type = "number")]
    pub created_at: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bank_is_listed_once() {
        let all = [
            BankId::Absa,
            BankId::Capitec,
            BankId::Fnb,
            BankId::Nedbank,
            BankId::StandardBank,
            BankId::AfricanBank,
            BankId::Investec,
            BankId::Tymebank,
            BankId::DiscoveryBank,
            BankId::BidvestBank,
            BankId::BankZero,
            BankId::AccessBank,
            BankId::Sasfin,
            BankId::SaPostBank,
            BankId::RandMerchantBank,
            BankId::Albaraka,
            BankId::Hsbc,
            BankId::Citibank,
            BankId::StandardChartered,
            BankId::FinbondMutual,
            BankId::Ubank,
        ];
        // A new variant must be added above, which this match enforces.
        for id in all {
            match id {
                BankId::Absa
                | BankId::Capitec
                | BankId::Fnb
                | BankId::Nedbank
                | BankId::StandardBank
                | BankId::AfricanBank
                | BankId::Investec
                | BankId::Tymebank
                | BankId::DiscoveryBank
                | BankId::BidvestBank
                | BankId::BankZero
                | BankId::AccessBank
                | BankId::Sasfin
                | BankId::SaPostBank
                | BankId::RandMerchantBank
                | BankId::Albaraka
                | BankId::Hsbc
                | BankId::Citibank
                | BankId::StandardChartered
                | BankId::FinbondMutual
                | BankId::Ubank => {}
            }
            assert_eq!(BANKS.iter().filter(|b| b.id == id).count(), 1, "{id:?}");
            assert_eq!(id.listed().id, id);
        }
        assert_eq!(BANKS.len(), all.len());
        for b in BANKS {
            assert!(b.branch_code.len() == 6 && b.branch_code.bytes().all(|c| c.is_ascii_digit()));
        }
    }
}
