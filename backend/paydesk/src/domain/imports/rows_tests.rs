//! One table per column rule: values just inside and just outside each
//! boundary, set into an otherwise valid row of a layout, and what the
//! check says of them.

#![allow(clippy::expect_used)]

use protocol::{ErrorCode, ImportTemplate, PaymentKind};
use time::macros::date;

use super::cells::{Cell, SheetRow};
use super::rows::{Checked, RowRules, check_row};
use super::template::{Column, ColumnMap, layout};

const TODAY: time::Date = date!(2026 - 11 - 23);

/// A row of `template`/`kind` that passes every rule.
fn valid_value(column: Column) -> Cell {
    use Column as C;
    let text = match column {
        C::CustomerReference => "CUST-1",
        C::PersonName => "Thandi",
        C::PersonSurname => "Mokoena",
        C::IdType => "South African ID",
        C::ClientType => "Resident Individual",
        C::IdNumber => "8801235111088",
        C::Email => "thandi@example.co.za",
        C::ContactNumber => "0821234567",
        C::AddressLine1 => "12 Long Street",
        C::Town => "Cape Town",
        C::PostalCode => "8001",
        C::HolderName => "T Mokoena",
        C::AccountNumber => "4000000001",
        C::AccountType => "Current",
        C::BankName => "Absa",
        C::BranchCode => "632005",
        C::Amount => "100.00",
        C::DateToProcess | C::StartDate => "2026-12-01",
        C::Interval => "Monthly",
        C::DayToProcess => "15",
        C::TypeOfPayment => "Subscription",
        C::ContractReference => "GYM2026",
        C::MaximumCollectionAmount => "150.00",
        C::ApprovalWindow => "TT1 Real-time",
        _ => "",
    };
    Cell::Text(text.into())
}

fn check(
    template: ImportTemplate,
    kind: PaymentKind,
    set: &[(Column, Cell)],
) -> Vec<(String, ErrorCode)> {
    let columns: Vec<Column> = layout(template, kind).into_iter().map(|(c, _)| c).collect();
    let header = SheetRow {
        number: 1,
        cells: columns
            .iter()
            .map(|c| Cell::Text(c.header().into()))
            .collect(),
    };
    let cells = columns
        .iter()
        .map(|column| {
            set.iter()
                .find(|(c, _)| c == column)
                .map_or_else(|| valid_value(*column), |(_, cell)| cell.clone())
        })
        .collect();
    let rules = RowRules {
        template,
        kind,
        columns: ColumnMap::from_header(&header, template, kind).expect("layout headers"),
        today: TODAY,
    };
    match check_row(&rules, &SheetRow { number: 2, cells }) {
        Checked::Valid(_) => Vec::new(),
        Checked::Invalid(issues) => issues.into_iter().map(|i| (i.column, i.code)).collect(),
    }
}

fn t(value: &str) -> Cell {
    Cell::Text(value.into())
}

/// Each value in `accepted` passes; each in `refused` fails with its code,
/// on `column`, in every layout that has the column (or the ones given).
fn table(
    layouts: &[(ImportTemplate, PaymentKind)],
    column: Column,
    accepted: &[Cell],
    refused: &[(Cell, ErrorCode)],
) {
    for (template, kind) in layouts {
        for value in accepted {
            let issues = check(*template, *kind, &[(column, value.clone())]);
            assert!(
                issues.is_empty(),
                "{template:?} {kind:?} {column:?} = {value:?}: {issues:?}"
            );
        }
        for (value, code) in refused {
            let issues = check(*template, *kind, &[(column, value.clone())]);
            assert!(
                issues.contains(&(column.header().to_string(), *code)),
                "{template:?} {kind:?} {column:?} = {value:?}: expected {code:?}, got {issues:?}"
            );
        }
    }
}

