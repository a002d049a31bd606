//! Checks one spreadsheet row against every rule of its layout, per cell and
//! across columns. The same rules as the payment form: the row becomes the
//! form's inputs and goes through the form's checks, and each problem is
//! named by the template's column.

use protocol::{
    AdjustmentCategory, BankAccountChoice, BankAccountInput, ClientType, CustomerInput, ErrorCode,
    FieldError, IdType, ImportIssue, ImportTemplate, MandateChoice, MandateInput, PaymentInput,
    PaymentKind, PaymentMethod,
};
use time::Date;

use super::cells::{Cell, SheetRow};
use super::lookups;
use super::template::{Column, ColumnMap};
use super::values;
use crate::domain::banking::{accepted, verified_bank_account};
use crate::domain::calendar::CollectionDate;
use crate::domain::customers::validate_customer;
use crate::domain::mandates::{self, Payer};
use crate::domain::{payments, rules};
use crate::error::AppError;
use crate::store::bank_accounts::CheckedAccount;

/// What every row of one file is checked against.
pub struct RowRules {
    pub template: ImportTemplate,
    pub kind: PaymentKind,
    pub columns: ColumnMap,
    /// The merchant's business date: dates before it are in the past.
    pub today: Date,
}

/// A row that passed: the inputs to write, already tidied.
#[derive(Clone, Debug)]
pub struct ValidRow {
    pub number: u32,
    pub customer: CustomerInput,
    pub account: CheckedAccount,
    pub mandate: MandateInput,
    /// The payment's amount, as checked.
    pub amount_cents: i64,
    pub payment: PaymentInput,
    pub first: Option<CollectionDate>,
}

pub enum Checked {
    Valid(Box<ValidRow>),
    Invalid(Vec<ImportIssue>),
}

pub fn method_of(template: ImportTemplate) -> PaymentMethod {
    match template {
        ImportTemplate::Debicheck => PaymentMethod::Debicheck,
        ImportTemplate::RegisteredMandate => PaymentMethod::RegisteredMandate,
        ImportTemplate::EftDebitOrder => PaymentMethod::EftDebitOrder,
    }
}

/// A row's problems, at most one per column: the first is the one to fix.
struct Issues {
    row: u32,
    list: Vec<ImportIssue>,
    columns: Vec<Column>,
}

impl Issues {
    fn add(&mut self, column: Column, code: ErrorCode) {
        if !self.columns.contains(&column) {
            self.columns.push(column);
            self.list.push(ImportIssue {
                row: self.row,
                column: column.header().to_string(),
                code,
            });
        }
    }

    fn has(&self, column: Column) -> bool {
        self.columns.contains(&column)
    }

    /// Keeps the value, or notes the column's problem and uses `fallback`.
    fn take<T>(&mut self, column: Column, result: Result<T, ErrorCode>, fallback: T) -> T {
        result.unwrap_or_else(|code| {
            self.add(column, code);
            fallback
        })
    }

    /// Problems the form's checks found, named by column. A problem that only
    /// follows from another column's bad value (a branch code against a bank
    /// that was not understood) is left out.
    fn add_fields(&mut self, fields: &[FieldError], company_row: bool) {
        for field in fields {
            let Some(column) = column_of_field(&field.field, company_row) else {
                continue;
            };
            let follows_from = match column {
                Column::BranchCode => Some(Column::BankName),
                Column::MaximumCollectionAmount => Some(Column::Amount),
                Column::DayToProcess => Some(Column::Interval),
                Column::EndDate => Some(Column::StartDate),
                _ => None,
            };
            if follows_from.is_some_and(|c| self.has(c)) {
                continue;
            }
            self.add(column, field.code);
        }
    }
}

