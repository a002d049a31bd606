//! CSV: UTF-8 with or without a byte-order mark, comma or semicolon
//! separated (Excel in a South African locale writes semicolons), every cell
//! text. Row numbers count lines as a spreadsheet shows them: a blank line is
//! a row, a quoted newline is not.

use protocol::ErrorCode;

use super::rows::Rows;
use crate::domain::imports::cells::{Cell, Refusal};

const BOM: &[u8] = b"\xEF\xBB\xBF";

pub(super) fn read(bytes: &[u8], rows: &mut Rows<'_>) -> Result<(), Refusal> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    // Checked whole up front (cheap at the size limit) so that a file is
    // refused for its encoding before any of its rows are handed out.
    if std::str::from_utf8(bytes).is_err() {
        return Err(Refusal::new(ErrorCode::ImportEncoding));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter(bytes))
        .from_reader(bytes);
    let mut record = csv::StringRecord::new();
    let mut next_row: u32 = 0;
    loop {
        let more = reader
            .read_record(&mut record)
            .map_err(|_| Refusal::new(ErrorCode::ImportUnreadable))?;
        if !more {
            return Ok(());
        }
        // A record's position is where the previous one ended: the empty
        // lines the reader skipped come first.
        let start = record
            .position()
            .and_then(|position| usize::try_from(position.byte()).ok())
            .unwrap_or(0);
        let skipped = empty_lines(bytes, start);
        let row = u32::try_from(skipped)
            .ok()
            .and_then(|skipped| next_row.checked_add(skipped))
            .ok_or_else(|| Refusal::new(ErrorCode::ImportUnreadable))?;
        next_row = row
            .checked_add(1)
            .ok_or_else(|| Refusal::new(ErrorCode::ImportUnreadable))?;
        let cells = record.iter().map(|field| Cell::Text(field.to_string()));
        rows.row(row, cells.collect())?;
    }
}

/// Line breaks (CRLF, LF or CR) from `start` up to the next record. The
/// reader stops between the CR and LF of a CRLF, so a leading LF whose CR
/// ended the previous record is no empty line.
fn empty_lines(bytes: &[u8], start: usize) -> usize {
    let after_cr = start > 0 && bytes.get(start - 1) == Some(&b'\r');
    let mut gap = bytes.get(start..).unwrap_or_default();
    if after_cr && gap.first() == Some(&b'\n') {
        gap = gap.get(1..).unwrap_or_default();
    }
    let gap_len = gap
        .iter()
        .take_while(|byte| matches!(byte, b'\r' | b'\n'))
        .count();
    let gap = gap.get(..gap_len).unwrap_or_default();
    let crlf = gap.windows(2).filter(|pair| pair == b"\r\n").count();
    gap.len() - crlf
}

/// Semicolon when the first line has more unquoted semicolons than commas.
fn delimiter(bytes: &[u8]) -> u8 {
    let (mut commas, mut semicolons, mut quoted) = (0usize, 0usize, false);
    for byte in bytes {
        match byte {
            b'"' => quoted = !quoted,
            b',' if !quoted => commas += 1,
            b';' if !quoted => semicolons += 1,
            b'\n' | b'\r' if !quoted => break,
            _ => {}
        }
    }
    if semicolons > commas { b';' } else { b',' }
}