const ALL: [(ImportTemplate, PaymentKind); 6] = [
    (ImportTemplate::Debicheck, PaymentKind::Once),
    (ImportTemplate::Debicheck, PaymentKind::Recurring),
    (ImportTemplate::RegisteredMandate, PaymentKind::Once),
    (ImportTemplate::RegisteredMandate, PaymentKind::Recurring),
    (ImportTemplate::EftDebitOrder, PaymentKind::Once),
    (ImportTemplate::EftDebitOrder, PaymentKind::Recurring),
];
const RECURRING: [(ImportTemplate, PaymentKind); 3] = [
    (ImportTemplate::Debicheck, PaymentKind::Recurring),
    (ImportTemplate::RegisteredMandate, PaymentKind::Recurring),
    (ImportTemplate::EftDebitOrder, PaymentKind::Recurring),
];
const ONCE: [(ImportTemplate, PaymentKind); 3] = [
    (ImportTemplate::Debicheck, PaymentKind::Once),
    (ImportTemplate::RegisteredMandate, PaymentKind::Once),
    (ImportTemplate::EftDebitOrder, PaymentKind::Once),
];
const MANDATED_RECURRING: [(ImportTemplate, PaymentKind); 2] = [
    (ImportTemplate::Debicheck, PaymentKind::Recurring),
    (ImportTemplate::RegisteredMandate, PaymentKind::Recurring),
];

fn repeat(c: char, n: usize) -> String {
    std::iter::repeat_n(c, n).collect()
}

#[test]
fn every_layout_accepts_its_valid_row() {
    for (template, kind) in ALL {
        assert_eq!(
            check(template, kind, &[]),
            Vec::new(),
            "{template:?} {kind:?}"
        );
    }
}

#[test]
fn customer_reference_letters_digits_dashes_up_to_35() {
    table(
        &ALL,
        Column::CustomerReference,
        &[t("A"), t(&repeat('7', 35)), t("ACME-0001")],
        &[
            (t(""), ErrorCode::Required),
            (t(&repeat('7', 36)), ErrorCode::TooLong),
            (t("ACME 1"), ErrorCode::InvalidCharacters),
            (t("ACME_1"), ErrorCode::InvalidCharacters),
        ],
    );
}

#[test]
fn person_names_up_to_32_and_required_with_a_mandate() {
    for column in [Column::PersonName, Column::PersonSurname] {
        table(
            &ALL,
            column,
            &[t(&repeat('a', 32)), t("Zoë-Anne O'Neil")],
            &[
                (t(&repeat('a', 33)), ErrorCode::TooLong),
                (t("R2-D2 <x>"), ErrorCode::InvalidCharacters),
            ],
        );
        table(&ALL[..4], column, &[], &[(t(""), ErrorCode::Required)]);
    }
}

#[test]
fn company_name_up_to_64_stands_in_for_the_person_in_template_3() {
    let layouts = [
        (ImportTemplate::EftDebitOrder, PaymentKind::Once),
        (ImportTemplate::EftDebitOrder, PaymentKind::Recurring),
    ];
    for (template, kind) in layouts {
        let company = |name: &str| {
            check(
                template,
                kind,
                &[
                    (Column::PersonName, t("")),
                    (Column::PersonSurname, t("")),
                    (Column::CompanyName, t(name)),
                    (Column::ClientType, t("")),
                    (Column::IdType, t("")),
                    (Column::IdNumber, t("")),
                ],
            )
        };
        assert_eq!(company(&repeat('b', 64)), Vec::new());
        assert_eq!(
            company(&repeat('b', 65)),
            vec![("Company name".to_string(), ErrorCode::TooLong)]
        );
        assert!(company("").contains(&("Person name".to_string(), ErrorCode::Required)));
    }
}

#[test]
fn id_numbers_up_to_32_and_real_sa_ids() {
    table(
        &ALL,
        Column::IdNumber,
        &[
            t("9506245120008"),
            t("8001015009087"),
            Cell::Number(8801235111088.0),
        ],
        &[
            (t("9202204720082"), ErrorCode::InvalidSaId),
            (t("7501015800080"), ErrorCode::InvalidSaId),
            (t("880123511108"), ErrorCode::InvalidSaId),
        ],
    );
    let passport = |number: &str| {
        check(
            ImportTemplate::RegisteredMandate,
            PaymentKind::Once,
            &[
                (Column::IdType, t("Passport Number")),
                (Column::IdNumber, t(number)),
            ],
        )
    };
    assert_eq!(passport(&repeat('A', 32)), Vec::new());
    assert_eq!(passport("A12/345"), Vec::new());
    assert_eq!(
        passport(&repeat('A', 33)),
        vec![("ID Number".to_string(), ErrorCode::TooLong)]
    );
    assert_eq!(
        passport("A1 2"),
        vec![("ID Number".to_string(), ErrorCode::InvalidCharacters)]
    );
}

