//! Customers' bank accounts: the bank list with its universal branch codes,
//! and adding and removing accounts.

use protocol::{BankAccountInput, BankId, Change, ErrorCode, FieldError, ReplyBody};

use super::bank::{SimulatedBank, Verification};
use super::rules;
use super::{Effect, Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::bank_accounts::{self as store, CheckedAccount};
use crate::store::customers::find_customer_in_tx;
use crate::store::{Db, Tx};

/// The universal branch code of each bank (DOMAIN.md, Banks).
pub fn universal_branch_code(bank: BankId) -> &'static str {
    bank.listed().branch_code
}

/// What an account is for: the bank's verification asks more of an
/// account that will be debited than of one that is only paid into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountUse {
    /// A customer's account, debited by collections.
    Debits,
    /// The merchant's settlement account, paid into by payouts.
    Payouts,
}

/// Trims, drops the spaces people type in numbers, checks every field and
/// asks the bank to verify a customer's account.
pub fn validate_bank_account(input: &BankAccountInput) -> Result<CheckedAccount, AppError> {
    let (clean, mistakes) = verified_bank_account(input);
    accepted(clean, mistakes)
}

/// A customer's account as `checked_bank_account` cleans it, with its
/// form's mistakes and what the bank's account verification says of it: a
/// sponsoring bank refuses a debit mandate on an account it cannot verify.
pub fn verified_bank_account(input: &BankAccountInput) -> (BankAccountInput, Vec<FieldError>) {
    let (clean, mut mistakes) = checked_bank_account(input);
    add_bank_verification(&clean, AccountUse::Debits, &mut mistakes);
    (clean, mistakes)
}

/// Adds what the bank's account verification says to the form's own
/// mistakes, so both are told at once. The bank is asked only of a
/// well-formed number, and its answer on a field the form already faults
/// is left out.
pub fn add_bank_verification(
    clean: &BankAccountInput,
    to: AccountUse,
    mistakes: &mut Vec<FieldError>,
) {
    if !account_number_ok(mistakes) {
        return;
    }
    for answer in bank_verification(clean, to) {
        if !mistakes.iter().any(|m| m.field == answer.field) {
            mistakes.push(answer);
        }
    }
}

/// What the bank's account verification says of an account, each answer
/// on the field it is about.
fn bank_verification(clean: &BankAccountInput, to: AccountUse) -> Vec<FieldError> {
    let refusal = match SimulatedBank::verify_account(&clean.account_number) {
        Verification::Verified => None,
        Verification::NotFound => Some(("accountNumber", ErrorCode::BankAccountNotFound)),
        Verification::Closed => Some(("accountNumber", ErrorCode::BankAccountClosed)),
        Verification::HolderMismatch => Some(("holderName", ErrorCode::BankAccountHolderMismatch)),
        Verification::TypeMismatch => Some(("accountType", ErrorCode::BankAccountTypeMismatch)),
        Verification::NoDebits => match to {
            AccountUse::Debits => Some(("accountNumber", ErrorCode::BankAccountNoDebits)),
            AccountUse::Payouts => None,
        },
    };
    refusal
        .map(|(field, code)| FieldError {
            field: field.into(),
            code,
        })
        .into_iter()
        .collect()
}

/// What is wrong with an account number's length for its bank, if anything.
/// No listed bank publishes its check-digit (CDV) routine, so the length is
/// as far as the number itself can be checked here (docs/bank-accounts.md);
/// the bank's verification does the rest.
fn account_number_length(bank: BankId, account_number: &str) -> Result<(), ErrorCode> {
    let (fewest, most) = bank.listed().account_digits;
    let digits = account_number.len();
    if (usize::from(fewest)..=usize::from(most)).contains(&digits)
        || SimulatedBank::is_published(account_number)
    {
        Ok(())
    } else {
        Err(ErrorCode::AccountNumberLength)
    }
}

/// The account `checked_bank_account` cleaned, when it found no mistake.
pub fn accepted(
    clean: BankAccountInput,
    mistakes: Vec<FieldError>,
) -> Result<CheckedAccount, AppError> {
    match clean.bank {
        Some(bank) if mistakes.is_empty() => Ok(CheckedAccount {
            bank,
            branch_code: clean.branch_code,
            account_type: clean.account_type,
            holder_name: clean.holder_name,
            account_number: clean.account_number,
        }),
        // A missing bank is always among the mistakes.
        _ => Err(AppError::Invalid(mistakes)),
    }
}

