//! The spreadsheets the import screen hands out: a template per layout
//! (header, an example row and a sheet of the allowed values) and the
//! invalid rows of a file with their problems beside them.

use protocol::{ImportIssue, ImportTemplate, Language, PaymentKind};
use rust_xlsxwriter::{Format, Workbook, Worksheet, XlsxError};
use time::Date;

use super::cells::{Cell, Refusal};
use super::lookups;
use super::messages::message;
use super::template::{Column, layout};
use crate::domain::calendar::{add_business_days, iso_date};
use crate::domain::downloads::TextCells;
use crate::error::{AppError, AppResult};

pub const CONTENT_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

fn failed(err: XlsxError) -> AppError {
    AppError::Internal(format!("cannot write the spreadsheet: {err}"))
}

/// A value that passes every rule, to show how a row is filled in.
fn example(column: Column, first_date: &str) -> String {
    use Column as C;
    let value = match column {
        C::CustomerReference => "CUST-0001",
        C::PersonName => "Thandi",
        C::PersonSurname => "Mokoena",
        C::CompanyName => "",
        C::IdType => "South African ID",
        C::ClientType => "Resident Individual",
        C::IdNumber => "8801235111088",
        C::Email => "thandi.mokoena@example.co.za",
        C::ContactNumber => "0821234567",
        C::AddressLine1 => "12 Long Street",
        C::AddressLine2 => "",
        C::Town => "Cape Town",
        C::PostalCode => "8001",
        C::HolderName => "T Mokoena",
        C::AccountNumber => "4000000001",
        C::AccountType => "Current",
        C::BankName => "Absa",
        C::BranchCode => "632005",
        C::Amount => "250.00",
        C::DateToProcess | C::StartDate => first_date,
        C::TransactionReference => "INV-1001",
        C::EndDate => "",
        C::Interval => "Monthly",
        C::DayToProcess => "1",
        C::TypeOfPayment => "Insurance Premium",
        C::ContractReference => "POL1001",
        C::AllowTracking => "yes",
        C::TrackingDays => "3",
        C::FirstCollectionAmount => "",
        C::MaximumCollectionAmount => "300.00",
        C::AllowDateAdjustment => "yes",
        C::VariableAmount => "no",
        C::AdjustmentCategory => "Never",
        C::AdjustmentType | C::AdjustmentRate | C::AdjustmentAmount => "",
        C::ApprovalWindow => "TT1 Delayed",
        C::AccountAbbreviation => "MOKOENA",
        C::StartRunning => "yes",
    };
    value.to_string()
}

fn lookup_column<T: Copy + serde::Serialize>(
    sheet: &mut Worksheet,
    col: u16,
    list: &lookups::Lookup<T>,
    bold: &Format,
) -> Result<(), XlsxError> {
    sheet.write_string_with_format(0, col, list.title, bold)?;
    for (row, name) in list.names().enumerate() {
        sheet.write_string(row as u32 + 1, col, name)?;
    }
    sheet.set_column_width(col, 30)?;
    Ok(())
}

/// The empty template of a layout. `today` dates the example row.
pub fn template_xlsx(
    template: ImportTemplate,
    kind: PaymentKind,
    today: Date,
) -> AppResult<Vec<u8>> {
    let build = || -> Result<Vec<u8>, XlsxError> {
        let mut book = Workbook::new();
        let bold = Format::new().set_bold();
        let first_date = iso_date(add_business_days(today, 5));
        let sheet = book.add_worksheet();
        sheet.set_name("Payments")?;
        for (col, (column, required)) in layout(template, kind).into_iter().enumerate() {
            let col = col as u16;
            let header = if required {
                format!("{} *", column.header())
            } else {
                column.header().to_string()
            };
            sheet.write_string_with_format(0, col, &header, &bold)?;
            sheet.write_string(1, col, example(column, &first_date))?;
            sheet.set_column_width(col, (header.len() as f64).max(14.0) + 2.0)?;
        }
        sheet.set_freeze_panes(1, 0)?;
        let lists = book.add_worksheet();
        lists.set_name("Lookups")?;
        lookup_column(lists, 0, &lookups::ID_TYPES, &bold)?;
        lookup_column(lists, 1, &lookups::CLIENT_TYPES, &bold)?;
        lookup_column(lists, 2, &lookups::ACCOUNT_TYPES, &bold)?;
        lookup_column(lists, 3, &lookups::BANKS, &bold)?;
        lookup_column(lists, 4, &lookups::INTERVALS, &bold)?;
        lookup_column(lists, 5, &lookups::INDUSTRIES, &bold)?;
        lookup_column(lists, 6, &lookups::ADJUSTMENT_CATEGORIES, &bold)?;
        lookup_column(lists, 7, &lookups::ADJUSTMENT_TYPES, &bold)?;
        lookup_column(lists, 8, &lookups::APPROVAL_WINDOWS, &bold)?;
        lists.write_string_with_format(0, 9, "Yes / no", &bold)?;
        lists.write_string(1, 9, lookups::YES)?;
        lists.write_string(2, 9, lookups::NO)?;
        book.save_to_buffer()
    };
    build().map_err(failed)
}

pub fn template_file_name(template: ImportTemplate, kind: PaymentKind) -> String {
    let kind = match kind {
        PaymentKind::Once => "once-off",
        PaymentKind::Recurring => "recurring",
    };
    format!(
        "{}-{kind}-template.xlsx",
        template.as_str().replace('_', "-")
    )
}

