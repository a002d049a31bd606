#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Cursor, Read, Write};

use protocol::{ErrorCode, IMPORT_MAX_FILE_BYTES, IMPORT_MAX_ROWS};
use time::{Date, Month};

use super::fixtures::{self, Table, Value};
use super::guard::{ZipLimits, check_zip};
use super::{Format, detect_format, read_rows};
use crate::domain::imports::cells::{Cell, Refusal, SheetRow};

fn read(name: &str, bytes: &[u8]) -> Result<Vec<SheetRow>, Refusal> {
    let mut rows = Vec::new();
    read_rows(name, bytes, &mut |row| {
        rows.push(row);
        Ok(())
    })?;
    Ok(rows)
}

fn code(name: &str, bytes: &[u8]) -> ErrorCode {
    read(name, bytes).expect_err(name).code
}

fn cell(value: &Value) -> Cell {
    match value {
        Value::Empty => Cell::Empty,
        Value::Text(text) => Cell::Text(text.clone()),
        Value::Number(n) => Cell::Number(*n),
        Value::Bool(b) => Cell::Bool(*b),
        Value::Date(y, m, d) => Cell::Date(
            Date::from_calendar_date(i32::from(*y), Month::try_from(*m).unwrap(), *d).unwrap(),
        ),
    }
}

/// The rows a reader must yield for a table: blank rows skipped, true
/// row numbers kept.
fn expected(table: &Table, as_cell: impl Fn(&Value) -> Cell) -> Vec<SheetRow> {
    table
        .iter()
        .enumerate()
        .filter(|(_, cells)| cells.iter().any(|value| *value != Value::Empty))
        .map(|(index, cells)| SheetRow {
            number: index as u32 + 1,
            cells: cells.iter().map(&as_cell).collect(),
        })
        .collect()
}

#[test]
fn every_format_reads_the_sample_with_its_types_and_row_numbers() {
    let table = fixtures::sample();
    for (name, bytes) in fixtures::all_formats(&table) {
        let rows = read(name, &bytes).unwrap_or_else(|refusal| panic!("{name}: {refusal:?}"));
        let numbers: Vec<u32> = rows.iter().map(|row| row.number).collect();
        assert_eq!(numbers, [1, 2, 4, 5, 6], "{name}");
        let want = if name.ends_with(".csv") {
            // Every csv cell is text; blank cells are empty in every format.
            expected(&table, |value| match value {
                Value::Empty => Cell::Empty,
                value => Cell::Text(fixtures::display(value)),
            })
        } else {
            expected(&table, cell)
        };
        assert_eq!(rows, want, "{name}");
    }
}

#[test]
fn the_sample_reads_as_typed() {
    let rows = read("sample.xlsx", &fixtures::xlsx(&fixtures::sample())).unwrap();
    let row = &rows[1];
    assert_eq!(
        row.cell(2),
        &Cell::Number(181.0),
        "postal code 0181 as a number"
    );
    assert_eq!(
        row.cell(3),
        &Cell::Number(250655.0),
        "branch code as a number"
    );
    assert_eq!(
        row.cell(5),
        &Cell::Date(time::macros::date!(2026 - 03 - 02))
    );
    assert_eq!(row.cell(6), &Cell::Bool(true));
    assert_eq!(
        rows[2].cell(1),
        &Cell::Text("Pieter, \"Piet\"; Jr\nvan Wyk".into())
    );
    assert_eq!(rows[2].cell(2), &Cell::Empty);
}

#[test]
fn every_format_yields_the_same_rows() {
    let shown = |rows: Vec<SheetRow>| -> Vec<(u32, Vec<String>)> {
        rows.into_iter()
            .map(|row| (row.number, row.cells.iter().map(Cell::display).collect()))
            .collect()
    };
    let formats = fixtures::all_formats(&fixtures::sample());
    let reference = shown(read("sample.xlsx", &formats[0].1).unwrap());
    for (name, bytes) in &formats {
        assert_eq!(shown(read(name, bytes).unwrap()), reference, "{name}");
    }
}

#[test]
fn formats_are_told_by_extension_and_confirmed_by_magic() {
    let xlsx = fixtures::xlsx(&fixtures::sample());
    let xls = fixtures::xls(&fixtures::sample());
    assert_eq!(detect_format("Book1.XLSX", &xlsx), Ok(Format::Xlsx));
    assert_eq!(detect_format("a.b.Xlsm", &xlsx), Ok(Format::Xlsm));
    assert_eq!(detect_format("old.xls", &xls), Ok(Format::Xls));
    assert_eq!(detect_format("x.csv", b"a;b"), Ok(Format::Csv));
    let refused = |name: &str, bytes: &[u8]| detect_format(name, bytes).unwrap_err().code;
    assert_eq!(refused("x.pdf", &xlsx), ErrorCode::ImportUnsupportedFormat);
    assert_eq!(refused("xlsx", &xlsx), ErrorCode::ImportUnsupportedFormat);
    assert_eq!(refused("x.xls", &xlsx), ErrorCode::ImportUnreadable);
    assert_eq!(refused("x.ods", &xls), ErrorCode::ImportUnreadable);
}