/// The account cleaned as `validate_bank_account` cleans it, with every
/// field's mistake: what the bank says of the number may then be told with them.
pub fn checked_bank_account(input: &BankAccountInput) -> (BankAccountInput, Vec<FieldError>) {
    let clean = BankAccountInput {
        bank: input.bank,
        branch_code: input
            .branch_code
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect(),
        account_type: input.account_type,
        holder_name: input.holder_name.trim().to_string(),
        account_number: input
            .account_number
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect(),
    };
    let mut errors = Vec::new();
    if clean.bank.is_none() {
        errors.push(FieldError {
            field: "bank".into(),
            code: ErrorCode::Required,
        });
    }
    if clean.branch_code.is_empty() {
        errors.push(FieldError {
            field: "branchCode".into(),
            code: ErrorCode::Required,
        });
    } else if clean.branch_code.len() != 6 || !clean.branch_code.bytes().all(|b| b.is_ascii_digit())
    {
        errors.push(FieldError {
            field: "branchCode".into(),
            code: ErrorCode::InvalidBranchCode,
        });
    } else if clean
        .bank
        .is_some_and(|bank| clean.branch_code != universal_branch_code(bank))
    {
        errors.push(FieldError {
            field: "branchCode".into(),
            code: ErrorCode::BranchCodeMismatch,
        });
    }
    if let Err(code) = rules::name(&clean.holder_name, 30) {
        errors.push(FieldError {
            field: "holderName".into(),
            code,
        });
    }
    let digits_ok = (1..=17).contains(&clean.account_number.len())
        && clean.account_number.bytes().all(|b| b.is_ascii_digit());
    if clean.account_number.is_empty() {
        errors.push(FieldError {
            field: "accountNumber".into(),
            code: ErrorCode::Required,
        });
    } else if !digits_ok || clean.account_number.bytes().all(|b| b == b'0') {
        errors.push(FieldError {
            field: "accountNumber".into(),
            code: ErrorCode::InvalidAccountNumber,
        });
    } else if let Some(Err(code)) = clean
        .bank
        .map(|bank| account_number_length(bank, &clean.account_number))
    {
        errors.push(FieldError {
            field: "accountNumber".into(),
            code,
        });
    }
    (clean, errors)
}

/// Whether the account number itself is well formed, whatever the other fields hold.
pub fn account_number_ok(mistakes: &[FieldError]) -> bool {
    !mistakes.iter().any(|m| m.field == "accountNumber")
}

pub async fn add_bank_account(
    tx: &mut Tx,
    scope: &Scope,
    customer_id: &str,
    input: &BankAccountInput,
) -> AppResult<Effect> {
    let customer_id = checked_id(customer_id)?;
    let (input, mut mistakes) = verified_bank_account(input);
    if !mistakes.is_empty() {
        // An account the customer already has is told with the form's other
        // mistakes, not after they are put right.
        if account_number_ok(&mistakes)
            && let Some(bank) = input.bank
            && store::account_exists(
                tx,
                &scope.merchant_id,
                scope.mode,
                customer_id,
                bank,
                &input.account_number,
            )
            .await?
        {
            mistakes.push(FieldError {
                field: "accountNumber".into(),
                code: ErrorCode::DuplicateBankAccount,
            });
        }
        return Err(AppError::Invalid(mistakes));
    }
    let account = accepted(input, mistakes)?;
    if find_customer_in_tx(tx, &scope.merchant_id, scope.mode, customer_id)
        .await?
        .is_none()
    {
        return Err(AppError::Code(ErrorCode::NotFound));
    }
    insert_checked_bank_account(tx, scope, customer_id, &account).await
}

