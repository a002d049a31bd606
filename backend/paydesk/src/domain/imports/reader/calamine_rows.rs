//! The spreadsheet formats, through calamine. xlsx/xlsm and xlsb are streamed
//! cell by cell (never as a range: a range is allocated densely over every
//! cell between A1 and the furthest one). xls and ods can only be read as
//! ranges, and only after their guards have bounded those ranges.
//!
//! The parser can panic on malformed input; every call into it is fenced so
//! that a hostile file is refused rather than taking the server down.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use calamine::{
    CellErrorType, Data, DataRef, ExcelDateTime, Ods, Range, Reader, Sheet, SheetType, Xls, Xlsb,
    Xlsx,
};
use protocol::ErrorCode;
use time::{Date, Month};

use super::rows::Rows;
use crate::domain::imports::cells::{Cell, Refusal};

pub(super) fn read_xlsx(bytes: &[u8], rows: &mut Rows<'_>) -> Result<(), Refusal> {
    let mut book: Xlsx<_> = fenced(|| Xlsx::new(Cursor::new(bytes)))?;
    let name = first_worksheet(book.sheets_metadata())?;
    let mut cells = fenced(|| book.worksheet_cells_reader(&name))?;
    while let Some(cell) = fenced(|| cells.next_cell())? {
        let (row, column) = cell.get_position();
        rows.cell(row, column, from_data_ref(cell.get_value()))?;
    }
    Ok(())
}

pub(super) fn read_xlsb(bytes: &[u8], rows: &mut Rows<'_>) -> Result<(), Refusal> {
    let mut book: Xlsb<_> = fenced(|| Xlsb::new(Cursor::new(bytes)))?;
    let name = first_worksheet(book.sheets_metadata())?;
    let mut cells = fenced(|| book.worksheet_cells_reader(&name))?;
    while let Some(cell) = fenced(|| cells.next_cell())? {
        let (row, column) = cell.get_position();
        rows.cell(row, column, from_data_ref(cell.get_value()))?;
    }
    Ok(())
}

pub(super) fn read_xls(bytes: &[u8], rows: &mut Rows<'_>) -> Result<(), Refusal> {
    let mut book: Xls<_> = fenced(|| Xls::new(Cursor::new(bytes)))?;
    let name = first_worksheet(book.sheets_metadata())?;
    let range = fenced(|| book.worksheet_range(&name))?;
    read_range(&range, rows)
}

pub(super) fn read_ods(bytes: &[u8], rows: &mut Rows<'_>) -> Result<(), Refusal> {
    let mut book: Ods<_> = fenced(|| Ods::new(Cursor::new(bytes)))?;
    let name = first_worksheet(book.sheets_metadata())?;
    let range = fenced(|| book.worksheet_range(&name))?;
    read_range(&range, rows)
}

fn read_range(range: &Range<Data>, rows: &mut Rows<'_>) -> Result<(), Refusal> {
    let Some((first_row, first_column)) = range.start() else {
        return Ok(());
    };
    for (offset, cells) in range.rows().enumerate() {
        let row = first_row.saturating_add(u32::try_from(offset).unwrap_or(u32::MAX));
        for (column, data) in cells.iter().enumerate() {
            let column = first_column.saturating_add(u32::try_from(column).unwrap_or(u32::MAX));
            rows.cell(row, column, from_data(data))?;
        }
    }
    Ok(())
}

/// The first sheet that is a worksheet (not a chart), in workbook order.
fn first_worksheet(sheets: &[Sheet]) -> Result<String, Refusal> {
    sheets
        .iter()
        .find(|sheet| sheet.typ == SheetType::WorkSheet)
        .map(|sheet| sheet.name.clone())
        .ok_or_else(|| Refusal::new(ErrorCode::ImportEmpty))
}

/// Runs one parser call; its errors and panics both make the file unreadable.
fn fenced<T, E: std::fmt::Display>(call: impl FnOnce() -> Result<T, E>) -> Result<T, Refusal> {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => {
            tracing::debug!(%error, "spreadsheet refused by its parser");
            Err(Refusal::new(ErrorCode::ImportUnreadable))
        }
        Err(_) => {
            tracing::warn!("spreadsheet parser panicked on an upload");
            Err(Refusal::new(ErrorCode::ImportUnreadable))
        }
    }
}