#[test]
fn csv_takes_commas_too_and_counts_blank_lines_as_rows() {
    let rows = read("x.csv", b"\r\nname,\"a;b\",c\n\nx,\"1\n2\",3\n").unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].number, rows[0].cells.len()), (2, 3));
    assert_eq!(rows[0].cell(1), &Cell::Text("a;b".into()));
    assert_eq!(
        (rows[1].number, rows[1].cell(1)),
        (4, &Cell::Text("1\n2".into()))
    );
}

#[test]
fn a_callback_error_stops_the_read() {
    let bytes = fixtures::xlsx(&fixtures::sample());
    let mut seen = 0;
    let result = read_rows("x.xlsx", &bytes, &mut |_| {
        seen += 1;
        Err(Refusal::column(ErrorCode::ImportMissingColumn, "Email"))
    });
    assert_eq!(
        result,
        Err(Refusal::column(ErrorCode::ImportMissingColumn, "Email"))
    );
    assert_eq!(seen, 1);
}

#[test]
fn empty_files_are_refused() {
    assert_eq!(code("x.xlsx", b""), ErrorCode::ImportEmpty);
    assert_eq!(
        code("x.csv", b"\xEF\xBB\xBF;;\r\n \r\n"),
        ErrorCode::ImportEmpty
    );
    assert_eq!(
        code("x.xlsx", &fixtures::xlsx(&vec![])),
        ErrorCode::ImportEmpty
    );
    assert_eq!(
        code("x.ods", &fixtures::ods(&vec![vec![], vec![]])),
        ErrorCode::ImportEmpty
    );
}

#[test]
fn an_oversized_file_is_refused_before_it_is_read() {
    let bytes = vec![b'a'; IMPORT_MAX_FILE_BYTES as usize + 1];
    assert_eq!(code("x.csv", &bytes), ErrorCode::ImportTooLarge);
}

#[test]
fn too_many_rows_stop_the_read_at_the_first_extra_row() {
    let limit = IMPORT_MAX_ROWS as usize + 1;
    let csv = "a\n".repeat(limit + 5);
    let mut seen = 0usize;
    let result = read_rows("x.csv", csv.as_bytes(), &mut |_| {
        seen += 1;
        Ok(())
    });
    assert_eq!(result.unwrap_err().code, ErrorCode::ImportTooManyRows);
    assert_eq!(seen, limit);
    // The same through a repeated ods row (cheap to write, real to read).
    let rows = format!(
        "<table:table-row table:number-rows-repeated=\"{}\"><table:table-cell \
         office:value-type=\"string\"><text:p>a</text:p></table:table-cell></table:table-row>",
        limit + 1
    );
    assert_eq!(
        code("x.ods", &fixtures::ods_with_rows(&rows)),
        ErrorCode::ImportTooManyRows
    );
    // Exactly at the limit passes.
    assert_eq!(
        read("x.csv", "a\n".repeat(limit).as_bytes()).unwrap().len(),
        limit
    );
}

#[test]
fn a_cell_past_the_last_column_is_refused() {
    let wide = format!("{}x\n", "a;".repeat(64));
    assert_eq!(
        code("x.csv", wide.as_bytes()),
        ErrorCode::ImportTooManyColumns
    );
    // Empty trailing cells are fine.
    assert!(read("x.csv", format!("a{}\n", ";".repeat(200)).as_bytes()).is_ok());
    let mut table: Table = vec![vec![Value::Empty; 65]];
    table[0][0] = fixtures::text("a");
    table[0][64] = fixtures::text("b");
    for (name, bytes) in fixtures::all_formats(&table) {
        assert_eq!(
            code(name, &bytes),
            ErrorCode::ImportTooManyColumns,
            "{name}"
        );
    }
}

/// An xlsx with cells at A1 and XFD1048576: streamed, never laid out densely.
fn xlsx_with_corner_cell(corner: impl FnOnce(&mut rust_xlsxwriter::Worksheet)) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Customer reference").unwrap();
    corner(sheet);
    book.save_to_buffer().unwrap()
}

