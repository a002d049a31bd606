//! ods: the parser expands `table:number-rows-repeated` and
//! `table:number-columns-repeated` into real cells for every table when it
//! opens the file, so a few bytes can ask for a hundred million cells. Before
//! it runs, `content.xml` is streamed here and the box spanned by cells that
//! hold content (with repeats applied) is measured per table; the workbook is
//! refused when those boxes together pass the cell budget. Repeated empty
//! cells and rows cost nothing, which is how LibreOffice pads every sheet to
//! its full height.

use std::io::{BufReader, Cursor};

use protocol::ErrorCode;
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use zip::ZipArchive;

use crate::domain::imports::cells::Refusal;

/// Attributes that give a cell a value (or a formula) in the parser's eyes.
const CONTENT_ATTRIBUTES: [&str; 9] = [
    "office:value-type",
    "calcext:value-type",
    "office:value",
    "office:string-value",
    "office:date-value",
    "office:time-value",
    "office:boolean-value",
    "table:formula",
    "office:currency",
];

pub(super) fn check_ods(bytes: &[u8], budget: u64) -> Result<(), Refusal> {
    let unreadable = |_| Refusal::new(ErrorCode::ImportUnreadable);
    let unreadable_xml = |_| Refusal::new(ErrorCode::ImportUnreadable);
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(unreadable)?;
    let content = archive.by_name("content.xml").map_err(unreadable)?;
    let mut reader = Reader::from_reader(BufReader::new(content));
    let config = reader.config_mut();
    config.expand_empty_elements = true;
    config.check_end_names = false;
    let mut scan = Scan::default();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_event_into(&mut buf).map_err(unreadable_xml)? {
            Event::Start(element) => scan.start(&element)?,
            Event::End(element) => scan.end(element.name().as_ref()),
            Event::Text(text) if !text.trim().is_empty() => scan.text(),
            Event::CData(_) | Event::GeneralRef(_) => scan.text(),
            // The parser loops for ever on a table or a note that never
            // ends (it waits for the end tag and ignores the end of file).
            Event::Eof if scan.table_open || scan.annotation_open => {
                return Err(Refusal::new(ErrorCode::ImportUnreadable));
            }
            Event::Eof => break,
            _ => {}
        }
        if scan.cells() > budget {
            return Err(Refusal::new(ErrorCode::ImportSheetTooLarge));
        }
    }
    Ok(())
}

/// Nesting (a table inside a cell) is flattened on purpose: every row and
/// cell counts where it appears, which can only overstate a sheet's size.
#[derive(Default)]
struct Scan {
    /// Whether the last table (or note) that started has not ended yet.
    table_open: bool,
    annotation_open: bool,
    /// Cells of the tables already closed.
    closed: u64,
    table_depth: u32,
    /// Row index where the next top-level row starts.
    next_row: u64,
    row_depth: u32,
    row_repeat: u64,
    column: u64,
    /// Last column of the most recent cell, for text content after it.
    last_cell: Option<u64>,
    row_max_column: Option<u64>,
    table_max: Option<(u64, u64)>,
}

impl Scan {
    fn start(&mut self, element: &BytesStart<'_>) -> Result<(), Refusal> {
        match element.name().as_ref() {
            "office:annotation" => self.annotation_open = true,
            "table:table" => {
                self.table_open = true;
                if self.table_depth == 0 {
                    self.next_row = 0;
                    self.table_max = None;
                }
                self.table_depth += 1;
            }
            "table:table-row" if self.table_depth > 0 => {
                if self.row_depth == 0 {
                    self.row_repeat = repeat(element, "table:number-rows-repeated")?;
                    self.column = 0;
                    self.last_cell = None;
                    self.row_max_column = None;
                }
                self.row_depth += 1;
            }
            "table:table-cell" | "table:covered-table-cell" if self.row_depth > 0 => {
                let repeat = repeat(element, "table:number-columns-repeated")?;
                let first = self.column;
                self.column = first.saturating_add(repeat);
                self.last_cell = (repeat > 0).then(|| first + repeat - 1);
                let has_content = element
                    .attributes()
                    .with_checks(false)
                    .flatten()
                    .any(|attribute| CONTENT_ATTRIBUTES.contains(&attribute.key.as_ref()));
                if has_content {
                    self.text();
                }
            }
            // Paragraphs and spans inside a cell are its content.
            name if self.row_depth > 0 && name.starts_with("text:") => self.text(),
            _ => {}
        }
        Ok(())
    }

    fn end(&mut self, name: &str) {
        match name {
            "office:annotation" => self.annotation_open = false,
            "table:table" => self.table_open = false,
            _ => {}
        }
        match name {
            "table:table-row" if self.row_depth > 0 => {
                self.row_depth -= 1;
                if self.row_depth > 0 {
                    return;
                }
                if let Some(column) = self.row_max_column {
                    let last_row = self.next_row.saturating_add(self.row_repeat.max(1) - 1);
                    let (rows, columns) = self.table_max.unwrap_or((0, 0));
                    self.table_max = Some((rows.max(last_row), columns.max(column)));
                }
                self.next_row = self.next_row.saturating_add(self.row_repeat);
            }
            "table:table" if self.table_depth > 0 => {
                self.table_depth -= 1;
                if self.table_depth == 0 {
                    self.closed = self.cells();
                    self.table_max = None;
                }
            }
            _ => {}
        }
    }

    /// The most recent cell holds content.
    fn text(&mut self) {
        if let Some(last) = self.last_cell {
            self.row_max_column = Some(self.row_max_column.map_or(last, |max| max.max(last)));
        }
    }

    /// Cells of the closed tables plus the open one so far.
    fn cells(&self) -> u64 {
        let open = self.table_max.map_or(0, |(rows, columns)| {
            rows.saturating_add(1)
                .saturating_mul(columns.saturating_add(1))
        });
        self.closed.saturating_add(open)
    }
}

fn repeat(element: &BytesStart<'_>, name: &str) -> Result<u64, Refusal> {
    let attribute = element
        .attributes()
        .with_checks(false)
        .flatten()
        .find(|attribute| attribute.key.as_ref() == name);
    match attribute {
        None => Ok(1),
        Some(attribute) => attribute
            .value
            .trim()
            .parse::<u64>()
            .ok()
            .ok_or_else(|| Refusal::new(ErrorCode::ImportUnreadable)),
    }
}
