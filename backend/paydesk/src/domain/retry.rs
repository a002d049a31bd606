//! Unpaid reason codes the banks return, and what a schedule does after one.

/// A bank's reason for returning a debit unpaid (DOMAIN.md, unpaid codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnpaidCode {
    NotProvidedFor,
    DebitsNotAllowed,
    PaymentStopped,
    AccountFrozen,
    AccountInSequestration,
    AccountInLiquidation,
    AccountClosed,
    AccountTransferredWithinBank,
    AccountTransferredToOtherBank,
    AccountHolderDeceased,
    EffectsNotCleared,
    NoSuchAccount,
    RecallOrWithdrawal,
    NoAuthorityToDebit,
    DebitContravenesAuthority,
    AuthorisationCancelled,
    PreviouslyStopped,
    AccountNumberInvalid,
    NotFicaCompliant,
    ConsecutiveUnpaid,
}

impl UnpaidCode {
    pub const ALL: [UnpaidCode; 20] = [
        UnpaidCode::NotProvidedFor,
        UnpaidCode::DebitsNotAllowed,
        UnpaidCode::PaymentStopped,
        UnpaidCode::AccountFrozen,
        UnpaidCode::AccountInSequestration,
        UnpaidCode::AccountInLiquidation,
        UnpaidCode::AccountClosed,
        UnpaidCode::AccountTransferredWithinBank,
        UnpaidCode::AccountTransferredToOtherBank,
        UnpaidCode::AccountHolderDeceased,
        UnpaidCode::EffectsNotCleared,
        UnpaidCode::NoSuchAccount,
        UnpaidCode::RecallOrWithdrawal,
        UnpaidCode::NoAuthorityToDebit,
        UnpaidCode::DebitContravenesAuthority,
        UnpaidCode::AuthorisationCancelled,
        UnpaidCode::PreviouslyStopped,
        UnpaidCode::AccountNumberInvalid,
        UnpaidCode::NotFicaCompliant,
        UnpaidCode::ConsecutiveUnpaid,
    ];

    /// The two-digit code as banks write it.
    pub fn code(self) -> &'static str {
        match self {
            UnpaidCode::NotProvidedFor => "02",
            UnpaidCode::DebitsNotAllowed => "03",
            UnpaidCode::PaymentStopped => "04",
            UnpaidCode::AccountFrozen => "06",
            UnpaidCode::AccountInSequestration => "08",
            UnpaidCode::AccountInLiquidation => "10",
            UnpaidCode::AccountClosed => "12",
            UnpaidCode::AccountTransferredWithinBank => "14",
            UnpaidCode::AccountTransferredToOtherBank => "16",
            UnpaidCode::AccountHolderDeceased => "18",
            UnpaidCode::EffectsNotCleared => "22",
            UnpaidCode::NoSuchAccount => "26",
            UnpaidCode::RecallOrWithdrawal => "28",
            UnpaidCode::NoAuthorityToDebit => "30",
            UnpaidCode::DebitContravenesAuthority => "32",
            UnpaidCode::AuthorisationCancelled => "34",
            UnpaidCode::PreviouslyStopped => "36",
            UnpaidCode::AccountNumberInvalid => "50",
            UnpaidCode::NotFicaCompliant => "56",
            UnpaidCode::ConsecutiveUnpaid => "60",
        }
    }

    /// English, for logs and the published docs; the web app translates
    /// `unpaid.<code>` itself.
    pub fn description(self) -> &'static str {
        match self {
            UnpaidCode::NotProvidedFor => "Not provided for (insufficient funds)",
            UnpaidCode::DebitsNotAllowed => "Debits not allowed to this account",
            UnpaidCode::PaymentStopped => "Payment stopped by account holder",
            UnpaidCode::AccountFrozen => "Account frozen",
            UnpaidCode::AccountInSequestration => "Account in sequestration",
            UnpaidCode::AccountInLiquidation => "Account in liquidation",
            UnpaidCode::AccountClosed => "Account closed",
            UnpaidCode::AccountTransferredWithinBank => "Account transferred within the bank",
            UnpaidCode::AccountTransferredToOtherBank => "Account transferred to another bank",
            UnpaidCode::AccountHolderDeceased => "Account holder deceased",
            UnpaidCode::EffectsNotCleared => "Effects not cleared",
            UnpaidCode::NoSuchAccount => "No such account",
            UnpaidCode::RecallOrWithdrawal => "Recall or withdrawal",
            UnpaidCode::NoAuthorityToDebit => "No authority to debit (dispute)",
            UnpaidCode::DebitContravenesAuthority => {
                "Debit contravenes payer's authority (dispute)"
            }
            UnpaidCode::AuthorisationCancelled => "Authorisation cancelled (dispute)",
            UnpaidCode::PreviouslyStopped => "Previously stopped",
            UnpaidCode::AccountNumberInvalid => "Account number invalid",
            UnpaidCode::NotFicaCompliant => "Not FICA compliant",
            UnpaidCode::ConsecutiveUnpaid => "Consecutive unpaid rejection",
        }
    }

    /// Reads a code from a bank file; a leading zero may be missing.
    pub fn parse(value: &str) -> Option<UnpaidCode> {
        let value = value.trim();
        if value.is_empty() || value.len() > 2 || !value.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let padded = format!("{value:0>2}");
        UnpaidCode::ALL
            .into_iter()
            .find(|code| code.code() == padded)
    }
}

