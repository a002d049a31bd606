//! Test support: writes the same small table as a real file in every import
//! format, so the reader is tested against bytes it has never been told
//! about, plus raw builders for hostile files.
//!
//! - xlsx: `rust_xlsxwriter`.
//! - csv: by hand, the way Excel writes it in a semicolon locale (BOM,
//!   quotes around fields holding a delimiter, a quote or a newline).
//! - ods: a zip with `mimetype` stored first, `content.xml` and a manifest;
//!   identical neighbouring cells and rows are written once with
//!   `number-columns-repeated`/`number-rows-repeated`, and the sheet is
//!   padded to full height with an empty repeated row, as LibreOffice does.
//! - xlsb: no Rust writer exists, so BIFF12 records (MS-XLSB) are written
//!   here: workbook.bin with one BrtBundleSh, styles.bin with a date XF
//!   (number format 14), and a sheet of BrtRowHdr + BrtCellSt/Real/Bool.
//! - xls: likewise BIFF8 records (MS-XLS) in a `Workbook` stream of an OLE
//!   compound file made with the `cfb` crate: globals (BOF, CODEPAGE 1200,
//!   two XFs, BoundSheet8, EOF) then the sheet (BOF, DIMENSIONS, LABEL,
//!   NUMBER, BOOLERR, EOF).
//!
//! Self-contained (no `crate::` paths): the fuzz test includes this file too.

#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Empty,
    Text(String),
    Number(f64),
    Date(u16, u8, u8),
    Bool(bool),
}

/// Row `i` is spreadsheet row `i + 1`.
pub type Table = Vec<Vec<Value>>;

pub fn text(value: &str) -> Value {
    Value::Text(value.to_string())
}

/// A header, a row typed as spreadsheets type it (postal code 0181 stored as
/// the number 181, a branch code as a number, a native date), a blank row, a
/// row with delimiters, quotes and a newline inside a cell, the same row
/// again, and a row of equal neighbouring numbers.
pub fn sample() -> Table {
    use Value::*;
    let awkward = vec![
        text("CUST-002"),
        text("Pieter, \"Piet\"; Jr\nvan Wyk"),
        Empty,
        Number(51001.0),
        Number(99.99),
        Date(2026, 12, 31),
        Bool(false),
    ];
    vec![
        [
            "Customer reference",
            "Person name",
            "Postal code",
            "Bank branch code",
            "Amount",
            "Date to process",
            "Allow payment tracking",
        ]
        .iter()
        .map(|name| text(name))
        .collect(),
        vec![
            text("CUST-001"),
            text("Thandi"),
            Number(181.0),
            Number(250655.0),
            Number(1500.5),
            Date(2026, 3, 2),
            Bool(true),
        ],
        vec![],
        awkward.clone(),
        awkward,
        vec![
            text("CUST-003"),
            text("Sam"),
            Number(2000.0),
            Number(2000.0),
        ],
    ]
}

pub fn xlsx(table: &Table) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let date_format = rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd");
    for (row, cells) in table.iter().enumerate() {
        for (col, value) in cells.iter().enumerate() {
            let (row, col) = (row as u32, col as u16);
            match value {
                Value::Empty => {}
                Value::Text(text) => drop(sheet.write_string(row, col, text).unwrap()),
                Value::Number(n) => drop(sheet.write_number(row, col, *n).unwrap()),
                Value::Bool(b) => drop(sheet.write_boolean(row, col, *b).unwrap()),
                Value::Date(y, m, d) => {
                    let date = rust_xlsxwriter::ExcelDateTime::from_ymd(*y, *m, *d).unwrap();
                    sheet
                        .write_datetime_with_format(row, col, &date, &date_format)
                        .unwrap();
                }
            }
        }
    }
    book.save_to_buffer().unwrap()
}

/// Each cell as a person reads it: integers without `.0`, ISO dates, yes/no.
pub fn display(value: &Value) -> String {
    match value {
        Value::Empty => String::new(),
        Value::Text(text) => text.clone(),
        Value::Number(n) if n.fract() == 0.0 => format!("{}", *n as i64),
        Value::Number(n) => format!("{n}"),
        Value::Date(y, m, d) => format!("{y:04}-{m:02}-{d:02}"),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
    }
}

pub fn csv(table: &Table) -> Vec<u8> {
    let mut out = String::from("\u{FEFF}");
    for cells in table {
        let fields: Vec<String> = cells
            .iter()
            .map(|value| {
                let field = display(value);
                if field.contains([';', ',', '"', '\n']) {
                    format!("\"{}\"", field.replace('"', "\"\""))
                } else {
                    field
                }
            })
            .collect();
        out.push_str(&fields.join(";"));
        out.push_str("\r\n");
    }
    out.into_bytes()
}

