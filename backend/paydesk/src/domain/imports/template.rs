//! The six column layouts (three templates, once-off and recurring) and how
//! a file's header row is matched to one.

use std::collections::HashMap;

use protocol::{ErrorCode, ImportTemplate, PaymentKind};

use super::cells::{Refusal, SheetRow};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    CustomerReference,
    PersonName,
    PersonSurname,
    CompanyName,
    IdType,
    ClientType,
    IdNumber,
    Email,
    ContactNumber,
    AddressLine1,
    AddressLine2,
    Town,
    PostalCode,
    HolderName,
    AccountNumber,
    AccountType,
    BankName,
    BranchCode,
    Amount,
    DateToProcess,
    TransactionReference,
    StartDate,
    EndDate,
    Interval,
    DayToProcess,
    TypeOfPayment,
    ContractReference,
    AllowTracking,
    TrackingDays,
    FirstCollectionAmount,
    MaximumCollectionAmount,
    AllowDateAdjustment,
    VariableAmount,
    AdjustmentCategory,
    AdjustmentType,
    AdjustmentRate,
    AdjustmentAmount,
    ApprovalWindow,
    AccountAbbreviation,
    StartRunning,
}

impl Column {
    /// The header exactly as the templates spell it.
    pub fn header(self) -> &'static str {
        match self {
            Column::CustomerReference => "Customer reference",
            Column::PersonName => "Person name",
            Column::PersonSurname => "Person surname",
            Column::CompanyName => "Company name",
            Column::IdType => "ID Type",
            Column::ClientType => "Client Type",
            Column::IdNumber => "ID Number",
            Column::Email => "Email",
            Column::ContactNumber => "Contact number",
            Column::AddressLine1 => "Billing address line 1",
            Column::AddressLine2 => "Billing address line 2",
            Column::Town => "Town/City",
            Column::PostalCode => "Postal code",
            Column::HolderName => "Bank account holder name",
            Column::AccountNumber => "Bank account number",
            Column::AccountType => "Bank account type",
            Column::BankName => "Bank name",
            Column::BranchCode => "Bank branch code",
            Column::Amount => "Amount",
            Column::DateToProcess => "Date to process",
            Column::TransactionReference => "Transaction reference",
            Column::StartDate => "Collection start date",
            Column::EndDate => "Collection end date",
            Column::Interval => "Interval",
            Column::DayToProcess => "Day to process",
            Column::TypeOfPayment => "Type of payment",
            Column::ContractReference => "Contract reference",
            Column::AllowTracking => "Allow payment tracking",
            Column::TrackingDays => "Max payment tracking days",
            Column::FirstCollectionAmount => "First collection amount",
            Column::MaximumCollectionAmount => "Maximum collection amount",
            Column::AllowDateAdjustment => "Allow date adjustment",
            Column::VariableAmount => "Is collection amount variable",
            Column::AdjustmentCategory => "Adjustment category",
            Column::AdjustmentType => "Adjustment type",
            Column::AdjustmentRate => "Adjustment rate",
            Column::AdjustmentAmount => "Adjustment amount",
            Column::ApprovalWindow => "Approval window",
            Column::AccountAbbreviation => "Account abbreviation",
            Column::StartRunning => "Set the payment status to running?",
        }
    }
}

/// One layout's columns in template order, each with whether a file must have it.
pub fn layout(template: ImportTemplate, kind: PaymentKind) -> Vec<(Column, bool)> {
    use Column as C;
    let mandated = template != ImportTemplate::EftDebitOrder;
    let recurring = kind == PaymentKind::Recurring;
    let mut columns = vec![(C::CustomerReference, true)];
    // Templates 1-2 need a person; template 3 takes a person or a company,
    // which is checked per row.
    columns.push((C::PersonName, mandated));
    columns.push((C::PersonSurname, mandated));
    if !mandated {
        columns.push((C::CompanyName, false));
    }
    columns.extend([
        (C::IdType, false),
        (C::ClientType, false),
        (C::IdNumber, false),
        (C::Email, true),
        (C::ContactNumber, false),
        (C::AddressLine1, false),
        (C::AddressLine2, false),
        (C::Town, false),
        (C::PostalCode, false),
        (C::HolderName, true),
        (C::AccountNumber, true),
        (C::AccountType, true),
        (C::BankName, true),
        (C::BranchCode, true),
        (C::Amount, true),
    ]);
    if recurring {
        columns.extend([
            (C::StartDate, true),
            (C::EndDate, false),
            (C::Interval, true),
            (C::DayToProcess, true),
        ]);
    } else {
        columns.extend([(C::DateToProcess, true), (C::TransactionReference, false)]);
    }
    columns.push((C::TypeOfPayment, true));
    if mandated {
        columns.extend([
            (C::ContractReference, true),
            (C::AllowTracking, false),
            (C::TrackingDays, false),
        ]);
        if recurring {
            columns.extend([
                (C::FirstCollectionAmount, false),
                (C::MaximumCollectionAmount, true),
                (C::AllowDateAdjustment, false),
                (C::VariableAmount, false),
                (C::AdjustmentCategory, false),
                (C::AdjustmentType, false),
                (C::AdjustmentRate, false),
                (C::AdjustmentAmount, false),
            ]);
        }
    }
    if template == ImportTemplate::Debicheck {
        columns.push((C::ApprovalWindow, true));
    }
    columns.push((C::AccountAbbreviation, false));
    if !mandated {
        columns.push((C::StartRunning, false));
    }
    columns
}

