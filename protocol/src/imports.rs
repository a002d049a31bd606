//! Bulk import of payments from spreadsheets: the upload, its preview, the
//! committed import and its progress (DOMAIN.md, import templates).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{ErrorCode, Mode, PaymentKind};

/// One column layout per mandate method, each in a once-off and a
/// recurring variant (`PaymentKind`).
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum ImportTemplate {
    Debicheck,
    RegisteredMandate,
    EftDebitOrder,
}

impl ImportTemplate {
    pub const ALL: [ImportTemplate; 3] = [
        ImportTemplate::Debicheck,
        ImportTemplate::RegisteredMandate,
        ImportTemplate::EftDebitOrder,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ImportTemplate::Debicheck => "debicheck",
            ImportTemplate::RegisteredMandate => "registered_mandate",
            ImportTemplate::EftDebitOrder => "eft_debit_order",
        }
    }

    pub fn parse(value: &str) -> Option<ImportTemplate> {
        ImportTemplate::ALL
            .into_iter()
            .find(|t| t.as_str() == value)
    }
}

/// One problem of one row: the spreadsheet row number (the header is row 1),
/// the template's column header and what is wrong.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ImportIssue {
    pub row: u32,
    pub column: String,
    pub code: ErrorCode,
}

/// A checked upload, before anything is written: counts and a page of the
/// invalid rows' problems.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ImportPreview {
    pub upload_id: String,
    pub kind: PaymentKind,
    pub template: ImportTemplate,
    pub file_name: String,
    /// Data rows read (blank rows are skipped).
    pub rows: u32,
    pub valid: u32,
    pub invalid: u32,
    /// Problems from the asked offset on, at most one page.
    pub issues: Vec<ImportIssue>,
    /// How many problems there are in all.
    pub issue_count: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next_offset: Option<u32>,
    /// The latest import of the very same file (same bytes) by this
    /// merchant in this mode: confirming again needs `allowDuplicateFile`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub duplicate_of: Option<Import>,
    /// Valid rows that repeat an existing payment or an earlier row of the
    /// file; skipped unless confirmed with `includeDuplicates`.
    pub duplicates: u32,
    /// The first page of those rows (`GetImportPreviewDuplicates` reads on).
    pub duplicate_rows: Vec<ImportIssue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub duplicates_next_offset: Option<u32>,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ImportStatus {
    /// Confirmed; the valid rows are being written in batches.
    Committing,
    /// Every valid row is written (or failed, with its problem recorded).
    Completed,
}

/// A confirmed import and its progress.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Import {
    pub id: String,
    pub mode: Mode,
    pub kind: PaymentKind,
    pub template: ImportTemplate,
    pub file_name: String,
    pub status: ImportStatus,
    /// Data rows read from the file.
    pub rows: u32,
    /// Rows that passed every rule.
    pub valid: u32,
    /// Rows refused by a rule; never written.
    pub invalid: u32,
    /// Valid rows written so far.
    pub committed: u32,
    /// Valid rows that could not be written (their problem is recorded).
    pub failed: u32,
    /// Valid rows not written because they repeat a payment or an earlier
    /// row (each recorded as a problem); always 0 with `includeDuplicates`.
    #[serde(default)]
    pub skipped: u32,
    /// The user chose to import rows that repeat a payment.
    #[serde(default)]
    pub include_duplicates: bool,
    /// The earlier import of the same file the user chose to import again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub duplicate_of: Option<String>,
    pub created_by_name: String,
    #[ts(type = "number")]
    pub created_at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub finished_at: Option<i64>,
}

/// A piece of a file the server made (a template, the invalid rows), sent in
/// pieces because frames are small. Ask again from `nextOffset` until it is absent.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FileChunk {
    pub file_name: String,
    pub content_type: String,
    #[serde(with = "serde_bytes")]
    #[schemars(with = "Vec<u8>")]
    #[ts(type = "Uint8Array")]
    pub data: Vec<u8>,
    pub total: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub next_offset: Option<u32>,
}

/// The most a file may weigh.
pub const IMPORT_MAX_FILE_BYTES: u32 = 32 * 1024 * 1024;
/// Upload and download pieces stay well under the frame limit.
pub const IMPORT_CHUNK_BYTES: u32 = 48 * 1024;
/// Data rows one file may hold.
pub const IMPORT_MAX_ROWS: u32 = 200_000;
/// Columns one sheet may use.
pub const IMPORT_MAX_COLUMNS: u32 = 64;