/// A zip of (name, bytes, stored) parts, in order.
pub fn zip_parts(parts: &[(&str, &[u8], bool)]) -> Vec<u8> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes, stored) in parts {
        let method = if *stored {
            CompressionMethod::Stored
        } else {
            CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default().compression_method(method);
        zip.start_file(*name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

const ODS_MIME: &str = "application/vnd.oasis.opendocument.spreadsheet";

/// An ods whose first table's rows are the given `table:table-row` XML.
pub fn ods_with_rows(rows_xml: &str) -> Vec<u8> {
    let content = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <office:document-content \
         xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
         xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" \
         xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" \
         xmlns:calcext=\"urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0\" \
         office:version=\"1.3\"><office:body><office:spreadsheet>\
         <table:table table:name=\"Sheet1\">\
         <table:table-column table:number-columns-repeated=\"1024\"/>{rows_xml}</table:table>\
         </office:spreadsheet></office:body></office:document-content>"
    );
    let manifest = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" \
         manifest:version=\"1.3\">\
         <manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"{ODS_MIME}\"/>\
         <manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>\
         </manifest:manifest>"
    );
    zip_parts(&[
        ("mimetype", ODS_MIME.as_bytes(), true),
        ("content.xml", content.as_bytes(), false),
        ("META-INF/manifest.xml", manifest.as_bytes(), false),
    ])
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn ods_cell(value: &Value, repeat: usize) -> String {
    let repeat = if repeat > 1 {
        format!(" table:number-columns-repeated=\"{repeat}\"")
    } else {
        String::new()
    };
    let paragraphs = |shown: &str| {
        shown
            .split('\n')
            .map(|line| format!("<text:p>{}</text:p>", xml_escape(line)))
            .collect::<String>()
    };
    let (attributes, shown) = match value {
        Value::Empty => return format!("<table:table-cell{repeat}/>"),
        Value::Text(text) => (
            "office:value-type=\"string\" calcext:value-type=\"string\"".to_string(),
            text.clone(),
        ),
        Value::Number(n) => (
            format!("office:value-type=\"float\" office:value=\"{n}\""),
            display(value),
        ),
        Value::Date(..) => (
            format!(
                "office:value-type=\"date\" office:date-value=\"{}\"",
                display(value)
            ),
            display(value),
        ),
        Value::Bool(b) => (
            format!("office:value-type=\"boolean\" office:boolean-value=\"{b}\""),
            display(value).to_uppercase(),
        ),
    };
    format!(
        "<table:table-cell {attributes}{repeat}>{}</table:table-cell>",
        paragraphs(&shown)
    )
}

/// Run-length encodes equal neighbours, as LibreOffice does.
fn runs<T: PartialEq>(items: &[T]) -> Vec<(&T, usize)> {
    let mut out: Vec<(&T, usize)> = Vec::new();
    for item in items {
        match out.last_mut() {
            Some((last, count)) if *last == item => *count += 1,
            _ => out.push((item, 1)),
        }
    }
    out
}

pub fn ods(table: &Table) -> Vec<u8> {
    let mut rows = String::new();
    for (cells, repeat) in runs(table) {
        let repeat = if repeat > 1 {
            format!(" table:number-rows-repeated=\"{repeat}\"")
        } else {
            String::new()
        };
        rows.push_str(&format!("<table:table-row{repeat}>"));
        for (value, count) in runs(cells) {
            rows.push_str(&ods_cell(value, count));
        }
        let padding = 1024usize.saturating_sub(cells.len());
        rows.push_str(&format!(
            "<table:table-cell table:number-columns-repeated=\"{padding}\"/></table:table-row>"
        ));
    }
    // LibreOffice pads every sheet to its full height with one empty row.
    let filled: usize = table.len();
    rows.push_str(&format!(
        "<table:table-row table:number-rows-repeated=\"{}\">\
         <table:table-cell table:number-columns-repeated=\"1024\"/></table:table-row>",
        1_048_576 - filled
    ));
    ods_with_rows(&rows)
}

fn utf16(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// MS-XLSB 2.1.4: type and length as 7-bit little-endian varints.
pub fn biff12(kind: u16, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    if kind < 0x80 {
        out.push(kind as u8);
    } else {
        out.push((kind & 0x7F) as u8 | 0x80);
        out.push((kind >> 7) as u8);
    }
    let mut length = data.len();
    loop {
        let byte = (length & 0x7F) as u8;
        length >>= 7;
        if length == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    out.extend_from_slice(data);
    out
}

fn wide_string(text: &str) -> Vec<u8> {
    let mut out = (text.encode_utf16().count() as u32).to_le_bytes().to_vec();
    out.extend(utf16(text));
    out
}

/// An xlsb whose first sheet is the given worksheet part (BIFF12 records).
pub fn xlsb_with_sheet(sheet: &[u8]) -> Vec<u8> {
    let mut bundle = Vec::new();
    bundle.extend(0u32.to_le_bytes()); // visible
    bundle.extend(1u32.to_le_bytes()); // tab id
    bundle.extend(wide_string("rId1"));
    bundle.extend(wide_string("Sheet1"));
    let workbook = [
        biff12(0x0083, &[]),        // BrtBeginBook
        biff12(0x008F, &[]),        // BrtBeginBundleShs
        biff12(0x009C, &bundle),    // BrtBundleSh
        biff12(0x0090, &[]),        // BrtEndBundleShs
        biff12(0x009D, &[0u8; 26]), // BrtCalcProp
        biff12(0x0084, &[]),        // BrtEndBook
    ]
    .concat();
    let xf = |format: u16| {
        [
            &0xFFFFu16.to_le_bytes()[..],
            &format.to_le_bytes(),
            &[0u8; 12],
        ]
        .concat()
    };
    let styles = [
        biff12(0x0269, &2u32.to_le_bytes()), // BrtBeginCellXFs
        biff12(0x002F, &xf(0)),              // BrtXF: General
        biff12(0x002F, &xf(14)),             // BrtXF: a date
        biff12(0x026A, &[]),                 // BrtEndCellXFs
    ]
    .concat();
    let rels = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
        <Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
        <Relationship Id=\"rId1\" \
        Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" \
        Target=\"worksheets/sheet1.bin\"/></Relationships>";
    zip_parts(&[
        ("xl/workbook.bin", &workbook, false),
        ("xl/_rels/workbook.bin.rels", rels.as_bytes(), false),
        ("xl/styles.bin", &styles, false),
        ("xl/worksheets/sheet1.bin", sheet, false),
    ])
}

/// The worksheet records for a table: BrtWsDim, then rows of cells.
pub fn xlsb_sheet_records(table: &Table) -> Vec<u8> {
    let width = table.iter().map(Vec::len).max().unwrap_or(1).max(1) as u32;
    let dimensions = [0u32, table.len().max(1) as u32 - 1, 0, width - 1]
        .iter()
        .flat_map(|n| n.to_le_bytes())
        .collect::<Vec<u8>>();
    let mut sheet = [
        biff12(0x0081, &[]),         // BrtBeginSheet
        biff12(0x0094, &dimensions), // BrtWsDim
        biff12(0x0091, &[]),         // BrtBeginSheetData
    ]
    .concat();
    for (row, cells) in table.iter().enumerate() {
        let header = [
            &(row as u32).to_le_bytes()[..],
            &[0u8; 4],
            &300u16.to_le_bytes(),
            &[0u8; 7],
        ];
        sheet.extend(biff12(0x0000, &header.concat())); // BrtRowHdr
        for (col, value) in cells.iter().enumerate() {
            let cell = |style: u32, rest: &[u8]| {
                [&(col as u32).to_le_bytes()[..], &style.to_le_bytes(), rest].concat()
            };
            let record = match value {
                Value::Empty => continue,
                Value::Text(text) => biff12(0x0006, &cell(0, &wide_string(text))),
                Value::Number(n) => biff12(0x0005, &cell(0, &n.to_le_bytes())),
                Value::Bool(b) => biff12(0x0004, &cell(0, &[u8::from(*b)])),
                Value::Date(..) => biff12(0x0005, &cell(1, &excel_serial(value).to_le_bytes())),
            };
            sheet.extend(record);
        }
    }
    sheet.extend(biff12(0x0092, &[])); // BrtEndSheetData
    sheet.extend(biff12(0x0082, &[])); // BrtEndSheet
    sheet
}

pub fn xlsb(table: &Table) -> Vec<u8> {
    xlsb_with_sheet(&xlsb_sheet_records(table))
}

/// Days since 1899-12-30 (the 1900 date system, dates after February 1900).
fn excel_serial(value: &Value) -> f64 {
    let Value::Date(y, m, d) = value else {
        return 0.0;
    };
    let (y, m) = if *m <= 2 {
        (i64::from(*y) - 1, i64::from(*m) + 12)
    } else {
        (i64::from(*y), i64::from(*m))
    };
    // Days from 0000-03-01 (proleptic Gregorian), then shifted to the epoch.
    let days = 365 * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + i64::from(*d) - 1;
    let epoch = 365 * 1899 + 1899 / 4 - 1899 / 100 + 1899 / 400 + (153 * 9 + 2) / 5 + 29;
    (days - epoch) as f64
}

/// One BIFF8 record: u16 type, u16 length, data.
pub fn biff8(kind: u16, data: &[u8]) -> Vec<u8> {
    [
        &kind.to_le_bytes()[..],
        &(data.len() as u16).to_le_bytes(),
        data,
    ]
    .concat()
}

fn bof(sheet_type: u16) -> Vec<u8> {
    let data = [
        &0x0600u16.to_le_bytes()[..],
        &sheet_type.to_le_bytes(),
        &0x0DBBu16.to_le_bytes(),
        &0x07CCu16.to_le_bytes(),
        &[0u8; 4],
        &6u32.to_le_bytes(),
    ]
    .concat();
    biff8(0x0809, &data)
}

/// An xls workbook whose sheets hold the given records (between their BOF
/// and EOF), in a `Workbook` stream of an OLE compound file.
pub fn xls_with_sheets(sheets: &[Vec<u8>]) -> Vec<u8> {
    let xf = |format: u16| [&0u16.to_le_bytes()[..], &format.to_le_bytes(), &[0u8; 16]].concat();
    let mut globals = [
        bof(0x0005),
        biff8(0x0042, &1200u16.to_le_bytes()), // CODEPAGE: UTF-16
        biff8(0x00E0, &xf(0)),
        biff8(0x00E0, &xf(14)),
    ]
    .concat();
    let bound_sheet = |position: u32, index: usize| {
        let name = utf16(&format!("Sheet{}", index + 1));
        let count = (name.len() / 2) as u8;
        biff8(
            0x0085,
            &[&position.to_le_bytes()[..], &[0, 0, count, 1], &name].concat(),
        )
    };
    let bound_len: usize = (0..sheets.len()).map(|i| bound_sheet(0, i).len()).sum();
    let mut position = globals.len() + bound_len + biff8(0x000A, &[]).len();
    let mut bodies = Vec::new();
    for (index, records) in sheets.iter().enumerate() {
        globals.extend(bound_sheet(position as u32, index));
        let body = [bof(0x0010), records.clone(), biff8(0x000A, &[])].concat();
        position += body.len();
        bodies.extend(body);
    }
    globals.extend(biff8(0x000A, &[]));
    globals.extend(bodies);
    ole_workbook(&globals)
}

/// Wraps a workbook stream in an OLE compound file.
pub fn ole_workbook(stream: &[u8]) -> Vec<u8> {
    let cursor = Cursor::new(Vec::new());
    let mut file = cfb::CompoundFile::create_with_version(cfb::Version::V3, cursor).unwrap();
    let mut workbook = file.create_stream("/Workbook").unwrap();
    workbook.write_all(stream).unwrap();
    drop(workbook);
    file.flush().unwrap();
    file.into_inner().into_inner()
}

pub fn xls_dimensions(rows: u32, cols: u16) -> Vec<u8> {
    let data = [
        &0u32.to_le_bytes()[..],
        &rows.to_le_bytes(),
        &0u16.to_le_bytes(),
        &cols.to_le_bytes(),
        &[0, 0],
    ];
    biff8(0x0200, &data.concat())
}

pub fn xls_number(row: u16, col: u16, xf: u16, value: f64) -> Vec<u8> {
    let data = [
        &row.to_le_bytes()[..],
        &col.to_le_bytes(),
        &xf.to_le_bytes(),
        &value.to_le_bytes(),
    ];
    biff8(0x0203, &data.concat())
}

/// The sheet records for a table: DIMENSIONS, then LABEL/NUMBER/BOOLERR.
pub fn xls_sheet_records(table: &Table) -> Vec<u8> {
    let width = table.iter().map(Vec::len).max().unwrap_or(0);
    let mut records = xls_dimensions(table.len() as u32, width as u16);
    for (row, cells) in table.iter().enumerate() {
        for (col, value) in cells.iter().enumerate() {
            let at = [&(row as u16).to_le_bytes()[..], &(col as u16).to_le_bytes()].concat();
            records.extend(match value {
                Value::Empty => continue,
                Value::Text(text) => {
                    let count = text.encode_utf16().count() as u16;
                    let data = [&at[..], &[0, 0], &count.to_le_bytes(), &[1], &utf16(text)];
                    biff8(0x0204, &data.concat())
                }
                Value::Number(n) => xls_number(row as u16, col as u16, 0, *n),
                Value::Date(..) => xls_number(row as u16, col as u16, 1, excel_serial(value)),
                Value::Bool(b) => biff8(0x0205, &[&at[..], &[0, 0, u8::from(*b), 0]].concat()),
            });
        }
    }
    records
}

pub fn xls(table: &Table) -> Vec<u8> {
    xls_with_sheets(&[xls_sheet_records(table)])
}

/// Every format of the sample, by file name.
pub fn all_formats(table: &Table) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("sample.xlsx", xlsx(table)),
        ("sample.xlsm", xlsx(table)),
        ("sample.xlsb", xlsb(table)),
        ("sample.xls", xls(table)),
        ("sample.ods", ods(table)),
        ("sample.csv", csv(table)),
    ]
}