fn column_of_field(field: &str, company_row: bool) -> Option<Column> {
    let field = field
        .trim_start_matches("mandate.bankAccount.")
        .trim_start_matches("mandate.");
    Some(match field {
        "name" if company_row => Column::CompanyName,
        "name" => Column::PersonName,
        "email" => Column::Email,
        "cellphone" | "customer.cellphone" => Column::ContactNumber,
        "idNumber" | "customer.idNumber" => Column::IdNumber,
        "addressLine1" => Column::AddressLine1,
        "addressLine2" => Column::AddressLine2,
        "city" => Column::Town,
        "postalCode" => Column::PostalCode,
        "reference" => Column::CustomerReference,
        "branchCode" => Column::BranchCode,
        "holderName" => Column::HolderName,
        "accountType" => Column::AccountType,
        "accountNumber" => Column::AccountNumber,
        "amountCents" => Column::Amount,
        "transactionReference" => Column::TransactionReference,
        "dateToProcess" => Column::DateToProcess,
        "firstCollectionCents" => Column::FirstCollectionAmount,
        "startDate" => Column::StartDate,
        "endDate" => Column::EndDate,
        "interval" => Column::Interval,
        "dayToProcess" => Column::DayToProcess,
        "clientType" => Column::ClientType,
        "contractReference" => Column::ContractReference,
        "maximumCollectionCents" => Column::MaximumCollectionAmount,
        "allowTracking" => Column::AllowTracking,
        "trackingDays" => Column::TrackingDays,
        "adjustmentType" => Column::AdjustmentType,
        "adjustmentRate" => Column::AdjustmentRate,
        "adjustmentAmountCents" => Column::AdjustmentAmount,
        "approvalWindow" => Column::ApprovalWindow,
        "abbreviatedName" => Column::AccountAbbreviation,
        _ => return None,
    })
}

fn invalid_fields(result: Result<impl Sized, AppError>) -> Vec<FieldError> {
    match result {
        Err(AppError::Invalid(fields)) => fields,
        _ => Vec::new(),
    }
}

/// A required lookup: blank is `required`, off the list `invalid_choice`.
fn required_choice<T: Copy + serde::Serialize>(
    issues: &mut Issues,
    column: Column,
    cell: &Cell,
    list: &lookups::Lookup<T>,
    fallback: T,
) -> T {
    match values::choice(cell, list) {
        Ok(Some(value)) => value,
        Ok(None) => issues.take(column, Err(ErrorCode::Required), fallback),
        Err(code) => issues.take(column, Err(code), fallback),
    }
}

/// A cellphone typed as a number lost its leading zero: 821234567 is 0821234567.
fn contact_number(cell: &Cell) -> String {
    let text = values::text(cell);
    match cell {
        Cell::Number(_) if text.len() == 9 => format!("0{text}"),
        _ => text,
    }
}

fn small<T: TryFrom<i64>>(
    value: Option<i64>,
    out_of_range: ErrorCode,
) -> Result<Option<T>, ErrorCode> {
    value
        .map(|v| T::try_from(v).map_err(|_| out_of_range))
        .transpose()
}

