//! Bulk import of payments from spreadsheets (DOMAIN.md, import templates):
//! reading a file, checking every row, and writing the valid ones.

pub mod cells;
pub mod cli;
pub mod commit;
pub mod duplicates;
pub mod lookups;
pub mod messages;
pub mod prepare;
pub mod queries;
pub mod reader;
pub mod rows;
pub mod template;
pub mod values;
pub mod workbook;

use std::collections::HashMap;

use protocol::{ErrorCode, ImportIssue, ImportTemplate, PaymentKind};
use time::Date;

use cells::{Refusal, SheetRow};
use duplicates::RowKey;
use reader::kept::{KeptRows, read_kept};
use rows::{Checked, RowRules, ValidRow};
use template::ColumnMap;

/// What checking a whole file found.
#[derive(Clone, Debug, Default)]
pub struct CheckedFile {
    pub rows: u32,
    pub valid: u32,
    pub invalid: u32,
    /// Every problem of every invalid row, in row order.
    pub issues: Vec<ImportIssue>,
    /// For each customer reference, the last valid row naming it: the row
    /// whose customer details stand once the import is done.
    pub customer_last_rows: HashMap<String, u32>,
    /// What identifies each valid row's payment (`duplicates`), kept only
    /// by `check_file_keeping_rows`: an upload's preview names the repeats.
    pub row_keys: Vec<RowKey>,
}

/// Where checking takes its rows from: calls the given sink with each
/// row, header first, and stops at the sink's first error.
type RowSource<'a> =
    &'a mut dyn FnMut(&mut dyn FnMut(SheetRow) -> Result<(), Refusal>) -> Result<(), Refusal>;

/// Reads `bytes` and checks every row against the layout, handing each
/// valid row to `on_valid` as it goes (the commit writes them in batches
/// while the file is still being read). A file refused as a whole, or an
/// error from `on_valid`, stops at once.
pub fn check_file(
    file_name: &str,
    bytes: &[u8],
    template: ImportTemplate,
    kind: PaymentKind,
    today: Date,
    on_valid: &mut dyn FnMut(ValidRow) -> Result<(), Refusal>,
) -> Result<CheckedFile, Refusal> {
    let rules = (template, kind, today);
    check_rows(
        &mut |on_row| reader::read_rows(file_name, bytes, on_row),
        rules,
        on_valid,
    )
}

/// Checks an upload as `check_file` does, and keeps the rows it read
/// (`reader::kept`) so that the commit need not read the file again.
pub fn check_file_keeping_rows(
    file_name: &str,
    bytes: &[u8],
    template: ImportTemplate,
    kind: PaymentKind,
    today: Date,
) -> Result<(CheckedFile, Vec<u8>), Refusal> {
    let mut kept = KeptRows::default();
    let mut row_keys = Vec::new();
    let mut found = check_rows(
        &mut |on_row| {
            reader::read_rows(file_name, bytes, &mut |row| {
                kept.push(&row)?;
                on_row(row)
            })
        },
        (template, kind, today),
        &mut |valid| {
            row_keys.push(RowKey::of_row(&valid));
            Ok(())
        },
    )?;
    found.row_keys = row_keys;
    Ok((found, kept.finish()?))
}

/// Checks the rows `check_file_keeping_rows` kept, as `check_file` does.
pub fn check_kept_rows(
    kept: &[u8],
    template: ImportTemplate,
    kind: PaymentKind,
    today: Date,
    on_valid: &mut dyn FnMut(ValidRow) -> Result<(), Refusal>,
) -> Result<CheckedFile, Refusal> {
    check_rows(
        &mut |on_row| read_kept(kept, on_row),
        (template, kind, today),
        on_valid,
    )
}

fn check_rows(
    source: RowSource<'_>,
    (template, kind, today): (ImportTemplate, PaymentKind, Date),
    on_valid: &mut dyn FnMut(ValidRow) -> Result<(), Refusal>,
) -> Result<CheckedFile, Refusal> {
    let mut rules: Option<RowRules> = None;
    let mut found = CheckedFile::default();
    source(&mut |row| {
        let Some(rules) = &rules else {
            rules = Some(RowRules {
                template,
                kind,
                columns: ColumnMap::from_header(&row, template, kind)?,
                today,
            });
            return Ok(());
        };
        if row.is_blank() {
            return Ok(());
        }
        found.rows += 1;
        match rows::check_row(rules, &row) {
            Checked::Valid(valid) => {
                found.valid += 1;
                match found.customer_last_rows.get_mut(&valid.customer.reference) {
                    Some(last) => *last = valid.number,
                    None => {
                        let reference = valid.customer.reference.clone();
                        found.customer_last_rows.insert(reference, valid.number);
                    }
                }
                on_valid(*valid)
            }
            Checked::Invalid(issues) => {
                found.invalid += 1;
                found.issues.extend(issues);
                Ok(())
            }
        }
    })?;
    if rules.is_none() || found.rows == 0 {
        return Err(Refusal::new(ErrorCode::ImportEmpty));
    }
    Ok(found)
}

#[cfg(test)]
mod rows_tests;