#[test]
fn email_valid_up_to_128_and_not_disposable() {
    // Local parts stop at 64 characters, so the length is made up in the domain.
    let long = format!("{}@{}.co.za", repeat('a', 60), repeat('b', 61));
    assert_eq!(long.len(), 128);
    table(
        &ALL,
        Column::Email,
        &[t(&long), t("Thandi@Example.co.za")],
        &[
            (t(""), ErrorCode::Required),
            (t(&format!("a{long}")), ErrorCode::TooLong),
            (t("thandi@"), ErrorCode::InvalidEmail),
            (t("thandi at example.co.za"), ErrorCode::InvalidEmail),
            (t("thandi@mailinator.com"), ErrorCode::BlockedEmailDomain),
            (t("thandi@yopmail.com"), ErrorCode::BlockedEmailDomain),
        ],
    );
}

#[test]
fn contact_number_6_to_18_with_an_optional_plus() {
    table(
        &ALL,
        Column::ContactNumber,
        &[
            t("123456"),
            t("+27 82 123 4567"),
            t(&repeat('1', 18)),
            Cell::Number(821234567.0),
        ],
        &[
            (t("12345"), ErrorCode::InvalidCellphone),
            (t(&repeat('1', 19)), ErrorCode::InvalidCellphone),
            (t("082-123-4567"), ErrorCode::InvalidCellphone),
        ],
    );
}

#[test]
fn addresses_town_and_postal_code() {
    table(
        &ALL,
        Column::AddressLine1,
        &[
            t(&repeat('a', 128)),
            t("Unit 4, 12 O'Brien Rd. #2 / Block-B"),
        ],
        &[
            (t(&repeat('a', 129)), ErrorCode::TooLong),
            (t("12 Long St; Cape Town"), ErrorCode::InvalidCharacters),
        ],
    );
    table(
        &ALL,
        Column::Town,
        &[t(&repeat('a', 64))],
        &[(t(&repeat('a', 65)), ErrorCode::TooLong)],
    );
    table(
        &ALL,
        Column::PostalCode,
        &[t("0181"), Cell::Number(181.0), t("")],
        &[
            (t("181"), ErrorCode::InvalidPostalCode),
            (t("01811"), ErrorCode::InvalidPostalCode),
            (t("8OO1"), ErrorCode::InvalidPostalCode),
        ],
    );
}

#[test]
fn bank_account_fields() {
    table(
        &ALL,
        Column::HolderName,
        &[t(&repeat('h', 30))],
        &[
            (t(""), ErrorCode::Required),
            (t(&repeat('h', 31)), ErrorCode::TooLong),
        ],
    );
    table(
        &ALL,
        Column::AccountNumber,
        // Absa's numbers have 9 to 11 digits (docs/bank-accounts.md).
        &[
            t(&repeat('9', 9)),
            t(&repeat('9', 11)),
            Cell::Number(4000000001.0),
        ],
        &[
            (t(&repeat('9', 18)), ErrorCode::InvalidAccountNumber),
            (t("40000A0001"), ErrorCode::InvalidAccountNumber),
            (t("12345"), ErrorCode::AccountNumberLength),
            (t(&repeat('9', 17)), ErrorCode::AccountNumberLength),
            (t("4200000001"), ErrorCode::BankAccountNotFound),
        ],
    );
    table(
        &ALL,
        Column::BranchCode,
        &[t("632005")],
        &[
            (t("63200"), ErrorCode::InvalidBranchCode),
            (t("6320055"), ErrorCode::InvalidBranchCode),
            (t("250655"), ErrorCode::BranchCodeMismatch),
        ],
    );
    let standard_bank = check(
        ImportTemplate::EftDebitOrder,
        PaymentKind::Once,
        &[
            (Column::BankName, t("Standard Bank")),
            (Column::BranchCode, Cell::Number(51001.0)),
        ],
    );
    assert_eq!(
        standard_bank,
        Vec::new(),
        "a numeric branch code gets its zero back"
    );
    table(
        &ALL,
        Column::BankName,
        &[t("ABSA Bank"), t("absa")],
        &[
            (t(""), ErrorCode::Required),
            (t("Barclays"), ErrorCode::InvalidChoice),
        ],
    );
    table(
        &ALL,
        Column::AccountType,
        &[t("Cheque"), t("savings"), t("Transmission")],
        &[
            (t(""), ErrorCode::Required),
            (t("Credit"), ErrorCode::InvalidChoice),
        ],
    );
}