#[test]
fn a_cell_at_the_far_corner_is_cheap() {
    let filled = xlsx_with_corner_cell(|sheet| drop(sheet.write_number(1_048_575, 16_383, 1.0)));
    assert_eq!(code("x.xlsx", &filled), ErrorCode::ImportTooManyColumns);
    // A formatted but empty corner cell is no content at all.
    let format = rust_xlsxwriter::Format::new().set_bold();
    let blank = xlsx_with_corner_cell(|sheet| drop(sheet.write_blank(1_048_575, 16_383, &format)));
    let rows = read("x.xlsx", &blank).unwrap();
    assert_eq!(rows.len(), 1);
    // In a sheet read whole, the same corner is refused before layout.
    let corner = fixtures::ods_with_rows(
        "<table:table-row><table:table-cell office:value-type=\"float\" office:value=\"1\"/>\
         </table:table-row><table:table-row table:number-rows-repeated=\"1048574\">\
         <table:table-cell/></table:table-row><table:table-row>\
         <table:table-cell table:number-columns-repeated=\"16383\"/>\
         <table:table-cell office:value-type=\"float\" office:value=\"1\"/></table:table-row>",
    );
    assert_eq!(code("x.ods", &corner), ErrorCode::ImportSheetTooLarge);
}

#[test]
fn an_xls_declaring_a_huge_sheet_is_refused() {
    let huge = [
        fixtures::xls_dimensions(1_048_576, 256),
        fixtures::xls_number(0, 0, 0, 1.0),
    ];
    let file = fixtures::xls_with_sheets(&[huge.concat()]);
    assert_eq!(code("x.xls", &file), ErrorCode::ImportSheetTooLarge);
    // Cells at A1 and IV65536 under a modest declaration.
    let spread = [
        fixtures::xls_dimensions(1, 1),
        fixtures::xls_number(0, 0, 0, 1.0),
        fixtures::xls_number(65_535, 255, 0, 1.0),
    ];
    let file = fixtures::xls_with_sheets(&[spread.concat()]);
    assert_eq!(code("x.xls", &file), ErrorCode::ImportSheetTooLarge);
    // A declaration whose last row is before its first (rows 5..3).
    let inverted = [
        &5u32.to_le_bytes()[..],
        &3u32.to_le_bytes(),
        &[0, 0, 1, 0, 0, 0],
    ]
    .concat();
    let records = [
        fixtures::biff8(0x0200, &inverted),
        fixtures::xls_number(0, 0, 0, 1.0),
    ];
    let file = fixtures::xls_with_sheets(&[records.concat()]);
    assert_eq!(code("x.xls", &file), ErrorCode::ImportSheetTooLarge);
    // Many sheets, each within budget, that together are not.
    let big = [
        fixtures::xls_number(0, 0, 0, 1.0),
        fixtures::xls_number(65_535, 150, 0, 1.0),
    ]
    .concat();
    let file = fixtures::xls_with_sheets(&[big.clone(), big.clone(), big]);
    assert_eq!(code("x.xls", &file), ErrorCode::ImportSheetTooLarge);
}

#[test]
fn an_ods_with_a_huge_repeated_content_cell_is_refused() {
    let rows = "<table:table-row table:number-rows-repeated=\"1000000\">\
        <table:table-cell office:value-type=\"float\" office:value=\"1\" \
        table:number-columns-repeated=\"16384\"/></table:table-row>";
    assert_eq!(
        code("x.ods", &fixtures::ods_with_rows(rows)),
        ErrorCode::ImportSheetTooLarge
    );
    // Text content without a value type counts too.
    let rows = "<table:table-row table:number-rows-repeated=\"1000000\">\
        <table:table-cell table:number-columns-repeated=\"64\"><text:p>x</text:p>\
        </table:table-cell></table:table-row>";
    assert_eq!(
        code("x.ods", &fixtures::ods_with_rows(rows)),
        ErrorCode::ImportSheetTooLarge
    );
}