/// Adds a validated account to a customer known to exist, refusing one the
/// customer already has.
pub async fn insert_checked_bank_account(
    tx: &mut Tx,
    scope: &Scope,
    customer_id: &str,
    input: &CheckedAccount,
) -> AppResult<Effect> {
    if store::account_exists(
        tx,
        &scope.merchant_id,
        scope.mode,
        customer_id,
        input.bank,
        &input.account_number,
    )
    .await?
    {
        return Err(AppError::field(
            "accountNumber",
            ErrorCode::DuplicateBankAccount,
        ));
    }
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let account = store::insert_bank_account(
        tx,
        &scope.merchant_id,
        scope.mode,
        &new_id("ba"),
        customer_id,
        input,
        now,
    )
    .await?
    .ok_or_else(|| AppError::Internal("stored bank account unreadable".into()))?;
    let id = Some(account.id.clone());
    Ok(Effect {
        changes: vec![Change::BankAccountAdded {
            account: Box::new(account),
        }],
        id,
    })
}

pub async fn remove_bank_account(
    tx: &mut Tx,
    scope: &Scope,
    bank_account_id: &str,
) -> AppResult<Effect> {
    let id = checked_id(bank_account_id)?;
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let customer_id = store::remove_bank_account(tx, &scope.merchant_id, scope.mode, id, now)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(Effect {
        changes: vec![Change::BankAccountRemoved {
            id: id.to_string(),
            customer_id,
        }],
        id: Some(id.to_string()),
    })
}

