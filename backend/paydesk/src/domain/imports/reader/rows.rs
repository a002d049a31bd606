//! Turns cells, as each format yields them, into whole rows for the caller,
//! and enforces the row and column limits while doing so.

use protocol::{ErrorCode, IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS};

use crate::domain::imports::cells::{Cell, Refusal, SheetRow};

/// The rows of a worksheet in every format read here (Excel's own limit).
const SHEET_MAX_ROWS: u32 = 1_048_576;

pub(super) struct Rows<'a> {
    on_row: &'a mut dyn FnMut(SheetRow) -> Result<(), Refusal>,
    /// The 0-based index and cells of the row being assembled.
    current: Option<(u32, Vec<Cell>)>,
    emitted: u64,
}

impl<'a> Rows<'a> {
    pub(super) fn new(on_row: &'a mut dyn FnMut(SheetRow) -> Result<(), Refusal>) -> Rows<'a> {
        Rows {
            on_row,
            current: None,
            emitted: 0,
        }
    }

    /// Places one cell (0-based row and column). Cells must come in row
    /// order; within a row any order is fine.
    pub(super) fn cell(&mut self, row: u32, column: u32, cell: Cell) -> Result<(), Refusal> {
        // No spreadsheet program makes a row past its last one: such a file
        // was written by hand to get past a reader.
        if row >= SHEET_MAX_ROWS {
            return Err(Refusal::new(ErrorCode::ImportSheetTooLarge));
        }
        let current_row = self.current.as_ref().map(|(index, _)| *index);
        match current_row {
            Some(index) if row < index => return Err(Refusal::new(ErrorCode::ImportUnreadable)),
            Some(index) if row == index => {}
            _ => {
                self.flush()?;
                self.current = Some((row, Vec::new()));
            }
        }
        if cell.is_blank() {
            return Ok(());
        }
        if column >= IMPORT_MAX_COLUMNS {
            return Err(Refusal::new(ErrorCode::ImportTooManyColumns));
        }
        if let Some((_, cells)) = self.current.as_mut() {
            let column = column as usize;
            if cells.len() <= column {
                // Bounded: column < IMPORT_MAX_COLUMNS.
                cells.resize(column + 1, Cell::Empty);
            }
            cells[column] = cell;
        }
        Ok(())
    }

    /// Places a whole row of cells starting at column A.
    pub(super) fn row(&mut self, row: u32, cells: Vec<Cell>) -> Result<(), Refusal> {
        for (column, cell) in cells.into_iter().enumerate() {
            let column = u32::try_from(column).unwrap_or(u32::MAX);
            self.cell(row, column, cell)?;
        }
        // A row of no cells at all still moves the cursor, for ordering.
        self.cell(row, 0, Cell::Empty)
    }

    fn flush(&mut self) -> Result<(), Refusal> {
        let Some((index, mut cells)) = self.current.take() else {
            return Ok(());
        };
        while cells.last().is_some_and(Cell::is_blank) {
            cells.pop();
        }
        if cells.is_empty() {
            return Ok(());
        }
        self.emitted += 1;
        // The header plus IMPORT_MAX_ROWS rows; stop at the first one more,
        // without reading the rest of the file.
        if self.emitted > u64::from(IMPORT_MAX_ROWS) + 1 {
            return Err(Refusal::new(ErrorCode::ImportTooManyRows));
        }
        let number = index
            .checked_add(1)
            .ok_or_else(|| Refusal::new(ErrorCode::ImportUnreadable))?;
        (self.on_row)(SheetRow { number, cells })
    }

    pub(super) fn finish(mut self) -> Result<(), Refusal> {
        self.flush()?;
        if self.emitted == 0 {
            return Err(Refusal::new(ErrorCode::ImportEmpty));
        }
        Ok(())
    }
}