#[test]
fn amounts_above_zero_with_two_decimals_and_twelve_digits() {
    table(
        &ONCE,
        Column::Amount,
        &[
            t("0.01"),
            t("99.99"),
            Cell::Number(100.5),
            t("9999999999.99"),
        ],
        &[],
    );
    table(
        &ALL,
        Column::Amount,
        &[t("100"), Cell::Number(100.5)],
        &[
            (t(""), ErrorCode::Required),
            (t("0"), ErrorCode::InvalidAmount),
            (t("0.001"), ErrorCode::InvalidAmount),
            (t("10000000000.00"), ErrorCode::InvalidAmount),
        ],
    );
}

#[test]
fn dates_real_and_not_before_today() {
    table(
        &ONCE,
        Column::DateToProcess,
        &[
            t("2026-11-23"),
            t("23/11/2026"),
            Cell::Date(date!(2027 - 02 - 28)),
        ],
        &[
            (t(""), ErrorCode::Required),
            (t("2026-11-22"), ErrorCode::DateInPast),
            (t("2027-02-29"), ErrorCode::InvalidSpreadsheetDate),
        ],
    );
    table(
        &RECURRING,
        Column::StartDate,
        &[t("2026/11/23")],
        &[
            (t(""), ErrorCode::Required),
            (t("22/11/2026"), ErrorCode::DateInPast),
        ],
    );
    table(
        &RECURRING,
        Column::EndDate,
        &[t(""), t("2026-12-02")],
        &[
            (t("2026-12-01"), ErrorCode::EndNotAfterStart),
            (t("2026-13-01"), ErrorCode::InvalidSpreadsheetDate),
        ],
    );
}

#[test]
fn transaction_reference_up_to_30() {
    table(
        &ONCE,
        Column::TransactionReference,
        &[t(""), t(&repeat('R', 30)), t("INV-2026-11")],
        &[
            (t(&repeat('R', 31)), ErrorCode::TooLong),
            (t("INV 1"), ErrorCode::InvalidCharacters),
        ],
    );
}

#[test]
fn day_to_process_follows_the_interval() {
    table(
        &RECURRING,
        Column::DayToProcess,
        &[t("1"), t("31"), Cell::Number(28.0)],
        &[
            (t(""), ErrorCode::Required),
            (t("0"), ErrorCode::DayToProcessOutOfRange),
            (t("32"), ErrorCode::DayToProcessOutOfRange),
            (t("300"), ErrorCode::DayToProcessOutOfRange),
            (t("first"), ErrorCode::InvalidNumber),
        ],
    );
    for (template, kind) in RECURRING {
        let weekly = |day: &str| {
            check(
                template,
                kind,
                &[
                    (Column::Interval, t("Weekly")),
                    (Column::DayToProcess, t(day)),
                ],
            )
        };
        assert_eq!(weekly("7"), Vec::new());
        assert_eq!(
            weekly("8"),
            vec![(
                "Day to process".to_string(),
                ErrorCode::DayToProcessOutOfRange
            )]
        );
        let fortnightly = |day: &str| {
            check(
                template,
                kind,
                &[
                    (Column::Interval, t("fortnightly")),
                    (Column::DayToProcess, t(day)),
                ],
            )
        };
        assert_eq!(fortnightly("14"), Vec::new());
        assert_eq!(
            fortnightly("15"),
            vec![(
                "Day to process".to_string(),
                ErrorCode::DayToProcessOutOfRange
            )]
        );
    }
    table(
        &RECURRING,
        Column::Interval,
        &[t("Annually")],
        &[(t("Daily"), ErrorCode::InvalidChoice)],
    );
}

