//! The payer's answers on the signing pages, and their checks. The pages are
//! plain forms without JavaScript, so each step posts every earlier answer
//! again (kept in hidden fields) and every step checks them all again: an
//! answer edited in the page's source is caught like one typed wrong.

use protocol::{AccountType, BankAccountInput, ErrorCode, PaymentMethod};
use serde::{Deserialize, Serialize};

use crate::domain::banking::{universal_branch_code, validate_bank_account};
use crate::domain::commerce::checkout::bank_of;
use crate::domain::rules;
use crate::error::AppError;
use crate::store::sql::from_wire_name;

/// The steps, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Details,
    Bank,
    Consent,
}

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Details => "details",
            Step::Bank => "bank",
            Step::Consent => "consent",
        }
    }

    pub fn parse(value: &str) -> Option<Step> {
        [Step::Details, Step::Bank, Step::Consent]
            .into_iter()
            .find(|s| s.as_str() == value)
    }

    pub fn next(self) -> Step {
        match self {
            Step::Details => Step::Bank,
            Step::Bank | Step::Consent => Step::Consent,
        }
    }
}

/// Everything the payer typed, as posted (and as kept in the signing row
/// once they consent).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", default)]
pub struct Answers {
    /// `person` or `business`.
    pub payer_kind: String,
    pub name: String,
    pub id_number: String,
    pub cellphone: String,
    pub email: String,
    pub bank: String,
    pub branch_code: String,
    /// `current`, `savings` or `transmission`, as the bank list names them.
    pub account_type: String,
    pub account_number: String,
    /// `yes` when the consent box is ticked.
    pub consent: String,
    /// The amount in rands, when the merchant lets the payer choose it.
    pub amount: String,
    /// The first collection, `YYYY-MM-DD`, when the payer may choose it.
    pub start_date: String,
}