/// An xlsx-looking zip whose sheet inflates to `mib` MiB of zeros, written
/// in a stream so the test never holds the inflated bytes.
fn zip_bomb(mib: usize) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    zip.start_file("xl/worksheets/sheet1.xml", options).unwrap();
    let chunk = vec![0u8; 1024 * 1024];
    for _ in 0..mib {
        zip.write_all(&chunk).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn a_zip_bomb_is_refused_without_inflating_it() {
    let bomb = zip_bomb(600);
    assert!(bomb.len() < 2 * 1024 * 1024, "the bomb itself stays small");
    for name in ["x.xlsx", "x.xlsm", "x.xlsb", "x.ods"] {
        assert_eq!(code(name, &bomb), ErrorCode::ImportSheetTooLarge, "{name}");
    }
    // The total cap, shown with small limits on a real file.
    let sample = fixtures::xlsx(&fixtures::sample());
    let tight = ZipLimits {
        total: 4 * 1024,
        ratio: 250,
        ratio_after: 1024 * 1024,
    };
    assert_eq!(
        check_zip(&sample, &tight, false).unwrap_err().code,
        ErrorCode::ImportSheetTooLarge
    );
    let ratio = ZipLimits {
        total: u64::MAX,
        ratio: 2,
        ratio_after: 512,
    };
    assert_eq!(
        check_zip(&sample, &ratio, false).unwrap_err().code,
        ErrorCode::ImportSheetTooLarge
    );
}

#[test]
fn broken_archives_and_random_bytes_are_unreadable() {
    let table = fixtures::sample();
    for (name, bytes) in fixtures::all_formats(&table) {
        if name.ends_with(".csv") {
            continue;
        }
        let truncated = &bytes[..bytes.len() / 2];
        assert_eq!(
            code(name, truncated),
            ErrorCode::ImportUnreadable,
            "{name} truncated"
        );
    }
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let random: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    for (name, magic) in [
        ("x.xlsx", &b"PK\x03\x04"[..]),
        ("x.xlsm", b"PK\x03\x04"),
        ("x.xlsb", b"PK\x03\x04"),
        ("x.ods", b"PK\x03\x04"),
        ("x.xls", &[0xD0, 0xCF, 0x11, 0xE0][..]),
    ] {
        assert_eq!(code(name, &random), ErrorCode::ImportUnreadable, "{name}");
        let disguised = [magic, &random[..]].concat();
        assert_eq!(
            code(name, &disguised),
            ErrorCode::ImportUnreadable,
            "{name} with magic"
        );
    }
    assert_eq!(code("x.csv", &random), ErrorCode::ImportEncoding);
}

#[test]
fn csv_that_is_not_utf8_is_refused() {
    let latin1 = b"Person name;Town/City\r\nJos\xe9;M\xfcller\r\n";
    assert_eq!(code("x.csv", latin1), ErrorCode::ImportEncoding);
}

/// Replaces one part of a zip, keeping the others.
fn replace_part(bytes: &[u8], name: &str, content: &[u8]) -> Vec<u8> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut parts = Vec::new();
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).unwrap();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        let entry_name = entry.name().unwrap().to_string();
        parts.push((
            entry_name.clone(),
            if entry_name == name {
                content.to_vec()
            } else {
                data
            },
        ));
    }
    let parts: Vec<(&str, &[u8], bool)> = parts
        .iter()
        .map(|(name, data)| (name.as_str(), &data[..], false))
        .collect();
    fixtures::zip_parts(&parts)
}

#[test]
fn cells_out_of_row_order_are_unreadable() {
    let sheet = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
        <worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>\
        <row r=\"2\"><c r=\"A2\" t=\"inlineStr\"><is><t>b</t></is></c></row>\
        <row r=\"1\"><c r=\"A1\" t=\"inlineStr\"><is><t>a</t></is></c></row>\
        </sheetData></worksheet>";
    let xlsx = fixtures::xlsx(&vec![vec![fixtures::text("a")]]);
    let shuffled = replace_part(&xlsx, "xl/worksheets/sheet1.xml", sheet.as_bytes());
    assert_eq!(code("x.xlsx", &shuffled), ErrorCode::ImportUnreadable);
}

#[test]
fn an_xlsb_record_longer_than_its_part_is_refused_before_it_is_allocated() {
    let mut sheet = fixtures::xlsb_sheet_records(&vec![vec![fixtures::text("a")]]);
    // A BrtCellReal claiming 200 MiB, then the part ends.
    sheet.extend([0x05, 0x80, 0x80, 0x80, 0x64]);
    assert_eq!(
        code("x.xlsb", &fixtures::xlsb_with_sheet(&sheet)),
        ErrorCode::ImportUnreadable
    );
}

/// An ods whose content.xml is exactly the given text.
fn ods_with_content(content: &str) -> Vec<u8> {
    let mime = b"application/vnd.oasis.opendocument.spreadsheet";
    fixtures::zip_parts(&[
        ("mimetype", mime, true),
        ("content.xml", content.as_bytes(), false),
    ])
}

#[test]
fn an_ods_table_or_note_that_never_ends_is_refused_rather_than_read_for_ever() {
    let start = "<office:document-content><office:body><office:spreadsheet>\
        <table:table table:name=\"S\"><table:table-row>";
    let unended_table = format!(
        "{start}<table:table-cell office:value-type=\"float\" office:value=\"1\"/></table:table-row>"
    );
    assert_eq!(
        code("x.ods", &ods_with_content(&unended_table)),
        ErrorCode::ImportUnreadable
    );
    let unended_note = format!(
        "{start}<table:table-cell office:value-type=\"string\"><office:annotation><text:p>n\
         </text:p></table:table-cell></table:table-row></table:table>"
    );
    assert_eq!(
        code("x.ods", &ods_with_content(&unended_note)),
        ErrorCode::ImportUnreadable
    );
}