/// A header as matched: case-insensitive, spaces around the name and
/// around a trailing `*` (the required marker) ignored.
pub fn normalise_header(header: &str) -> String {
    let trimmed = header.trim();
    let trimmed = trimmed.strip_suffix('*').unwrap_or(trimmed).trim();
    trimmed.to_lowercase()
}

/// Where each of the layout's columns sits in the file.
#[derive(Clone, Debug)]
pub struct ColumnMap {
    positions: HashMap<Column, usize>,
    /// The same, in the file's order.
    in_order: Vec<(usize, Column)>,
}

impl ColumnMap {
    /// Matches the header row. Headers the layout does not know are the
    /// merchant's own columns and are left alone.
    pub fn from_header(
        header: &SheetRow,
        template: ImportTemplate,
        kind: PaymentKind,
    ) -> Result<ColumnMap, Refusal> {
        let columns = layout(template, kind);
        let by_name: HashMap<String, Column> = columns
            .iter()
            .map(|(column, _)| (normalise_header(column.header()), *column))
            .collect();
        let mut positions = HashMap::new();
        for (index, cell) in header.cells.iter().enumerate() {
            let Some(column) = by_name.get(&normalise_header(&cell.display())) else {
                continue;
            };
            if positions.insert(*column, index).is_some() {
                return Err(Refusal::column(
                    ErrorCode::ImportDuplicateColumn,
                    column.header(),
                ));
            }
        }
        if let Some((missing, _)) = columns
            .iter()
            .find(|(column, required)| *required && !positions.contains_key(column))
        {
            return Err(Refusal::column(
                ErrorCode::ImportMissingColumn,
                missing.header(),
            ));
        }
        let mut in_order: Vec<(usize, Column)> = positions
            .iter()
            .map(|(column, at)| (*at, *column))
            .collect();
        in_order.sort_by_key(|(at, _)| *at);
        Ok(ColumnMap {
            positions,
            in_order,
        })
    }

    pub fn position(&self, column: Column) -> Option<usize> {
        self.positions.get(&column).copied()
    }

    /// The layout's columns the file has, with their places, left to right.
    pub fn in_order(&self) -> &[(usize, Column)] {
        &self.in_order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::imports::cells::Cell;

    fn header(names: &[&str]) -> SheetRow {
        SheetRow {
            number: 1,
            cells: names.iter().map(|n| Cell::Text(n.to_string())).collect(),
        }
    }

    fn required_headers(template: ImportTemplate, kind: PaymentKind) -> Vec<&'static str> {
        layout(template, kind)
            .into_iter()
            .filter(|(_, required)| *required)
            .map(|(column, _)| column.header())
            .collect()
    }

    #[test]
    fn headers_match_whatever_the_case_spaces_and_required_marker() {
        for raw in ["Email", " email ", "EMAIL*", "Email *", "  eMail  * "] {
            assert_eq!(normalise_header(raw), "email", "{raw:?}");
        }
    }

    #[test]
    fn each_layout_accepts_its_own_required_headers_in_any_order() {
        for template in ImportTemplate::ALL {
            for kind in [PaymentKind::Once, PaymentKind::Recurring] {
                let mut names = required_headers(template, kind);
                names.reverse();
                names.push("Our own notes");
                let map = ColumnMap::from_header(&header(&names), template, kind);
                assert!(map.is_ok(), "{template:?} {kind:?}");
            }
        }
    }

    #[test]
    fn a_missing_required_column_refuses_the_file_and_names_it() {
        let mut names = required_headers(ImportTemplate::Debicheck, PaymentKind::Recurring);
        names.retain(|n| *n != "Approval window");
        let refusal = ColumnMap::from_header(
            &header(&names),
            ImportTemplate::Debicheck,
            PaymentKind::Recurring,
        )
        .err();
        assert_eq!(
            refusal,
            Some(Refusal::column(
                ErrorCode::ImportMissingColumn,
                "Approval window"
            ))
        );
    }

    #[test]
    fn a_column_twice_is_refused() {
        let mut names = required_headers(ImportTemplate::EftDebitOrder, PaymentKind::Once);
        names.push("AMOUNT*");
        let refusal = ColumnMap::from_header(
            &header(&names),
            ImportTemplate::EftDebitOrder,
            PaymentKind::Once,
        )
        .err();
        assert_eq!(
            refusal,
            Some(Refusal::column(ErrorCode::ImportDuplicateColumn, "Amount"))
        );
    }

    #[test]
    fn layouts_follow_the_domain_brief() {
        let headers =
            |t, k| -> Vec<&str> { layout(t, k).into_iter().map(|(c, _)| c.header()).collect() };
        let eft_once = headers(ImportTemplate::EftDebitOrder, PaymentKind::Once);
        assert!(eft_once.contains(&"Company name"));
        assert!(eft_once.contains(&"Set the payment status to running?"));
        assert!(!eft_once.contains(&"Contract reference"));
        assert!(!eft_once.contains(&"Collection start date"));
        let rm_recurring = headers(ImportTemplate::RegisteredMandate, PaymentKind::Recurring);
        assert!(rm_recurring.contains(&"Maximum collection amount"));
        assert!(!rm_recurring.contains(&"Approval window"));
        assert!(!rm_recurring.contains(&"Company name"));
        let debicheck_once = headers(ImportTemplate::Debicheck, PaymentKind::Once);
        assert!(debicheck_once.contains(&"Approval window"));
        assert!(!debicheck_once.contains(&"Adjustment rate"));
    }
}