impl Answers {
    /// Each answer by the name its form field has, with the step that asks for it.
    pub fn fields(&self) -> [(Step, &'static str, &str); 12] {
        [
            (Step::Details, "payerKind", &self.payer_kind),
            (Step::Details, "name", &self.name),
            (Step::Details, "idNumber", &self.id_number),
            (Step::Details, "cellphone", &self.cellphone),
            (Step::Details, "email", &self.email),
            (Step::Bank, "bank", &self.bank),
            (Step::Bank, "branchCode", &self.branch_code),
            (Step::Bank, "accountType", &self.account_type),
            (Step::Bank, "accountNumber", &self.account_number),
            (Step::Consent, "consent", &self.consent),
            (Step::Consent, "amount", &self.amount),
            (Step::Consent, "startDate", &self.start_date),
        ]
    }
}

/// The answers once every check passed.
#[derive(Clone, Debug)]
pub struct Checked {
    pub answers: Answers,
    pub account: BankAccountInput,
}

pub type Problems = Vec<(&'static str, ErrorCode)>;

fn check(problems: &mut Problems, field: &'static str, result: Result<(), ErrorCode>) {
    if let Err(code) = result {
        problems.push((field, code));
    }
}

/// The answers tidied as they will be kept: trimmed, spaces out of
/// numbers, the cellphone in its one written form.
pub fn tidy(answers: &Answers) -> Answers {
    let digits = |v: &str| v.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    Answers {
        payer_kind: answers.payer_kind.trim().to_string(),
        name: answers.name.trim().to_string(),
        id_number: digits(&answers.id_number),
        cellphone: rules::normalise_cellphone(&answers.cellphone),
        email: answers.email.trim().to_lowercase(),
        bank: answers.bank.trim().to_string(),
        branch_code: digits(&answers.branch_code),
        account_type: answers.account_type.trim().to_string(),
        account_number: digits(&answers.account_number),
        consent: answers.consent.trim().to_string(),
        amount: answers.amount.trim().to_string(),
        start_date: answers.start_date.trim().to_string(),
    }
}

/// The first step: who the payer is. A business is refused DebiCheck
/// (DebiCheck is for people); its ID number is its registration number.
pub fn check_details(a: &Answers, method: PaymentMethod, problems: &mut Problems) {
    let business = match a.payer_kind.as_str() {
        "person" => false,
        "business" => true,
        _ => {
            problems.push(("payerKind", ErrorCode::Required));
            return;
        }
    };
    if business && method == PaymentMethod::Debicheck {
        problems.push(("payerKind", ErrorCode::DebicheckIndividualsOnly));
        return;
    }
    // The name is also the account holder's, which banks keep to 30.
    check(problems, "name", rules::name(&a.name, 30));
    if business {
        check(problems, "idNumber", rules::id_number(&a.id_number));
    } else {
        check(
            problems,
            "idNumber",
            rules::id_number(&a.id_number).and_then(|()| rules::sa_id_number(&a.id_number)),
        );
    }
    // DebiCheck asks the payer to approve on their cellphone.
    if a.cellphone.is_empty() && method == PaymentMethod::Debicheck {
        problems.push(("cellphone", ErrorCode::Required));
    } else if !a.cellphone.is_empty() {
        check(problems, "cellphone", rules::cellphone(&a.cellphone));
    }
    check(problems, "email", rules::email(&a.email));
}

pub fn account_type_of(value: &str) -> Option<AccountType> {
    from_wire_name(value)
}

/// The second step: the bank account, checked by the same rules as the
/// merchant's own bank account form.
pub fn check_bank(a: &Answers, problems: &mut Problems) -> Option<BankAccountInput> {
    let bank = bank_of(&a.bank);
    let account_type = account_type_of(&a.account_type);
    if bank.is_none() {
        problems.push(("bank", ErrorCode::Required));
    }
    if account_type.is_none() {
        problems.push(("accountType", ErrorCode::Required));
    }
    let (Some(bank), Some(account_type)) = (bank, account_type) else {
        return None;
    };
    // Every bank here has one universal branch code, and no other is
    // accepted: a payer who leaves it empty gets their bank's (the page has
    // no script to fill it in when the bank is chosen).
    let branch_code = if a.branch_code.is_empty() {
        universal_branch_code(bank).to_string()
    } else {
        a.branch_code.clone()
    };
    let input = BankAccountInput {
        bank: Some(bank),
        branch_code,
        account_type,
        holder_name: a.name.clone(),
        account_number: a.account_number.clone(),
    };
    match validate_bank_account(&input) {
        Ok(clean) => Some(clean.input()),
        Err(AppError::Invalid(fields)) => {
            for f in fields {
                let field = match f.field.as_str() {
                    "branchCode" => "branchCode",
                    "accountNumber" => "accountNumber",
                    "accountType" => "accountType",
                    // The account is held in the payer's name.
                    _ => "name",
                };
                problems.push((field, f.code));
            }
            None
        }
        Err(_) => None,
    }
}

/// Every step up to `upto`, in order; the first step with a problem is the
/// one the payer sees again.
pub fn check_upto(
    answers: &Answers,
    method: PaymentMethod,
    upto: Step,
) -> Result<Checked, (Step, Problems)> {
    let a = tidy(answers);
    // Text no record could hold, by the rule every entry point uses: shown
    // at the first step that asks for such an answer.
    let unstorable: Vec<(Step, &'static str, ErrorCode)> = a
        .fields()
        .into_iter()
        .filter_map(|(step, field, value)| {
            let code = rules::storable(value, rules::LONGEST_TEXT).err()?;
            Some((step, field, code))
        })
        .collect();
    if let Some(first) = unstorable.iter().map(|(step, _, _)| *step).min() {
        let problems = unstorable
            .into_iter()
            .filter(|(step, _, _)| *step == first)
            .map(|(_, field, code)| (field, code))
            .collect();
        return Err((first, problems));
    }
    let mut problems = Vec::new();
    check_details(&a, method, &mut problems);
    if !problems.is_empty() {
        return Err((Step::Details, problems));
    }
    if upto == Step::Details {
        return Err((Step::Bank, Vec::new()));
    }
    let account = check_bank(&a, &mut problems);
    let Some(account) = account.filter(|_| problems.is_empty()) else {
        return Err((Step::Bank, problems));
    };
    if upto == Step::Bank {
        return Err((Step::Consent, Vec::new()));
    }
    if a.consent != "yes" {
        problems.push(("consent", ErrorCode::Required));
    }
    if !problems.is_empty() {
        return Err((Step::Consent, problems));
    }
    Ok(Checked {
        answers: a,
        account,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person() -> Answers {
        Answers {
            payer_kind: "person".into(),
            name: "Lerato Dlamini".into(),
            id_number: "8001015009087".into(),
            cellphone: "082 555 0101".into(),
            email: "lerato@example.co.za".into(),
            bank: "fnb".into(),
            branch_code: "250655".into(),
            account_type: "current".into(),
            account_number: "4100000001".into(),
            consent: "yes".into(),
            ..Answers::default()
        }
    }

    #[test]
    fn a_whole_form_passes() {
        let checked = check_upto(&person(), PaymentMethod::Debicheck, Step::Consent);
        let checked = checked.unwrap_or_else(|(step, p)| panic!("{step:?} {p:?}"));
        assert_eq!(checked.answers.cellphone, "0825550101");
        assert_eq!(checked.account.account_number, "4100000001");
    }

    #[test]
    fn a_business_is_refused_debicheck_but_may_sign_a_registered_mandate() {
        let mut a = person();
        a.payer_kind = "business".into();
        a.id_number = "2001/123456/07".into();
        let refused = check_upto(&a, PaymentMethod::Debicheck, Step::Details);
        assert!(matches!(refused, Err((Step::Details, ref p))
            if p == &vec![("payerKind", ErrorCode::DebicheckIndividualsOnly)]));
        assert!(check_upto(&a, PaymentMethod::RegisteredMandate, Step::Consent).is_ok());
    }

    #[test]
    fn a_bad_id_number_and_branch_code_are_caught_at_their_steps() {
        let mut a = person();
        a.id_number = "8001015009088".into();
        assert!(matches!(
            check_upto(&a, PaymentMethod::Debicheck, Step::Consent),
            Err((Step::Details, ref p)) if p == &vec![("idNumber", ErrorCode::InvalidSaId)]
        ));
        let mut a = person();
        a.branch_code = "123456".into();
        assert!(matches!(
            check_upto(&a, PaymentMethod::Debicheck, Step::Consent),
            Err((Step::Bank, ref p)) if p == &vec![("branchCode", ErrorCode::BranchCodeMismatch)]
        ));
        a.branch_code = "25065".into();
        assert!(matches!(
            check_upto(&a, PaymentMethod::Debicheck, Step::Consent),
            Err((Step::Bank, ref p)) if p == &vec![("branchCode", ErrorCode::InvalidBranchCode)]
        ));
    }

    #[test]
    fn text_no_record_could_hold_is_caught_at_the_step_that_asks_for_it() {
        let mut a = person();
        a.account_number = "4100\u{0}01".into();
        a.amount = "x".repeat(rules::LONGEST_TEXT + 1);
        assert!(matches!(
            check_upto(&a, PaymentMethod::Debicheck, Step::Consent),
            Err((Step::Bank, ref p)) if p == &vec![("accountNumber", ErrorCode::InvalidCharacters)]
        ));
        let mut a = person();
        a.name = String::from_utf8_lossy(b"Lerato \xff").into_owned();
        assert!(matches!(
            check_upto(&a, PaymentMethod::Debicheck, Step::Details),
            Err((Step::Details, ref p)) if p == &vec![("name", ErrorCode::InvalidCharacters)]
        ));
    }

    #[test]
    fn an_empty_branch_code_is_the_banks_universal_one() {
        let mut a = person();
        a.branch_code = String::new();
        let mut problems = Vec::new();
        let account = check_bank(&a, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(account.map(|a| a.branch_code).as_deref(), Some("250655"));
    }
}
