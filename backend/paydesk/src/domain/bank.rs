//! The bank seen by collections, and the deterministic bank of test mode.
//! In test mode the payer's account number alone decides what happens, so a
//! merchant can rehearse every outcome; the table below is published in the
//! docs.

use super::lifecycle::mandate::MandateEvent;
use super::lifecycle::transaction::{TransactionEvent, TransactionStatus};
use super::retry::UnpaidCode;

/// One bank report, `day` business days after the action date. The
/// scheduler replays these as the days pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptedEvent {
    pub day: u8,
    pub event: TransactionEvent,
}

/// The payer's answer to a DebiCheck authentication request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Authentication {
    Approved,
    Declined,
    /// The approval window closes unanswered.
    NoReply,
}

impl Authentication {
    pub fn mandate_event(self) -> MandateEvent {
        match self {
            Authentication::Approved => MandateEvent::Approve,
            Authentication::Declined => MandateEvent::Reject,
            Authentication::NoReply => MandateEvent::NoReply,
        }
    }
}

/// What happens to a debit once it reaches the bank.
pub trait Bank {
    /// The bank's reports for a debit from `account_number`, starting once
    /// the transaction is sent to the bank.
    fn submit_collection(&self, account_number: &str) -> Vec<ScriptedEvent>;
    fn authenticate_mandate(&self, account_number: &str) -> Authentication;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Paid,
    Unpaid(UnpaidCode),
    RejectedByBank,
    TrackedThenPaid,
    /// Paid, then disputed by the payer.
    Disputed,
    /// Paid, disputed, then the money returned to the payer.
    Reversed,
}

const fn at(day: u8, event: TransactionEvent) -> ScriptedEvent {
    ScriptedEvent { day, event }
}

impl Outcome {
    pub fn script(self) -> Vec<ScriptedEvent> {
        use TransactionEvent as E;
        match self {
            Outcome::Paid => vec![at(0, E::Accept), at(1, E::Pay)],
            // Unpaids come back a couple of days after the action date.
            Outcome::Unpaid(code) => vec![at(0, E::Accept), at(2, E::ReturnUnpaid(code))],
            Outcome::RejectedByBank => vec![at(0, E::RejectByBank)],
            Outcome::TrackedThenPaid => vec![at(0, E::Accept), at(1, E::Track), at(3, E::Pay)],
            Outcome::Disputed => vec![at(0, E::Accept), at(1, E::Pay), at(5, E::Dispute)],
            Outcome::Reversed => vec![
                at(0, E::Accept),
                at(1, E::Pay),
                at(5, E::Dispute),
                at(7, E::Reverse),
            ],
        }
    }

    /// Where the transaction ends once the whole script has played.
    pub fn final_status(self) -> TransactionStatus {
        match self {
            Outcome::Paid | Outcome::TrackedThenPaid => TransactionStatus::Paid,
            Outcome::Unpaid(code) => TransactionStatus::Unpaid(code),
            Outcome::RejectedByBank => TransactionStatus::RejectedByBank,
            Outcome::Disputed => TransactionStatus::Disputed,
            Outcome::Reversed => TransactionStatus::Reversed,
        }
    }
}

/// Test-mode account numbers that force a collection outcome. Any other
/// number is paid.
pub const MAGIC_ACCOUNTS: &[(&str, Outcome, &str)] = &[
    ("4000000001", Outcome::Paid, "Paid the next business day"),
    (
        "4000000002",
        Outcome::Unpaid(UnpaidCode::NotProvidedFor),
        "Unpaid 02, not provided for (insufficient funds): re-run on the next date",
    ),
    (
        "4000000012",
        Outcome::Unpaid(UnpaidCode::AccountClosed),
        "Unpaid 12, account closed: the payment stops and needs a new mandate",
    ),
    (
        "4000000004",
        Outcome::RejectedByBank,
        "Rejected by the bank on the action date",
    ),
    (
        "4000000005",
        Outcome::TrackedThenPaid,
        "In tracking from the next business day, paid on the third",
    ),
    (
        "4000000006",
        Outcome::Disputed,
        "Paid, then disputed by the payer five business days later",
    ),
    (
        "4000000007",
        Outcome::Reversed,
        "Paid, disputed after five business days, reversed after seven",
    ),
];

/// Test-mode account numbers that force a DebiCheck authentication answer.
/// Any other number is approved.
pub const MAGIC_MANDATE_ACCOUNTS: &[(&str, Authentication, &str)] = &[
    ("4100000001", Authentication::Approved, "The payer approves"),
    ("4100000002", Authentication::Declined, "The payer declines"),
    (
        "4100000003",
        Authentication::NoReply,
        "The payer never answers; the approval window closes",
    ),
];