pub async fn list_bank_accounts(db: &Db, scope: &Scope, customer_id: &str) -> AppResult<ReplyBody> {
    let customer_id = checked_id(customer_id)?;
    super::customers::require_customer(db, scope, customer_id).await?;
    Ok(ReplyBody::BankAccounts {
        accounts: store::list_bank_accounts(db, &scope.merchant_id, scope.mode, customer_id)
            .await?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::AccountType;

    fn input(bank: BankId, branch: &str, number: &str) -> BankAccountInput {
        BankAccountInput {
            bank: Some(bank),
            branch_code: branch.into(),
            account_type: AccountType::Current,
            holder_name: "T Nkosi".into(),
            account_number: number.into(),
        }
    }

    fn codes(result: Result<CheckedAccount, AppError>) -> Vec<(String, ErrorCode)> {
        match result {
            Ok(_) => Vec::new(),
            Err(AppError::Invalid(fields)) => {
                fields.into_iter().map(|f| (f.field, f.code)).collect()
            }
            Err(other) => panic!("{other}"),
        }
    }

    #[test]
    fn branch_codes_and_account_numbers() {
        assert!(
            codes(validate_bank_account(&input(
                BankId::Capitec,
                "470 010",
                "1234 5678 90"
            )))
            .is_empty()
        );
        assert!(
            codes(validate_bank_account(&input(
                BankId::StandardBank,
                "051001",
                &"9".repeat(11)
            )))
            .is_empty()
        );
        assert_eq!(
            codes(validate_bank_account(&input(
                BankId::StandardBank,
                "051001",
                &"9".repeat(17)
            ))),
            [("accountNumber".to_string(), ErrorCode::AccountNumberLength)]
        );
        assert_eq!(
            codes(validate_bank_account(&input(
                BankId::Capitec,
                "123456",
                "1234567890"
            ))),
            [("branchCode".to_string(), ErrorCode::BranchCodeMismatch)]
        );
        assert_eq!(
            codes(validate_bank_account(&input(
                BankId::Absa,
                "63200",
                "1234567890"
            ))),
            [("branchCode".to_string(), ErrorCode::InvalidBranchCode)]
        );
        assert_eq!(
            codes(validate_bank_account(&input(
                BankId::Absa,
                "63200A",
                "1234567890"
            ))),
            [("branchCode".to_string(), ErrorCode::InvalidBranchCode)]
        );
        assert_eq!(
            codes(validate_bank_account(&input(
                BankId::Absa,
                " ",
                "1234567890"
            ))),
            [("branchCode".to_string(), ErrorCode::Required)]
        );
        assert_eq!(
            codes(validate_bank_account(&input(
                BankId::Absa,
                "632005",
                &"9".repeat(18)
            ))),
            [("accountNumber".to_string(), ErrorCode::InvalidAccountNumber)]
        );
        assert_eq!(
            codes(validate_bank_account(&input(
                BankId::Absa,
                "632005",
                "12a4"
            ))),
            [("accountNumber".to_string(), ErrorCode::InvalidAccountNumber)]
        );
        assert_eq!(
            codes(validate_bank_account(&input(BankId::Absa, "632005", ""))),
            [("accountNumber".to_string(), ErrorCode::Required)]
        );
        let mut long_name = input(BankId::Absa, "632005", "1234567890");
        long_name.holder_name = "x".repeat(31);
        assert_eq!(
            codes(validate_bank_account(&long_name)),
            [("holderName".to_string(), ErrorCode::TooLong)]
        );
    }

    #[test]
    fn no_bank_is_required_and_told_with_the_other_fields() {
        let mut unchosen = input(BankId::Absa, "632005", "12a4");
        unchosen.bank = None;
        // With no bank, any well-formed branch code is taken: it cannot mismatch.
        assert_eq!(
            codes(validate_bank_account(&unchosen)),
            [
                ("bank".to_string(), ErrorCode::Required),
                ("accountNumber".to_string(), ErrorCode::InvalidAccountNumber)
            ]
        );
    }

    #[test]
    fn every_banks_numbering_is_applied_and_published_numbers_pass_everywhere() {
        for listed in protocol::BANKS {
            let (fewest, most) = listed.account_digits;
            assert!(
                fewest >= 7 && fewest <= most && most <= 11,
                "{}",
                listed.name
            );
            let number = |digits: u8| "1".repeat(usize::from(digits));
            let code = |digits: u8| {
                codes(validate_bank_account(&input(
                    listed.id,
                    listed.branch_code,
                    &number(digits),
                )))
            };
            for digits in fewest..=most {
                assert!(code(digits).is_empty(), "{} {digits}", listed.name);
            }
            for digits in [fewest - 1, most + 1] {
                assert_eq!(
                    code(digits),
                    [("accountNumber".to_string(), ErrorCode::AccountNumberLength)],
                    "{} {digits}",
                    listed.name
                );
            }
            let published = super::super::bank::MAGIC_ACCOUNTS
                .iter()
                .map(|(n, _, _)| *n)
                .chain(
                    super::super::bank::MAGIC_MANDATE_ACCOUNTS
                        .iter()
                        .map(|(n, _, _)| *n),
                );
            for magic in published {
                assert!(
                    codes(validate_bank_account(&input(
                        listed.id,
                        listed.branch_code,
                        magic
                    )))
                    .is_empty(),
                    "{} {magic}",
                    listed.name
                );
            }
        }
    }

    #[test]
    fn the_banks_verification_is_told_on_its_field_and_only_debits_ask_for_debit_orders() {
        let told = |number: &str, to: AccountUse| {
            let mut mistakes = Vec::new();
            add_bank_verification(&input(BankId::Absa, "632005", number), to, &mut mistakes);
            mistakes
                .into_iter()
                .map(|m| (m.field, m.code))
                .collect::<Vec<_>>()
        };
        let cases = [
            (
                "4200000001",
                "accountNumber",
                ErrorCode::BankAccountNotFound,
            ),
            ("4200000002", "accountNumber", ErrorCode::BankAccountClosed),
            (
                "4200000004",
                "holderName",
                ErrorCode::BankAccountHolderMismatch,
            ),
            (
                "4200000005",
                "accountType",
                ErrorCode::BankAccountTypeMismatch,
            ),
        ];
        for (number, field, code) in cases {
            for to in [AccountUse::Debits, AccountUse::Payouts] {
                assert_eq!(told(number, to), [(field.to_string(), code)], "{number}");
            }
        }
        assert_eq!(
            told("4200000006", AccountUse::Debits),
            [("accountNumber".to_string(), ErrorCode::BankAccountNoDebits)]
        );
        assert!(told("4200000006", AccountUse::Payouts).is_empty());
        assert!(told("1234567890", AccountUse::Debits).is_empty());

        // A field the form already faults keeps the form's word.
        let mut named = input(BankId::Absa, "632005", "4200000004");
        named.holder_name = String::new();
        let (_, mistakes) = verified_bank_account(&named);
        assert_eq!(
            mistakes
                .into_iter()
                .map(|m| (m.field, m.code))
                .collect::<Vec<_>>(),
            [("holderName".to_string(), ErrorCode::Required)]
        );
    }
}
