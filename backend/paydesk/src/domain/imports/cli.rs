//! `backend import check`: checks a file with no server and says what it
//! found as JSON, with the exit code telling the outcome.

use std::process::ExitCode;

use protocol::{ImportTemplate, Language, PaymentKind};
use serde_json::{Value, json};
use time::Date;

use super::check_file;
use super::messages::message;
use crate::store::sql::wire_name;

/// Every row is valid.
pub const ALL_VALID: u8 = 0;
/// Some rows are not.
pub const SOME_INVALID: u8 = 1;
/// The file is refused as a whole (or cannot be read from disk).
pub const REFUSED: u8 = 2;

/// The report and the exit code for a file's bytes.
pub fn check_report(
    file_name: &str,
    bytes: &[u8],
    template: ImportTemplate,
    kind: PaymentKind,
    today: Date,
) -> (Value, u8) {
    match check_file(file_name, bytes, template, kind, today, &mut |_| Ok(())) {
        Ok(found) => {
            let errors: Vec<Value> = found
                .issues
                .iter()
                .map(|issue| {
                    json!({
                        "row": issue.row,
                        "column": issue.column,
                        "code": wire_name(&issue.code),
                        "message": message(issue.code, Language::En),
                    })
                })
                .collect();
            let code = if found.invalid == 0 {
                ALL_VALID
            } else {
                SOME_INVALID
            };
            let report = json!({
                "rows": found.rows,
                "valid": found.valid,
                "invalid": found.invalid,
                "errors": errors,
            });
            (report, code)
        }
        Err(refusal) => {
            let mut error = json!({
                "code": wire_name(&refusal.code),
                "message": message(refusal.code, Language::En),
            });
            if let Some(column) = refusal.column {
                error["column"] = Value::String(column);
            }
            (json!({ "error": error }), REFUSED)
        }
    }
}

/// Reads `path` and prints the report on standard output.
pub fn run(
    path: &std::path::Path,
    template: ImportTemplate,
    kind: PaymentKind,
    today: Date,
) -> ExitCode {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let (report, code) = match std::fs::read(path) {
        Ok(bytes) => check_report(&file_name, &bytes, template, kind, today),
        Err(err) => (
            json!({ "error": { "code": "import_unreadable", "message": format!("{}: {err}", path.display()) } }),
            REFUSED,
        ),
    };
    println!("{report}");
    ExitCode::from(code)
}
