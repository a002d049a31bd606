//! Reads an uploaded spreadsheet row by row: xlsx, xlsm, xlsb, xls, ods and
//! csv. Uploads are hostile until proven otherwise, so every container is
//! checked (`guard`, `xls_guard`, `ods_guard`) before the spreadsheet parser
//! sees it, and rows are handed out one at a time (`rows`).

mod calamine_rows;
mod csv_rows;
mod guard;
pub mod kept;
mod ods_guard;
mod rows;
mod xls_guard;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod tests;

use protocol::{ErrorCode, IMPORT_MAX_COLUMNS, IMPORT_MAX_FILE_BYTES, IMPORT_MAX_ROWS};

use super::cells::{Refusal, SheetRow};
use rows::Rows;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Xlsx,
    Xlsm,
    Xlsb,
    Xls,
    Ods,
    Csv,
}

/// The most cells a sheet parsed as a whole (xls, ods) may span: the
/// largest sheet a valid import can be (header plus IMPORT_MAX_ROWS rows, all
/// columns), so that a legal file always fits and anything bigger is refused
/// before memory is reserved for it.
pub(crate) const CELL_BUDGET: u64 = (IMPORT_MAX_ROWS as u64 + 1) * IMPORT_MAX_COLUMNS as u64;

/// xls holds at most 65,536 rows, and its parser keeps every sheet laid out
/// densely and hands out a copy of the one asked for: the budget is the
/// largest legal xls sheet, so that a legal file stays at a few hundred MiB.
pub(crate) const XLS_CELL_BUDGET: u64 = 65_536 * IMPORT_MAX_COLUMNS as u64;

const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
const OLE_MAGIC: &[u8] = &[0xD0, 0xCF, 0x11, 0xE0];

/// By extension (case-insensitive), confirmed by the file's magic bytes (zip
/// for xlsx/xlsm/xlsb/ods, OLE for xls; csv is text). Unknown extension →
/// ImportUnsupportedFormat; magic mismatch → ImportUnreadable.
pub fn detect_format(file_name: &str, bytes: &[u8]) -> Result<Format, Refusal> {
    let format = format_by_extension(file_name)?;
    let magic = match format {
        Format::Xlsx | Format::Xlsm | Format::Xlsb | Format::Ods => Some(ZIP_MAGIC),
        Format::Xls => Some(OLE_MAGIC),
        Format::Csv => None,
    };
    match magic {
        Some(magic) if !bytes.starts_with(magic) => Err(Refusal::new(ErrorCode::ImportUnreadable)),
        _ => Ok(format),
    }
}

fn format_by_extension(file_name: &str) -> Result<Format, Refusal> {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "xlsx" => Ok(Format::Xlsx),
        "xlsm" => Ok(Format::Xlsm),
        "xlsb" => Ok(Format::Xlsb),
        "xls" => Ok(Format::Xls),
        "ods" => Ok(Format::Ods),
        "csv" => Ok(Format::Csv),
        _ => Err(Refusal::new(ErrorCode::ImportUnsupportedFormat)),
    }
}

/// Streams the first worksheet's non-blank rows in row order (header first),
/// each with its true spreadsheet row number (1-based). Stops and returns the
/// callback's error if it returns Err.
pub fn read_rows(
    file_name: &str,
    bytes: &[u8],
    on_row: &mut dyn FnMut(SheetRow) -> Result<(), Refusal>,
) -> Result<(), Refusal> {
    if bytes.len() as u64 > u64::from(IMPORT_MAX_FILE_BYTES) {
        return Err(Refusal::new(ErrorCode::ImportTooLarge));
    }
    format_by_extension(file_name)?;
    if bytes.is_empty() {
        return Err(Refusal::new(ErrorCode::ImportEmpty));
    }
    let format = detect_format(file_name, bytes)?;
    let mut rows = Rows::new(on_row);
    match format {
        Format::Csv => csv_rows::read(bytes, &mut rows)?,
        Format::Xlsx | Format::Xlsm => {
            guard::check_zip(bytes, &guard::ZIP_LIMITS, false)?;
            calamine_rows::read_xlsx(bytes, &mut rows)?;
        }
        Format::Xlsb => {
            guard::check_zip(bytes, &guard::ZIP_LIMITS, true)?;
            calamine_rows::read_xlsb(bytes, &mut rows)?;
        }
        Format::Ods => {
            guard::check_zip(bytes, &guard::ZIP_LIMITS, false)?;
            ods_guard::check_ods(bytes, CELL_BUDGET)?;
            calamine_rows::read_ods(bytes, &mut rows)?;
        }
        Format::Xls => {
            xls_guard::check_xls(bytes, XLS_CELL_BUDGET)?;
            calamine_rows::read_xls(bytes, &mut rows)?;
        }
    }
    rows.finish()
}