/// What the bank's account verification says of an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verification {
    Verified,
    NotFound,
    Closed,
    /// The account is held in another name than the one given.
    HolderMismatch,
    /// The account is of another type than the one given.
    TypeMismatch,
    /// The account takes credits but no debit orders (payouts to it are fine).
    NoDebits,
}

/// What the bank does with a payout (an EFT credit) to an account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayoutOutcome {
    Paid,
    /// Refused, with the reason's stable code (the app translates it).
    Failed(&'static str),
}

/// Account numbers that force an account verification answer (for a
/// customer's account and the settlement account alike) or a payout
/// outcome. Any other number verifies and is paid. A customer's account that
/// closed for debits (4000000012) also refuses payouts.
pub const MAGIC_PAYOUT_ACCOUNTS: &[(&str, Verification, PayoutOutcome, &str)] = &[
    (
        "4200000001",
        Verification::NotFound,
        PayoutOutcome::Paid,
        "Account verification: no such account",
    ),
    (
        "4200000002",
        Verification::Closed,
        PayoutOutcome::Paid,
        "Account verification: the account is closed",
    ),
    (
        "4200000004",
        Verification::HolderMismatch,
        PayoutOutcome::Paid,
        "Account verification: the account is held in another name",
    ),
    (
        "4200000005",
        Verification::TypeMismatch,
        PayoutOutcome::Paid,
        "Account verification: the account is of another type",
    ),
    (
        "4200000006",
        Verification::NoDebits,
        PayoutOutcome::Paid,
        "Account verification: the account takes no debit orders (payouts to it are paid)",
    ),
    (
        "4200000003",
        Verification::Verified,
        PayoutOutcome::Failed("account_frozen"),
        "Verifies, but every payout to it fails the next business day (account frozen); the money returns to the balance",
    ),
    (
        "4000000012",
        Verification::Verified,
        PayoutOutcome::Failed("account_closed"),
        "A payout to it fails the next business day (account closed)",
    ),
];