fn from_data(data: &Data) -> Cell {
    match data {
        Data::Empty => Cell::Empty,
        Data::String(text) => Cell::Text(text.clone()),
        Data::Int(number) => Cell::Number(*number as f64),
        Data::Float(number) => Cell::Number(*number),
        Data::Bool(value) => Cell::Bool(*value),
        Data::DateTime(date) => date_cell(date),
        Data::DateTimeIso(text) => iso_date_cell(text),
        Data::DurationIso(text) => Cell::Text(text.clone()),
        Data::Error(error) => error_cell(error),
    }
}

fn from_data_ref(data: &DataRef<'_>) -> Cell {
    match data {
        DataRef::Empty => Cell::Empty,
        DataRef::String(text) => Cell::Text(text.clone()),
        DataRef::SharedString(text) => Cell::Text((*text).to_string()),
        DataRef::Int(number) => Cell::Number(*number as f64),
        DataRef::Float(number) => Cell::Number(*number),
        DataRef::Bool(value) => Cell::Bool(*value),
        DataRef::DateTime(date) => date_cell(date),
        DataRef::DateTimeIso(text) => iso_date_cell(text),
        DataRef::DurationIso(text) => Cell::Text(text.clone()),
        DataRef::Error(error) => error_cell(error),
    }
}

/// A native date cell; its time of day is dropped. A duration, or a serial
/// that is no calendar date (Excel's 1900-02-29), stays as text.
fn date_cell(date: &ExcelDateTime) -> Cell {
    if date.is_duration() {
        return Cell::Text(date.to_string());
    }
    let (year, month, day, ..) = date.to_ymd_hms_milli();
    match calendar_date(i32::from(year), month, day) {
        Some(date) => Cell::Date(date),
        None => Cell::Text(format!("{year:04}-{month:02}-{day:02}")),
    }
}

/// ods stores dates as ISO 8601 text, with or without a time.
fn iso_date_cell(text: &str) -> Cell {
    let date = text.get(..10).and_then(|ymd| {
        let mut parts = ymd.split('-');
        let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
        if year.len() != 4 || month.len() != 2 || day.len() != 2 {
            return None;
        }
        calendar_date(year.parse().ok()?, month.parse().ok()?, day.parse().ok()?)
    });
    date.map_or_else(|| Cell::Text(text.to_string()), Cell::Date)
}

fn calendar_date(year: i32, month: u8, day: u8) -> Option<Date> {
    Date::from_calendar_date(year, Month::try_from(month).ok()?, day).ok()
}

fn error_cell(error: &CellErrorType) -> Cell {
    Cell::Text(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use calamine::ExcelDateTimeType;

    #[test]
    fn dates_map_to_calendar_dates_or_text() {
        let date = ExcelDateTime::new(45943.541, ExcelDateTimeType::DateTime, false);
        assert_eq!(
            date_cell(&date),
            Cell::Date(time::macros::date!(2025 - 10 - 13))
        );
        // Excel's phantom leap day.
        let leap = ExcelDateTime::new(60.0, ExcelDateTimeType::DateTime, false);
        assert_eq!(date_cell(&leap), Cell::Text("1900-02-29".into()));
        let duration = ExcelDateTime::new(1.5, ExcelDateTimeType::TimeDelta, false);
        assert_eq!(date_cell(&duration), Cell::Text("1.5".into()));
        assert_eq!(
            iso_date_cell("2026-03-01T00:00:00"),
            Cell::Date(time::macros::date!(2026 - 03 - 01))
        );
        assert_eq!(iso_date_cell("2026-02-30"), Cell::Text("2026-02-30".into()));
        assert_eq!(
            iso_date_cell("+12026-01-01"),
            Cell::Text("+12026-01-01".into())
        );
        assert_eq!(
            error_cell(&CellErrorType::Div0),
            Cell::Text("#DIV/0!".into())
        );
    }
}