/// The payer disputed the debit: these count toward the 0.5 % threshold.
pub fn is_dispute(code: UnpaidCode) -> bool {
    matches!(
        code,
        UnpaidCode::NoAuthorityToDebit
            | UnpaidCode::DebitContravenesAuthority
            | UnpaidCode::AuthorisationCancelled
    )
}

/// Only a lack of funds (02) or uncleared effects (22) leaves the mandate
/// usable; every other code needs the payer to sign a new one.
pub fn needs_new_mandate(code: UnpaidCode) -> bool {
    !matches!(
        code,
        UnpaidCode::NotProvidedFor | UnpaidCode::EffectsNotCleared
    )
}

/// How many times an insufficient-funds debit is re-run on the next
/// mandated date before it counts as consecutive unpaids (60). Banks
/// penalise merchants who keep presenting debits that bounce.
pub const MAX_INSUFFICIENT_FUNDS_RETRIES: u32 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryDecision {
    /// Present the debit again on the schedule's next nominal date.
    RetryOnNextDate,
    /// Stop the schedule; `reason` is the code shown to the merchant.
    StopPayment { reason: UnpaidCode },
}

/// What a schedule does after `code`, given how many 02s came straight
/// before it. Only 02 is re-run; 22 leaves the mandate usable but still
/// stops the schedule until the merchant restarts it.
pub fn decide_after_unpaid(code: UnpaidCode, previous_consecutive_02s: u32) -> RetryDecision {
    match code {
        UnpaidCode::NotProvidedFor if previous_consecutive_02s < MAX_INSUFFICIENT_FUNDS_RETRIES => {
            RetryDecision::RetryOnNextDate
        }
        UnpaidCode::NotProvidedFor => RetryDecision::StopPayment {
            reason: UnpaidCode::ConsecutiveUnpaid,
        },
        reason => RetryDecision::StopPayment { reason },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_domain_brief() {
        let codes: Vec<_> = UnpaidCode::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(
            codes,
            [
                "02", "03", "04", "06", "08", "10", "12", "14", "16", "18", "22", "26", "28", "30",
                "32", "34", "36", "50", "56", "60"
            ]
        );
        for code in UnpaidCode::ALL {
            assert!(!code.description().is_empty());
        }
    }

    #[test]
    fn parsing_codes() {
        for code in UnpaidCode::ALL {
            assert_eq!(UnpaidCode::parse(code.code()), Some(code));
        }
        assert_eq!(UnpaidCode::parse("2"), Some(UnpaidCode::NotProvidedFor));
        assert_eq!(UnpaidCode::parse(" 12 "), Some(UnpaidCode::AccountClosed));
        for bad in ["", "01", "99", "002", "ab", "-2", "+2"] {
            assert_eq!(UnpaidCode::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn disputes_are_30_32_and_34() {
        let disputes: Vec<_> = UnpaidCode::ALL
            .into_iter()
            .filter(|c| is_dispute(*c))
            .map(UnpaidCode::code)
            .collect();
        assert_eq!(disputes, ["30", "32", "34"]);
    }

    #[test]
    fn all_but_02_and_22_need_a_new_mandate() {
        let keep: Vec<_> = UnpaidCode::ALL
            .into_iter()
            .filter(|c| !needs_new_mandate(*c))
            .map(UnpaidCode::code)
            .collect();
        assert_eq!(keep, ["02", "22"]);
    }

    #[test]
    fn insufficient_funds_retries_twice_then_becomes_60() {
        let code = UnpaidCode::NotProvidedFor;
        assert_eq!(decide_after_unpaid(code, 0), RetryDecision::RetryOnNextDate);
        assert_eq!(decide_after_unpaid(code, 1), RetryDecision::RetryOnNextDate);
        for previous in [2, 3, 10] {
            assert_eq!(
                decide_after_unpaid(code, previous),
                RetryDecision::StopPayment {
                    reason: UnpaidCode::ConsecutiveUnpaid
                }
            );
        }
    }

    #[test]
    fn every_other_code_stops_with_itself() {
        for code in UnpaidCode::ALL {
            if code == UnpaidCode::NotProvidedFor {
                continue;
            }
            for previous in [0, 1, 5] {
                assert_eq!(
                    decide_after_unpaid(code, previous),
                    RetryDecision::StopPayment { reason: code },
                    "{code:?}"
                );
            }
        }
    }
}
