//! `backend import check` as a script sees it: the built binary run on a
//! file, its standard output parsed as the JSON it promises, its exit code
//! read. Logs (the spreadsheet reader's warnings among them) go to standard
//! error and never into that JSON.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use zip::write::SimpleFileOptions;

const HEADER: [&str; 13] = [
    "Customer reference",
    "Person name",
    "Person surname",
    "Email",
    "Bank account holder name",
    "Bank account number",
    "Bank account type",
    "Bank name",
    "Bank branch code *",
    "Amount",
    "Date to process",
    "Type of payment",
    "Set the payment status to running?",
];

const ROW: [&str; 13] = [
    "CUST-1",
    "Thandi",
    "Mokoena",
    "t@example.co.za",
    "T Mokoena",
    "4000000001",
    "Current",
    "Absa",
    "632005",
    "120.00",
    "2026-03-10",
    "Subscription",
    "no",
];

/// One worksheet row of inline text cells.
fn row_xml(number: u32, values: &[&str]) -> String {
    let cells: String = values
        .iter()
        .enumerate()
        .map(|(column, value)| {
            let letter = char::from(b'A' + column as u8);
            format!("<c r=\"{letter}{number}\" t=\"inlineStr\"><is><t>{value}</t></is></c>")
        })
        .collect();
    format!("<row r=\"{number}\">{cells}</row>")
}

/// An xlsx written by hand, as no spreadsheet program would: its sheet
/// claims rows up to `last_row` and has a row there, past Excel's last
/// one (1,048,576).
fn xlsx_with_a_row_at(last_row: u32) -> Vec<u8> {
    let sheet = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">\
         <dimension ref=\"A1:M{last_row}\"/><sheetData>{}{}{}</sheetData></worksheet>",
        row_xml(1, &HEADER),
        row_xml(2, &ROW),
        row_xml(last_row, &ROW),
    );
    let parts: [(&str, String); 5] = [
        (
            "[Content_Types].xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
             <Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">\
             <Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>\
             <Default Extension=\"xml\" ContentType=\"application/xml\"/>\
             <Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>\
             <Override PartName=\"/xl/worksheets/sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>\
             </Types>"
                .into(),
        ),
        (
            "_rels/.rels",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
             <Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
             <Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/>\
             </Relationships>"
                .into(),
        ),
        (
            "xl/workbook.xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
             <workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" \
             xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">\
             <sheets><sheet name=\"Payments\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
                .into(),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
             <Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
             <Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet1.xml\"/>\
             </Relationships>"
                .into(),
        ),
        ("xl/worksheets/sheet1.xml", sheet),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in parts {
        zip.start_file(name, SimpleFileOptions::default()).unwrap();
        zip.write_all(text.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Runs `backend import check` on `bytes` saved as `file_name`, with the
/// default logging (no RUST_LOG), as an operator would.
fn check(file_name: &str, bytes: &[u8]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file_name);
    std::fs::write(&path, bytes).unwrap();
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .args([
            "import",
            "check",
            "--template",
            "eft_debit_order",
            "--kind",
            "once",
        ])
        .args(["--business-date", "2026-03-02"])
        .arg(&path)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("run the backend binary")
}

/// Standard output as the one JSON document it must be.
fn report(output: &Output) -> serde_json::Value {
    let stdout = String::from_utf8(output.stdout.clone()).unwrap();
    serde_json::from_str(&stdout).unwrap_or_else(|err| {
        panic!(
            "standard output is not JSON ({err}):\n{stdout}\nstandard error:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn a_sheet_with_rows_past_the_last_row_is_refused_with_json_alone() {
    let output = check("past-the-end.xlsx", &xlsx_with_a_row_at(1_048_580));
    let report = report(&output);
    assert_eq!(report["error"]["code"], "import_sheet_too_large");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn every_refused_file_prints_its_json_error_and_exits_2() {
    let refused: [(&str, &[u8], &str); 3] = [
        ("payments.txt", b"hello", "import_unsupported_format"),
        ("payments.xlsx", b"not a zip at all", "import_unreadable"),
        ("payments.csv", b"", "import_empty"),
    ];
    for (name, bytes, code) in refused {
        let output = check(name, bytes);
        assert_eq!(report(&output)["error"]["code"], code, "{name}");
        assert_eq!(output.status.code(), Some(2), "{name}");
    }
}

#[test]
fn a_file_read_whole_prints_its_json_report_alone() {
    let mut csv = csv::Writer::from_writer(Vec::new());
    csv.write_record(HEADER).unwrap();
    csv.write_record(ROW).unwrap();
    let output = check("payments.csv", &csv.into_inner().unwrap());
    let report = report(&output);
    assert_eq!(
        (report["rows"].as_u64(), report["valid"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(output.status.code(), Some(0));
}
