//! xls: the parser reads every sheet of the workbook when it opens it,
//! reserves room for each sheet's declared DIMENSIONS, and lays each sheet out
//! densely over the box its cells span. So before it runs, the BIFF records of
//! every sheet are walked here the same way it will walk them, and a workbook
//! whose declared or actual sheet sizes pass the cell budget is refused.

use std::io::{Cursor, Read};

use protocol::{ErrorCode, IMPORT_MAX_FILE_BYTES};

use crate::domain::imports::cells::Refusal;

const BOF: u16 = 0x0809;
const EOF: u16 = 0x000A;
const BOUND_SHEET: u16 = 0x0085;
const DIMENSIONS: u16 = 0x0200;
const MUL_RK: u16 = 0x00BD;
/// Records the parser turns into a cell at (row, column) from their first
/// four bytes: Number, Label, RString, BoolErr, Rk, LabelSst, Formula.
const CELL_RECORDS: [u16; 7] = [0x0203, 0x0204, 0x00D6, 0x0205, 0x027E, 0x00FD, 0x0006];

pub(super) fn check_xls(bytes: &[u8], budget: u64) -> Result<(), Refusal> {
    let unreadable = |_| Refusal::new(ErrorCode::ImportUnreadable);
    let mut file = cfb::CompoundFile::open(Cursor::new(bytes)).map_err(unreadable)?;
    let stream = if file.is_stream("/Workbook") {
        "/Workbook"
    } else {
        "/Book"
    };
    let mut workbook = Vec::new();
    file.open_stream(stream)
        .map_err(unreadable)?
        // A stream cannot be longer than the file that holds it.
        .take(u64::from(IMPORT_MAX_FILE_BYTES))
        .read_to_end(&mut workbook)
        .map_err(unreadable)?;
    check_biff(&workbook, budget)
}

/// Walks the globals for sheet positions, then each sheet from there.
pub(super) fn check_biff(stream: &[u8], budget: u64) -> Result<(), Refusal> {
    let mut sheets = Vec::new();
    for (kind, data) in Records::at(stream, 0) {
        match kind {
            BOUND_SHEET => {
                if let Some(position) = data.get(0..4) {
                    sheets.push(u32_at(position) as usize);
                }
            }
            EOF => break,
            _ => {}
        }
    }
    let (mut walked, mut cells) = (0usize, 0u64);
    for position in sheets {
        let sheet = scan_sheet(stream, position, budget)?;
        // Sheets are disjoint in any real workbook; overlapping ones would
        // make the parser walk the same bytes again and again.
        walked = walked.saturating_add(sheet.walked);
        if walked > stream.len() {
            return Err(Refusal::new(ErrorCode::ImportUnreadable));
        }
        // Every sheet stays in memory at once.
        cells = cells.saturating_add(sheet.cells);
        if cells > budget {
            return Err(Refusal::new(ErrorCode::ImportSheetTooLarge));
        }
    }
    Ok(())
}

struct SheetScan {
    walked: usize,
    cells: u64,
}

fn scan_sheet(stream: &[u8], position: usize, budget: u64) -> Result<SheetScan, Refusal> {
    let too_large = || Refusal::new(ErrorCode::ImportSheetTooLarge);
    let mut records = Records::at(stream, position);
    let mut span = Span::default();
    let (mut seen_bof, mut depth) = (false, 0usize);
    for (kind, data) in records.by_ref() {
        // Embedded charts carry cell-like records the parser skips.
        if depth > 0 {
            match kind {
                BOF => depth += 1,
                EOF => depth -= 1,
                _ => {}
            }
            continue;
        }
        match kind {
            BOF if seen_bof => depth += 1,
            BOF => seen_bof = true,
            EOF => break,
            DIMENSIONS if declared_cells(data).is_none_or(|cells| cells > budget) => {
                return Err(too_large());
            }
            MUL_RK if data.len() >= 6 => {
                let row = u16_at(data, 0);
                let (first, last) = (u16_at(data, 2), u16_at(data, data.len() - 2));
                span.add(row, first);
                if last >= first {
                    span.add(row, last);
                }
            }
            kind if CELL_RECORDS.contains(&kind) && data.len() >= 4 => {
                span.add(u16_at(data, 0), u16_at(data, 2));
            }
            _ => {}
        }
    }
    Ok(SheetScan {
        walked: records.offset.saturating_sub(position),
        cells: span.cells(),
    })
}

/// The cells a DIMENSIONS record makes the parser reserve, read as it reads
/// them; None when its arithmetic would underflow.
fn declared_cells(data: &[u8]) -> Option<u64> {
    let (first_row, last_row, mut first_col, last_col) = match data.len() {
        10 => (
            u32::from(u16_at(data, 0)),
            u32::from(u16_at(data, 2)),
            u32::from(u16_at(data, 4)),
            u32::from(u16_at(data, 6)),
        ),
        14 | 16 => (
            u32_at(data.get(0..4)?),
            u32_at(data.get(4..8)?),
            u32::from(u16_at(data, 8)),
            u32::from(u16_at(data, 10)),
        ),
        // The parser refuses the file.
        _ => return Some(0),
    };
    if first_col > 0xFF || last_col < first_col {
        first_col = 0;
    }
    if last_row < 1 || last_col < 1 {
        return Some(1);
    }
    let rows = (last_row - 1).checked_sub(first_row)?;
    let cols = (last_col - 1).checked_sub(first_col)?;
    Some((u64::from(rows) + 1) * (u64::from(cols) + 1))
}

/// The box the cells of a sheet span.
#[derive(Default)]
struct Span {
    rows: Option<(u16, u16)>,
    cols: Option<(u16, u16)>,
}

impl Span {
    fn add(&mut self, row: u16, col: u16) {
        let widen = |range: Option<(u16, u16)>, at: u16| match range {
            Some((low, high)) => Some((low.min(at), high.max(at))),
            None => Some((at, at)),
        };
        self.rows = widen(self.rows, row);
        self.cols = widen(self.cols, col);
    }

    fn cells(&self) -> u64 {
        match (self.rows, self.cols) {
            (Some((r0, r1)), Some((c0, c1))) => (u64::from(r1 - r0) + 1) * (u64::from(c1 - c0) + 1),
            _ => 0,
        }
    }
}

/// BIFF records (u16 type, u16 length, data), framed as the parser frames
/// them; stops at the first record that does not fit.
struct Records<'a> {
    stream: &'a [u8],
    offset: usize,
}

impl<'a> Records<'a> {
    fn at(stream: &'a [u8], offset: usize) -> Records<'a> {
        Records { stream, offset }
    }
}

impl<'a> Iterator for Records<'a> {
    type Item = (u16, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let header = self.stream.get(self.offset..self.offset.checked_add(4)?)?;
        let kind = u16_at(header, 0);
        let length = usize::from(u16_at(header, 2));
        let start = self.offset + 4;
        let data = self.stream.get(start..start + length)?;
        self.offset = start + length;
        Some((kind, data))
    }
}

fn u16_at(data: &[u8], at: usize) -> u16 {
    match data.get(at..at + 2) {
        Some(&[low, high]) => u16::from_le_bytes([low, high]),
        _ => 0,
    }
}

fn u32_at(data: &[u8]) -> u32 {
    match data.get(0..4) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}