#[test]
fn contract_reference_letters_and_digits_up_to_14() {
    table(
        &ALL[..4],
        Column::ContractReference,
        &[t(&repeat('C', 14))],
        &[
            (t(""), ErrorCode::Required),
            (t(&repeat('C', 15)), ErrorCode::TooLong),
            (t("GYM-2026"), ErrorCode::InvalidCharacters),
        ],
    );
}

#[test]
fn tracking_days_1_to_10_only_when_tracking_is_allowed() {
    for (template, kind) in &ALL[..4] {
        let tracking = |allow: &str, days: &str| {
            check(
                *template,
                *kind,
                &[
                    (Column::AllowTracking, t(allow)),
                    (Column::TrackingDays, t(days)),
                ],
            )
        };
        assert_eq!(tracking("yes", "1"), Vec::new());
        assert_eq!(tracking("YES", "10"), Vec::new());
        assert_eq!(tracking("no", ""), Vec::new());
        let days = "Max payment tracking days".to_string();
        assert_eq!(
            tracking("yes", "0"),
            vec![(days.clone(), ErrorCode::TrackingDaysOutOfRange)]
        );
        assert_eq!(
            tracking("yes", "11"),
            vec![(days.clone(), ErrorCode::TrackingDaysOutOfRange)]
        );
        assert_eq!(
            tracking("yes", ""),
            vec![(days.clone(), ErrorCode::Required)]
        );
        assert_eq!(
            tracking("no", "3"),
            vec![(days, ErrorCode::TrackingNotAllowed)]
        );
        assert_eq!(
            tracking("maybe", ""),
            vec![(
                "Allow payment tracking".to_string(),
                ErrorCode::InvalidBoolean
            )]
        );
    }
}

#[test]
fn maximum_collection_at_least_the_amount_and_for_debicheck_at_most_one_and_a_half_times() {
    let maximum = |template, value: &str| {
        check(
            template,
            PaymentKind::Recurring,
            &[
                (Column::Amount, t("100.00")),
                (Column::MaximumCollectionAmount, t(value)),
            ],
        )
    };
    let column = "Maximum collection amount".to_string();
    assert_eq!(maximum(ImportTemplate::Debicheck, "150.00"), Vec::new());
    assert_eq!(
        maximum(ImportTemplate::Debicheck, "150.01"),
        vec![(column.clone(), ErrorCode::MaximumAboveDebicheckLimit)]
    );
    assert_eq!(
        maximum(ImportTemplate::RegisteredMandate, "1000.00"),
        Vec::new()
    );
    assert_eq!(
        maximum(ImportTemplate::RegisteredMandate, "100.00"),
        Vec::new()
    );
    assert_eq!(
        maximum(ImportTemplate::RegisteredMandate, "99.99"),
        vec![(column.clone(), ErrorCode::MaximumBelowAmount)]
    );
    assert_eq!(
        maximum(ImportTemplate::RegisteredMandate, ""),
        vec![(column, ErrorCode::Required)]
    );
}

#[test]
fn adjustments_need_a_type_and_exactly_one_matching_value() {
    for (template, kind) in MANDATED_RECURRING {
        let adjust = |category: &str, kind_: &str, rate: &str, amount: &str| {
            check(
                template,
                kind,
                &[
                    (Column::AdjustmentCategory, t(category)),
                    (Column::AdjustmentType, t(kind_)),
                    (Column::AdjustmentRate, t(rate)),
                    (Column::AdjustmentAmount, t(amount)),
                ],
            )
        };
        assert_eq!(adjust("Never", "", "", ""), Vec::new());
        assert_eq!(adjust("Annually", "Rate", "5.25", ""), Vec::new());
        assert_eq!(adjust("Annually", "Rate", "123.45678", ""), Vec::new());
        assert_eq!(adjust("Quarterly", "Amount", "", "10.00"), Vec::new());
        assert_eq!(
            adjust("Annually", "", "5", ""),
            vec![(
                "Adjustment type".to_string(),
                ErrorCode::AdjustmentTypeRequired
            )]
        );
        assert_eq!(
            adjust("Annually", "Rate", "", "10.00"),
            vec![(
                "Adjustment rate".to_string(),
                ErrorCode::AdjustmentValueRequired
            )]
        );
        assert_eq!(
            adjust("Annually", "Rate", "5.123456", ""),
            vec![("Adjustment rate".to_string(), ErrorCode::InvalidRate)]
        );
        assert_eq!(
            adjust("Annually", "Rate", "123456789", ""),
            vec![("Adjustment rate".to_string(), ErrorCode::InvalidRate)]
        );
        assert_eq!(
            adjust("Repo", "Amount", "5", "10.00"),
            vec![(
                "Adjustment amount".to_string(),
                ErrorCode::AdjustmentValueRequired
            )]
        );
        assert_eq!(
            adjust("Sometimes", "", "", ""),
            vec![("Adjustment category".to_string(), ErrorCode::InvalidChoice)]
        );
    }
}