/// The invalid rows of a file as they were, with their row number first and
/// their problems in the language asked for at the end.
pub fn issues_xlsx(
    file_name: &str,
    bytes: &[u8],
    issues: &[ImportIssue],
    language: Language,
) -> AppResult<Vec<u8>> {
    let mut wanted: Vec<u32> = issues.iter().map(|i| i.row).collect();
    wanted.dedup();
    let mut header: Vec<String> = Vec::new();
    let mut rows: Vec<(u32, Vec<String>)> = Vec::with_capacity(wanted.len());
    let mut next = 0;
    super::reader::read_rows(file_name, bytes, &mut |row| {
        if header.is_empty() {
            header = row.cells.iter().map(Cell::display).collect();
            return Ok(());
        }
        while next < wanted.len() && wanted[next] < row.number {
            next += 1;
        }
        if wanted.get(next) == Some(&row.number) {
            rows.push((row.number, row.cells.iter().map(Cell::display).collect()));
        }
        Ok(())
    })
    .map_err(|Refusal { code, .. }| AppError::Code(code))?;
    let row_title = match language {
        Language::En => "Row",
        Language::Afr => "Ry",
    };
    let errors_title = match language {
        Language::En => "Errors",
        Language::Afr => "Foute",
    };
    let build = || -> Result<Vec<u8>, XlsxError> {
        let mut book = Workbook::new();
        // The file's own header and cells come back as they were, as text.
        let titles = TextCells::new(Format::new().set_bold());
        let cells = TextCells::default();
        let sheet = book.add_worksheet();
        sheet.set_name("Invalid rows")?;
        let width = header.len() as u16;
        titles.write(sheet, 0, 0, row_title)?;
        for (col, name) in header.iter().enumerate() {
            titles.write(sheet, 0, col as u16 + 1, name)?;
        }
        titles.write(sheet, 0, width + 1, errors_title)?;
        let mut problems = issues.iter().peekable();
        for (index, (number, values)) in rows.iter().enumerate() {
            let at = index as u32 + 1;
            sheet.write_number(at, 0, f64::from(*number))?;
            for (col, value) in values.iter().enumerate() {
                cells.write(sheet, at, col as u16 + 1, value)?;
            }
            let mut text = Vec::new();
            while let Some(issue) = problems.next_if(|i| i.row <= *number) {
                if issue.row == *number {
                    text.push(format!(
                        "{}: {}",
                        issue.column,
                        message(issue.code, language)
                    ));
                }
            }
            cells.write(sheet, at, width + 1, &text.join("; "))?;
        }
        sheet.set_column_width(width + 1, 60)?;
        sheet.set_freeze_panes(1, 1)?;
        book.save_to_buffer()
    };
    build().map_err(failed)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::io::{Cursor, Read};

    use calamine::{Data, Reader, Xlsx};
    use protocol::ErrorCode;

    use super::*;

    /// What the invalid-rows sheet holds, cell by cell as text, and its
    /// worksheet's and styles' XML.
    fn open(bytes: &[u8]) -> (Vec<Vec<Data>>, String, String) {
        let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes.to_vec())).unwrap();
        let range = book.worksheet_range("Invalid rows").unwrap();
        let rows = range.rows().map(<[Data]>::to_vec).collect();
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes.to_vec())).unwrap();
        let mut part = |name: &str| {
            let mut xml = String::new();
            zip.by_name(name).unwrap().read_to_string(&mut xml).unwrap();
            xml
        };
        (
            rows,
            part("xl/worksheets/sheet1.xml"),
            part("xl/styles.xml"),
        )
    }

    /// Hostile cells of an uploaded file come back in the invalid-rows sheet
    /// as the text they were, never as formulas, and marked as text.
    #[test]
    fn the_invalid_rows_sheet_never_holds_a_formula() {
        let hostile = [
            "=HYPERLINK(\"http://x\",\"y\")",
            "+1+1",
            "@SUM(A1)",
            "-2+3",
            "\t=1+1",
            "-12.50",
        ];
        let mut csv = csv::Writer::from_writer(Vec::new());
        csv.write_record(["Customer reference", "=HEADER()"])
            .unwrap();
        for value in hostile {
            csv.write_record(["REF", value]).unwrap();
        }
        let file = csv.into_inner().unwrap();
        let issues: Vec<ImportIssue> = (2..=7)
            .map(|row| ImportIssue {
                row,
                column: "=HEADER()".into(),
                code: ErrorCode::InvalidAmount,
            })
            .collect();

        let sheet = issues_xlsx("hostile.csv", &file, &issues, Language::En).unwrap();
        let (rows, sheet_xml, styles) = open(&sheet);

        assert_eq!(rows[0][2], Data::String("=HEADER()".into()));
        for (index, value) in hostile.iter().enumerate() {
            let row = &rows[index + 1];
            assert_eq!(row[0], Data::Float(index as f64 + 2.0));
            assert_eq!(row[1], Data::String("REF".into()));
            assert_eq!(row[2], Data::String((*value).into()), "{value:?}");
            assert!(matches!(&row[3], Data::String(text) if text.starts_with("=HEADER(): ")));
        }
        assert!(!sheet_xml.contains("<f>") && !sheet_xml.contains("<f "));
        // The formula-like cells, and only those, carry the quote prefix.
        assert!(styles.contains("quotePrefix=\"1\""));
        let plain = style_of(&sheet_xml, "B2");
        for cell in ["C2", "C3", "C4", "C5", "C6"] {
            assert_ne!(style_of(&sheet_xml, cell), plain, "{cell}");
        }
        assert_eq!(style_of(&sheet_xml, "C7"), plain, "a plain number");
    }

    /// The style index of a cell in a worksheet's XML (none: the default).
    fn style_of(sheet_xml: &str, cell: &str) -> Option<String> {
        let start = sheet_xml.find(&format!("<c r=\"{cell}\""))?;
        let tag = &sheet_xml[start..start + sheet_xml[start..].find('>')?];
        let style = tag.split_once(" s=\"")?.1;
        Some(style[..style.find('"')?].to_string())
    }
}