/// Checks one row. Every problem of the row is reported at once.
pub fn check_row(rules: &RowRules, row: &SheetRow) -> Checked {
    let cell = |column: Column| -> &Cell {
        rules
            .columns
            .position(column)
            .map_or(&Cell::Empty, |index| row.cell(index))
    };
    let mut issues = Issues {
        row: row.number,
        list: Vec::new(),
        columns: Vec::new(),
    };
    // Text no record could hold is refused by the rule every entry point
    // uses, named by its column; that column's own checks then add nothing.
    for (at, column) in rules.columns.in_order() {
        if let Cell::Text(text) = row.cell(*at)
            && let Err(code) = rules::storable(text, rules::LONGEST_TEXT)
        {
            issues.add(*column, code);
        }
    }
    let template = rules.template;
    let mandated = template != ImportTemplate::EftDebitOrder;
    let recurring = rules.kind == PaymentKind::Recurring;
    let method = method_of(template);

    // The customer.
    let reference = values::text(cell(Column::CustomerReference));
    issues.take(
        Column::CustomerReference,
        rules::customer_reference(&reference),
        (),
    );
    let person = values::text(cell(Column::PersonName));
    let surname = values::text(cell(Column::PersonSurname));
    let company = if mandated {
        String::new()
    } else {
        values::text(cell(Column::CompanyName))
    };
    let company_row = !company.is_empty() && person.is_empty() && surname.is_empty();
    if !company_row {
        issues.take(Column::PersonName, rules::name(&person, 32), ());
        issues.take(Column::PersonSurname, rules::name(&surname, 32), ());
    }
    let id_type = issues.take(
        Column::IdType,
        values::choice(cell(Column::IdType), &lookups::ID_TYPES),
        None,
    );
    let client_type = issues
        .take(
            Column::ClientType,
            values::choice(cell(Column::ClientType), &lookups::CLIENT_TYPES),
            None,
        )
        .unwrap_or(if company_row {
            ClientType::DomesticCompany
        } else {
            ClientType::ResidentIndividual
        });
    let id_number = if id_type == Some(IdType::SouthAfricanId) {
        values::padded_digits(cell(Column::IdNumber), 13)
    } else {
        values::text(cell(Column::IdNumber))
    };
    let customer = CustomerInput {
        name: if company_row {
            company
        } else {
            format!("{person} {surname}")
        },
        email: values::text(cell(Column::Email)),
        cellphone: contact_number(cell(Column::ContactNumber)),
        id_type,
        id_number,
        address_line1: values::text(cell(Column::AddressLine1)),
        address_line2: values::text(cell(Column::AddressLine2)),
        city: values::text(cell(Column::Town)),
        postal_code: values::padded_digits(cell(Column::PostalCode), 4),
        reference,
    };
    let checked_customer = validate_customer(&customer);
    let customer = checked_customer
        .as_ref()
        .map_or(customer.clone(), Clone::clone);
    issues.add_fields(&invalid_fields(checked_customer), company_row);

    // The bank account.
    let account = BankAccountInput {
        bank: Some(required_choice(
            &mut issues,
            Column::BankName,
            cell(Column::BankName),
            &lookups::BANKS,
            protocol::BankId::Absa,
        )),
        branch_code: values::padded_digits(cell(Column::BranchCode), 6),
        account_type: required_choice(
            &mut issues,
            Column::AccountType,
            cell(Column::AccountType),
            &lookups::ACCOUNT_TYPES,
            protocol::AccountType::Current,
        ),
        holder_name: values::text(cell(Column::HolderName)),
        account_number: values::text(cell(Column::AccountNumber)),
    };
    // Cleaned once it passed its checks; as the row gave it otherwise, its
    // mistakes among the issues.
    let (clean, mistakes) = verified_bank_account(&account);
    issues.add_fields(&mistakes, company_row);
    let checked_account = accepted(clean, mistakes).ok();
    let account = checked_account
        .as_ref()
        .map_or(account, |checked| checked.input());

    // The payment's own cells.
    let amount = match values::cents(cell(Column::Amount)) {
        Ok(Some(cents)) => cents,
        Ok(None) => issues.take(Column::Amount, Err(ErrorCode::Required), 1),
        Err(code) => issues.take(Column::Amount, Err(code), 1),
    };
    let optional_cents = |issues: &mut Issues, column: Column| {
        issues.take(column, values::cents(cell(column)), None)
    };
    let optional_date =
        |issues: &mut Issues, column: Column| issues.take(column, values::date(cell(column)), None);
    let date_to_process = optional_date(&mut issues, Column::DateToProcess);
    let start_date = optional_date(&mut issues, Column::StartDate);
    let end_date = optional_date(&mut issues, Column::EndDate);
    let interval = if recurring {
        Some(required_choice(
            &mut issues,
            Column::Interval,
            cell(Column::Interval),
            &lookups::INTERVALS,
            protocol::Interval::Monthly,
        ))
    } else {
        None
    };
    let day = issues.take(
        Column::DayToProcess,
        values::whole_number(cell(Column::DayToProcess))
            .and_then(|d| small::<u8>(d, ErrorCode::DayToProcessOutOfRange)),
        None,
    );
    let industry = required_choice(
        &mut issues,
        Column::TypeOfPayment,
        cell(Column::TypeOfPayment),
        &lookups::INDUSTRIES,
        protocol::Industry::AccountRepayment,
    );

    // The mandate's cells.
    let allow_tracking = issues.take(
        Column::AllowTracking,
        values::yes_no(cell(Column::AllowTracking)),
        false,
    );
    let tracking_days = issues.take(
        Column::TrackingDays,
        values::whole_number(cell(Column::TrackingDays))
            .and_then(|d| small::<u8>(d, ErrorCode::TrackingDaysOutOfRange)),
        None,
    );
    let adjustment_category = issues
        .take(
            Column::AdjustmentCategory,
            values::choice(
                cell(Column::AdjustmentCategory),
                &lookups::ADJUSTMENT_CATEGORIES,
            ),
            None,
        )
        .unwrap_or(AdjustmentCategory::Never);
    let adjustment_type = issues.take(
        Column::AdjustmentType,
        values::choice(cell(Column::AdjustmentType), &lookups::ADJUSTMENT_TYPES),
        None,
    );
    let approval_window = issues.take(
        Column::ApprovalWindow,
        values::choice(cell(Column::ApprovalWindow), &lookups::APPROVAL_WINDOWS),
        None,
    );
    let mandate = MandateInput {
        method,
        bank_account: BankAccountChoice::New {
            input: account.clone(),
        },
        client_type,
        industry,
        contract_reference: values::text(cell(Column::ContractReference)),
        maximum_collection_cents: optional_cents(&mut issues, Column::MaximumCollectionAmount),
        allow_tracking,
        tracking_days,
        allow_date_adjustment: issues.take(
            Column::AllowDateAdjustment,
            values::yes_no(cell(Column::AllowDateAdjustment)),
            false,
        ),
        variable_amount: issues.take(
            Column::VariableAmount,
            values::yes_no(cell(Column::VariableAmount)),
            false,
        ),
        adjustment_category,
        adjustment_type,
        adjustment_rate: values::rate(cell(Column::AdjustmentRate)),
        adjustment_amount_cents: optional_cents(&mut issues, Column::AdjustmentAmount),
        approval_window,
        abbreviated_name: values::text(cell(Column::AccountAbbreviation)),
    };
    let mut fields = Vec::new();
    let mandate = mandates::validate_mandate(
        &mandate,
        Payer {
            id_number: &customer.id_number,
            cellphone: &customer.cellphone,
        },
        Some(amount),
        recurring,
        &mut fields,
    );
    issues.add_fields(&fields, company_row);

    let payment = PaymentInput {
        customer_id: String::new(),
        mandate: Some(MandateChoice::New {
            input: Box::new(mandate.clone()),
        }),
        kind: rules.kind,
        amount_cents: Some(amount),
        date_to_process,
        transaction_reference: values::text(cell(Column::TransactionReference)),
        start_date,
        end_date,
        interval,
        day_to_process: day,
        first_collection_cents: optional_cents(&mut issues, Column::FirstCollectionAmount),
        start_running: issues.take(
            Column::StartRunning,
            values::yes_no(cell(Column::StartRunning)),
            false,
        ),
    };
    let mut fields = Vec::new();
    let plan = payments::validate_payment(&payment, rules.today, &mut fields);
    issues.add_fields(&fields, company_row);

    match checked_account {
        // An account with a mistake has it among the issues.
        Some(account) if issues.list.is_empty() => Checked::Valid(Box::new(ValidRow {
            number: row.number,
            customer,
            account,
            mandate,
            amount_cents: amount,
            payment,
            first: plan.first,
        })),
        _ => Checked::Invalid(issues.list),
    }
}