/// Spaces people type inside account numbers do not change the outcome.
fn normalise(account_number: &str) -> String {
    account_number
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// The deterministic bank of test mode.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimulatedBank;

impl SimulatedBank {
    pub fn outcome(account_number: &str) -> Outcome {
        let number = normalise(account_number);
        MAGIC_ACCOUNTS
            .iter()
            .find(|(magic, _, _)| *magic == number)
            .map_or(Outcome::Paid, |(_, outcome, _)| *outcome)
    }
}

impl SimulatedBank {
    /// Whether `account_number` is one of the numbers this bank publishes
    /// for rehearsing an outcome. They are taken for every bank, whatever
    /// its numbering, so each outcome can be tried with any bank.
    pub fn is_published(account_number: &str) -> bool {
        let number = normalise(account_number);
        MAGIC_ACCOUNTS.iter().any(|(magic, _, _)| *magic == number)
            || MAGIC_MANDATE_ACCOUNTS
                .iter()
                .any(|(magic, _, _)| *magic == number)
            || MAGIC_PAYOUT_ACCOUNTS
                .iter()
                .any(|(magic, _, _, _)| *magic == number)
    }

    /// The bank's account verification (AVS): whether the account exists,
    /// is open, is in the holder's name, of the type given, and takes debits.
    pub fn verify_account(account_number: &str) -> Verification {
        let number = normalise(account_number);
        MAGIC_PAYOUT_ACCOUNTS
            .iter()
            .find(|(magic, _, _, _)| *magic == number)
            .map_or(Verification::Verified, |(_, answer, _, _)| *answer)
    }

    /// What happens to a payout submitted to `account_number`.
    pub fn payout_outcome(account_number: &str) -> PayoutOutcome {
        let number = normalise(account_number);
        MAGIC_PAYOUT_ACCOUNTS
            .iter()
            .find(|(magic, _, _, _)| *magic == number)
            .map_or(PayoutOutcome::Paid, |(_, _, outcome, _)| *outcome)
    }
}

impl Bank for SimulatedBank {
    fn submit_collection(&self, account_number: &str) -> Vec<ScriptedEvent> {
        SimulatedBank::outcome(account_number).script()
    }

    fn authenticate_mandate(&self, account_number: &str) -> Authentication {
        let number = normalise(account_number);
        MAGIC_MANDATE_ACCOUNTS
            .iter()
            .find(|(magic, _, _)| *magic == number)
            .map_or(Authentication::Approved, |(_, answer, _)| *answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lifecycle::{mandate, transaction};
    use mandate::{MandateState, MandateStatus};

    fn play(script: &[ScriptedEvent]) -> TransactionStatus {
        script
            .iter()
            .try_fold(TransactionStatus::SentToBank, |status, step| {
                transaction::transition(status, step.event)
            })
            .unwrap_or_else(|e| panic!("illegal script {script:?}: {e}"))
    }

    #[test]
    fn every_magic_account_gives_its_outcome() {
        let bank = SimulatedBank;
        let expected = [
            ("4000000001", TransactionStatus::Paid),
            (
                "4000000002",
                TransactionStatus::Unpaid(UnpaidCode::NotProvidedFor),
            ),
            (
                "4000000012",
                TransactionStatus::Unpaid(UnpaidCode::AccountClosed),
            ),
            ("4000000004", TransactionStatus::RejectedByBank),
            ("4000000005", TransactionStatus::Paid),
            ("4000000006", TransactionStatus::Disputed),
            ("4000000007", TransactionStatus::Reversed),
        ];
        assert_eq!(expected.len(), MAGIC_ACCOUNTS.len());
        for (number, status) in expected {
            assert_eq!(play(&bank.submit_collection(number)), status, "{number}");
        }
        let tracked = bank.submit_collection("4000000005");
        assert!(
            tracked
                .iter()
                .any(|step| step.event == TransactionEvent::Track)
        );
    }

    #[test]
    fn any_other_account_is_paid() {
        let bank = SimulatedBank;
        for number in ["62001234567", "4000000003", "400000000", "", "abc"] {
            assert_eq!(SimulatedBank::outcome(number), Outcome::Paid, "{number}");
            assert_eq!(bank.submit_collection(number), Outcome::Paid.script());
        }
        assert_eq!(
            SimulatedBank::outcome(" 4000 0000 12 "),
            Outcome::Unpaid(UnpaidCode::AccountClosed)
        );
    }

    #[test]
    fn every_script_is_legal_ordered_and_ends_where_it_says() {
        for (number, outcome, description) in MAGIC_ACCOUNTS {
            let script = outcome.script();
            assert!(!description.is_empty());
            assert_eq!(script.first().map(|s| s.day), Some(0), "{number}");
            assert!(script.windows(2).all(|w| w[0].day <= w[1].day), "{number}");
            assert_eq!(play(&script), outcome.final_status(), "{number}");
        }
        for code in UnpaidCode::ALL {
            let outcome = Outcome::Unpaid(code);
            assert_eq!(play(&outcome.script()), outcome.final_status());
        }
    }

    #[test]
    fn magic_numbers_are_unique_valid_account_numbers() {
        let numbers: Vec<&str> = MAGIC_ACCOUNTS
            .iter()
            .map(|(n, _, _)| *n)
            .chain(MAGIC_MANDATE_ACCOUNTS.iter().map(|(n, _, _)| *n))
            .collect();
        for (i, number) in numbers.iter().enumerate() {
            assert!(number.len() <= 17 && number.bytes().all(|b| b.is_ascii_digit()));
            assert!(!numbers[i + 1..].contains(number), "{number} twice");
        }
    }

    #[test]
    fn payout_accounts_verify_and_pay_as_documented() {
        assert_eq!(
            SimulatedBank::verify_account("62001234567"),
            Verification::Verified
        );
        assert_eq!(
            SimulatedBank::verify_account("4200 000001"),
            Verification::NotFound
        );
        assert_eq!(
            SimulatedBank::verify_account("4200000002"),
            Verification::Closed
        );
        assert_eq!(
            SimulatedBank::payout_outcome("62001234567"),
            PayoutOutcome::Paid
        );
        assert_eq!(
            SimulatedBank::payout_outcome("4200000003"),
            PayoutOutcome::Failed("account_frozen")
        );
        assert_eq!(
            SimulatedBank::payout_outcome("4000000012"),
            PayoutOutcome::Failed("account_closed")
        );
        for (number, _, _, description) in MAGIC_PAYOUT_ACCOUNTS {
            assert!(!description.is_empty());
            assert!(number.len() <= 17 && number.bytes().all(|b| b.is_ascii_digit()));
        }
    }

    #[test]
    fn debicheck_authentication_answers() {
        let bank = SimulatedBank;
        let cases = [
            (
                "4100000001",
                Authentication::Approved,
                MandateStatus::Active,
            ),
            (
                "4100000002",
                Authentication::Declined,
                MandateStatus::Rejected,
            ),
            (
                "4100000003",
                Authentication::NoReply,
                MandateStatus::NoReply,
            ),
            (
                "62001234567",
                Authentication::Approved,
                MandateStatus::Active,
            ),
            (
                "4000000012",
                Authentication::Approved,
                MandateStatus::Active,
            ),
        ];
        for (number, answer, status) in cases {
            assert_eq!(bank.authenticate_mandate(number), answer, "{number}");
            let pending = MandateState::new(MandateStatus::PendingAuthentication);
            assert_eq!(
                mandate::transition(pending, answer.mandate_event()),
                Ok(MandateState::new(status))
            );
        }
    }
}