#[test]
fn debicheck_is_for_individuals_with_an_id_number_a_cellphone_and_a_window() {
    let debicheck =
        |set: &[(Column, Cell)]| check(ImportTemplate::Debicheck, PaymentKind::Once, set);
    assert_eq!(
        debicheck(&[(Column::ClientType, t("Domestic Company"))]),
        vec![(
            "Client Type".to_string(),
            ErrorCode::DebicheckIndividualsOnly
        )]
    );
    assert_eq!(
        debicheck(&[(Column::ClientType, t("Non-Resident Individual"))]),
        Vec::new()
    );
    assert!(
        debicheck(&[(Column::IdType, t("")), (Column::IdNumber, t(""))])
            .contains(&("ID Number".to_string(), ErrorCode::Required))
    );
    assert_eq!(
        debicheck(&[(Column::ContactNumber, t(""))]),
        vec![("Contact number".to_string(), ErrorCode::Required)]
    );
    assert_eq!(
        debicheck(&[(Column::ApprovalWindow, t(""))]),
        vec![("Approval window".to_string(), ErrorCode::Required)]
    );
    assert_eq!(
        debicheck(&[(Column::ApprovalWindow, t("Whenever"))]),
        vec![("Approval window".to_string(), ErrorCode::InvalidChoice)]
    );
    let rm_company = check(
        ImportTemplate::RegisteredMandate,
        PaymentKind::Once,
        &[(Column::ClientType, t("Domestic Company"))],
    );
    assert_eq!(
        rm_company,
        Vec::new(),
        "a registered mandate may be a company's"
    );
}

#[test]
fn lookup_columns_take_a_list_value_in_any_case_or_its_id() {
    table(
        &ALL,
        Column::TypeOfPayment,
        &[t("insurance premium"), t("rental_or_lease")],
        &[
            (t(""), ErrorCode::Required),
            (t("Groceries"), ErrorCode::InvalidChoice),
        ],
    );
    table(
        &ALL,
        Column::IdType,
        &[t("south african id")],
        &[(t("Driver's licence"), ErrorCode::InvalidChoice)],
    );
    table(
        &ALL,
        Column::ClientType,
        &[t("RESIDENT INDIVIDUAL")],
        &[(t("Alien"), ErrorCode::InvalidChoice)],
    );
}

#[test]
fn account_abbreviation_and_start_running() {
    table(
        &ALL,
        Column::AccountAbbreviation,
        &[t(""), t("KAROO GYM")],
        &[
            (t("KAROO GYM 2"), ErrorCode::TooLong),
            (t("GYM&CO"), ErrorCode::InvalidCharacters),
        ],
    );
    table(
        &[(ImportTemplate::EftDebitOrder, PaymentKind::Once)],
        Column::StartRunning,
        &[t("yes"), t("No"), t("")],
        &[(t("later"), ErrorCode::InvalidBoolean)],
    );
}

#[test]
fn every_problem_of_a_row_is_named_at_once() {
    let issues = check(
        ImportTemplate::EftDebitOrder,
        PaymentKind::Once,
        &[
            (Column::Email, t("nope")),
            (Column::Amount, t("-1")),
            (Column::BankName, t("Barclays")),
            (Column::BranchCode, t("123")),
        ],
    );
    assert_eq!(
        issues,
        vec![
            ("Email".to_string(), ErrorCode::InvalidEmail),
            ("Bank name".to_string(), ErrorCode::InvalidChoice),
            ("Amount".to_string(), ErrorCode::InvalidAmount),
        ],
        "the branch code is not blamed for a bank that was not understood"
    );
}
