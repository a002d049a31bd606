//! The lookup lists of the import templates (DOMAIN.md, lookup lists): the
//! value a spreadsheet shows, matched case-insensitively, with the wire id
//! and any alias accepted too.

use std::sync::LazyLock;

use protocol::{
    AccountType, AdjustmentCategory, AdjustmentType, ApprovalWindow, BankId, ClientType, IdType,
    Industry, Interval,
};

/// One list: the value shown in templates, the aliases also accepted, and the value.
pub struct Lookup<T: 'static> {
    pub title: &'static str,
    pub entries: &'static [(&'static str, &'static [&'static str], T)],
}

impl<T: Copy + serde::Serialize> Lookup<T> {
    /// The entry whose name, alias or wire id matches `value`, ignoring case
    /// and surrounding spaces.
    pub fn find(&self, value: &str) -> Option<T> {
        let wanted = value.trim();
        let by_name = self.entries.iter().find(|(name, aliases, _)| {
            name.eq_ignore_ascii_case(wanted)
                || aliases.iter().any(|a| a.eq_ignore_ascii_case(wanted))
        });
        // Ids are the rarer spelling, and the dearer check: second.
        by_name
            .or_else(|| {
                self.entries.iter().find(|(_, _, item)| {
                    crate::store::sql::wire_name(item).eq_ignore_ascii_case(wanted)
                })
            })
            .map(|(_, _, item)| *item)
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        self.entries.iter().map(|(name, _, _)| *name)
    }
}

pub const ID_TYPES: Lookup<IdType> = Lookup {
    title: "ID Type",
    entries: &[
        ("South African ID", &[], IdType::SouthAfricanId),
        ("Passport Number", &[], IdType::PassportNumber),
        ("Temporary Residence", &[], IdType::TemporaryResidence),
        (
            "Company Registration Number",
            &[],
            IdType::CompanyRegistrationNumber,
        ),
    ],
};

pub const CLIENT_TYPES: Lookup<ClientType> = Lookup {
    title: "Client Type",
    entries: &[
        ("Resident Individual", &[], ClientType::ResidentIndividual),
        (
            "Non-Resident Individual",
            &[],
            ClientType::NonResidentIndividual,
        ),
        ("Domestic Company", &[], ClientType::DomesticCompany),
    ],
};

pub const ACCOUNT_TYPES: Lookup<AccountType> = Lookup {
    title: "Bank account type",
    entries: &[
        ("Current", &["Cheque"], AccountType::Current),
        ("Savings", &[], AccountType::Savings),
        ("Transmission", &[], AccountType::Transmission),
    ],
};

pub const INTERVALS: Lookup<Interval> = Lookup {
    title: "Interval",
    entries: &[
        ("Weekly", &[], Interval::Weekly),
        ("Fortnightly", &[], Interval::Fortnightly),
        ("Monthly", &[], Interval::Monthly),
        ("Quarterly", &[], Interval::Quarterly),
        ("Biannually", &[], Interval::Biannually),
        ("Annually", &[], Interval::Annually),
    ],
};

pub const INDUSTRIES: Lookup<Industry> = Lookup {
    title: "Type of payment",
    entries: &[
        ("Account Repayment", &[], Industry::AccountRepayment),
        ("Insurance Premium", &[], Industry::InsurancePremium),
        (
            "Pension Fund Contribution",
            &[],
            Industry::PensionFundContribution,
        ),
        (
            "Medical Aid Contribution",
            &[],
            Industry::MedicalAidContribution,
        ),
        ("Unit Trust Purchase", &[], Industry::UnitTrustPurchase),
        (
            "Charitable or Religious Contribution",
            &[],
            Industry::CharitableOrReligiousContribution,
        ),
        (
            "Hire Purchase Repayment",
            &[],
            Industry::HirePurchaseRepayment,
        ),
        ("Bond Repayment", &[], Industry::BondRepayment),
        ("Loan Repayment", &[], Industry::LoanRepayment),
        ("Rental or Lease", &[], Industry::RentalOrLease),
        ("Subscription", &[], Industry::Subscription),
        ("Service Fee", &[], Industry::ServiceFee),
    ],
};

pub const ADJUSTMENT_CATEGORIES: Lookup<AdjustmentCategory> = Lookup {
    title: "Adjustment category",
    entries: &[
        ("Never", &[], AdjustmentCategory::Never),
        ("Quarterly", &[], AdjustmentCategory::Quarterly),
        ("Biannually", &[], AdjustmentCategory::Biannually),
        ("Annually", &[], AdjustmentCategory::Annually),
        ("Repo", &[], AdjustmentCategory::Repo),
    ],
};

pub const ADJUSTMENT_TYPES: Lookup<AdjustmentType> = Lookup {
    title: "Adjustment type",
    entries: &[
        ("Amount", &[], AdjustmentType::Amount),
        ("Rate", &[], AdjustmentType::Rate),
    ],
};

pub const APPROVAL_WINDOWS: Lookup<ApprovalWindow> = Lookup {
    title: "Approval window",
    entries: &[
        ("TT1 Real-time", &[], ApprovalWindow::Tt1RealTime),
        ("TT1 Delayed", &[], ApprovalWindow::Tt1Delayed),
        ("TT2 Batch", &[], ApprovalWindow::Tt2Batch),
    ],
};

/// The protocol's one bank list, with the names spreadsheets use.
pub static BANKS: LazyLock<Lookup<BankId>> = LazyLock::new(|| Lookup {
    title: "Bank name",
    // Made once for the life of the process, like the other lists' statics.
    entries: Box::leak(
        protocol::BANKS
            .iter()
            .map(|bank| (bank.name, bank.aliases, bank.id))
            .collect(),
    ),
});

/// Yes/no cells, any case.
pub const YES: &str = "yes";
pub const NO: &str = "no";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_match_by_name_alias_or_id_in_any_case() {
        assert_eq!(BANKS.find("first national bank"), Some(BankId::Fnb));
        assert_eq!(BANKS.find(" fnb "), Some(BankId::Fnb));
        assert_eq!(BANKS.find("standard_bank"), Some(BankId::StandardBank));
        assert_eq!(BANKS.find("Bank of Nowhere"), None);
        assert_eq!(ACCOUNT_TYPES.find("CHEQUE"), Some(AccountType::Current));
        assert_eq!(
            APPROVAL_WINDOWS.find("tt2 batch"),
            Some(ApprovalWindow::Tt2Batch)
        );
        assert_eq!(
            INDUSTRIES.find("charitable or religious contribution"),
            Some(Industry::CharitableOrReligiousContribution)
        );
        assert_eq!(INTERVALS.find("Daily"), None);
    }

    #[test]
    fn every_bank_of_the_protocol_is_listed() {
        assert_eq!(BANKS.entries.len(), 21);
    }
}
