//! Cells of the files a user downloads. A value the user (or a payer, or
//! an uploaded file) typed can start with `=`, `+`, `-` or `@`, or hide
//! one behind a tab or a line break: a spreadsheet program opening the
//! file would take it as a formula and run it (a link that sends the
//! sheet's data away, a command). Every download writes its cells through
//! here, so such a value is shown as the text it is.

use rust_xlsxwriter::{Format, Worksheet, XlsxError};

/// Whether a spreadsheet program would read `value` as a formula. A plain
/// number (`-12.50`) is not one: it stays a number.
pub fn starts_formula(value: &str) -> bool {
    let risky = value
        .chars()
        .next()
        .is_some_and(|first| matches!(first, '=' | '+' | '-' | '@' | '\t' | '\r' | '\n'));
    risky && !is_plain_number(value)
}

/// `-12`, `-12.50`, `-.5`: an optional minus, digits, at most one point.
fn is_plain_number(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    !(whole.is_empty() && fraction.is_empty()) && all_digits(whole) && all_digits(fraction)
}

/// A value for a CSV file: one that would start a formula gets an
/// apostrophe before it, which spreadsheet programs show as text.
pub fn csv_cell(value: &str) -> std::borrow::Cow<'_, str> {
    if starts_formula(value) {
        format!("'{value}").into()
    } else {
        value.into()
    }
}

/// Writes text cells of one look (`format`) into a worksheet: always as
/// text, never as a formula, and a value that would start a formula also
/// carries the quote prefix, so the program keeps it text when the cell is
/// edited too. The text itself is unchanged.
pub struct TextCells {
    plain: Format,
    quoted: Format,
}

impl TextCells {
    pub fn new(format: Format) -> TextCells {
        TextCells {
            quoted: format.clone().set_quote_prefix(),
            plain: format,
        }
    }

    pub fn write(
        &self,
        sheet: &mut Worksheet,
        row: u32,
        column: u16,
        value: &str,
    ) -> Result<(), XlsxError> {
        let format = if starts_formula(value) {
            &self.quoted
        } else {
            &self.plain
        };
        sheet.write_string_with_format(row, column, value, format)?;
        Ok(())
    }
}

impl Default for TextCells {
    fn default() -> TextCells {
        TextCells::new(Format::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_found_and_numbers_left_alone() {
        for value in [
            "=HYPERLINK(\"http://x\",\"y\")",
            "+1+1",
            "@SUM(A1)",
            "-2+3",
            "\t=1+1",
            "\r=1+1",
            "\n=1+1",
            "-",
            "-1-1",
            "-1.2.3",
            "+12",
        ] {
            assert!(starts_formula(value), "{value:?}");
        }
        for value in [
            "-12.50", "-12", "-.5", "12.50", "Thandi", "", " =1", "'=1", "O'Brien",
        ] {
            assert!(!starts_formula(value), "{value:?}");
        }
    }

    #[test]
    fn csv_cells_get_an_apostrophe_only_when_they_would_be_formulas() {
        assert_eq!(csv_cell("=1+1"), "'=1+1");
        assert_eq!(csv_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_cell("-12.50"), "-12.50");
        assert_eq!(csv_cell("Nkosi, T"), "Nkosi, T");
    }
}
