//! What the readers hand the validator: one row at a time, each cell as the
//! spreadsheet typed it. Readers stream, so a 100,000-row file is never held
//! as cells all at once.

use protocol::ErrorCode;
use time::Date;

#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Empty,
    Text(String),
    /// A numeric cell: spreadsheets store `0181` typed as a number as 181.
    Number(f64),
    /// A native date cell.
    Date(Date),
    Bool(bool),
}

impl Cell {
    pub fn is_blank(&self) -> bool {
        match self {
            Cell::Empty => true,
            Cell::Text(text) => text.trim().is_empty(),
            _ => false,
        }
    }

    /// The cell as a person reads it: integers without `.0`, dates as
    /// `YYYY-MM-DD`, booleans as yes/no.
    pub fn display(&self) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(text) => text.clone(),
            Cell::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", *n as i64),
            Cell::Number(n) => format!("{n}"),
            Cell::Date(date) => crate::domain::calendar::iso_date(*date),
            Cell::Bool(true) => "yes".into(),
            Cell::Bool(false) => "no".into(),
        }
    }
}

/// One spreadsheet row: its number as the spreadsheet shows it (the first
/// row is 1) and its cells from column A on.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetRow {
    pub number: u32,
    pub cells: Vec<Cell>,
}

impl SheetRow {
    pub fn is_blank(&self) -> bool {
        self.cells.iter().all(Cell::is_blank)
    }

    pub fn cell(&self, index: usize) -> &Cell {
        self.cells.get(index).unwrap_or(&Cell::Empty)
    }
}

/// Why a whole file is refused; `column` names a missing template column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub column: Option<String>,
}

impl Refusal {
    pub fn new(code: ErrorCode) -> Refusal {
        Refusal { code, column: None }
    }

    pub fn column(code: ErrorCode, column: &str) -> Refusal {
        Refusal {
            code,
            column: Some(column.to_string()),
        }
    }
}
