//! The account history as a CSV file: every entry a filter matches, of the
//! sections the member may read, newest first, one row per field an entry
//! names with its value before and after (an entry that names none, a
//! sign-in, has one row). The words are the screen's (`history_values`);
//! every cell goes through `downloads::csv_cell`, so a name or a value that
//! starts like a formula stays text in a spreadsheet program.
//!
//! Why the server writes the file, piece by piece from a cursor, rather
//! than the web app paging through the list: a year of a busy merchant's
//! history is hundreds of thousands of entries, and each piece here costs
//! only its own rows (a keyset read from where the last one stopped, no
//! file made again for every piece as a byte offset would need), holds at
//! most one piece in memory, and keeps the values before and after (whole
//! records) on the server instead of sending them to the browser to be
//! worded there. The browser keeps only the file's bytes, as any download.

use protocol::{
    ErrorCode, HistoryExportPiece, HistoryFilter, IMPORT_CHUNK_BYTES, Language, ReplyBody,
};

use super::downloads::csv_cell;
use super::history_values::{HistoryWords, shown_record_id, utc_time};
use super::permissions::readable_sections;
use super::scope::{Scope, checked_id};
use crate::error::{AppError, AppResult};
use crate::ids::now_ms;
use crate::store::Db;
use crate::store::history_reads::{self as store, ExportFrom, StoredEntry};
use crate::store::stream::StreamKey;

pub const CONTENT_TYPE: &str = "text/csv; charset=utf-8";
/// The file's columns, by their keys under `accountHistory.csv`.
pub const COLUMNS: [&str; 12] = [
    "id",
    "at",
    "person",
    "address",
    "browser",
    "record",
    "recordName",
    "recordId",
    "action",
    "field",
    "before",
    "after",
];
/// A piece rides one reply: the same size as the other downloads' pieces,
/// well under the frame limit.
const PIECE_BYTES: usize = IMPORT_CHUNK_BYTES as usize;
/// Entries read at a time while a piece fills: a few pieces' worth, so most
/// pieces take one read and a read never holds many whole records at once.
const ENTRIES_PER_READ: u32 = 100;
/// Spreadsheet programs read a file that starts with it as UTF-8, so
/// accented names stay as they are.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where a piece starts: the first piece at the newest entry; later ones
/// after the last entry finished, or inside an entry too long for the room
/// left in a piece, at the byte where that piece stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Position {
    Start,
    After(String),
    Within(String, usize),
}

impl Position {
    fn parse(cursor: Option<&str>) -> AppResult<Position> {
        let Some(cursor) = cursor else {
            return Ok(Position::Start);
        };
        let bad = || AppError::Code(ErrorCode::InvalidInput);
        let id = |id: &str| checked_id(id).map(str::to_string).map_err(|_| bad());
        Ok(match cursor.split_once('~') {
            None => Position::After(id(cursor)?),
            Some((entry, skip)) => Position::Within(id(entry)?, skip.parse().map_err(|_| bad())?),
        })
    }

    fn encode(&self) -> Option<String> {
        match self {
            Position::Start => None,
            Position::After(id) => Some(id.clone()),
            Position::Within(id, skip) => Some(format!("{id}~{skip}")),
        }
    }

    fn from(&self) -> ExportFrom<'_> {
        match self {
            Position::Start => ExportFrom::Start,
            Position::After(id) => ExportFrom::Before(id),
            Position::Within(id, _) => ExportFrom::At(id),
        }
    }

    /// The bytes of `entry_id`'s rows already written. None but the entry a
    /// piece stopped in: had it gone since, its successor starts whole.
    fn written_of(&self, entry_id: &str) -> usize {
        match self {
            Position::Within(id, skip) if id == entry_id => *skip,
            _ => 0,
        }
    }
}

/// One piece of the file, from `cursor` (none for the first).
pub async fn download(
    db: &Db,
    scope: &Scope,
    filter: &HistoryFilter,
    language: Language,
    cursor: Option<&str>,
) -> AppResult<ReplyBody> {
    let key = StreamKey::new(scope.merchant_id.clone(), scope.mode);
    let readable = readable_sections(&scope.permissions);
    let words = HistoryWords::new(language);
    let mut position = Position::parse(cursor)?;
    let mut data = Vec::with_capacity(PIECE_BYTES);
    if position == Position::Start {
        data.extend_from_slice(BOM);
        data.extend(header(&words)?);
    }
    let mut entries = 0;
    let next = 'piece: loop {
        let rows = store::export_rows(
            db,
            &key,
            &readable,
            filter,
            position.from(),
            ENTRIES_PER_READ,
        )
        .await?;
        for stored in &rows {
            let id = &stored.entry.id;
            let text = entry_rows(stored, &words)?;
            let written = position.written_of(id).min(text.len());
            let rest = &text[written..];
            let room = PIECE_BYTES.saturating_sub(data.len());
            if rest.len() > room {
                // The piece is full: the next one goes on inside this entry.
                data.extend_from_slice(&rest[..room]);
                break 'piece Some(Position::Within(id.clone(), written + room));
            }
            data.extend_from_slice(rest);
            entries += 1;
            position = Position::After(id.clone());
        }
        if rows.len() < ENTRIES_PER_READ as usize {
            break None;
        }
    };
    Ok(ReplyBody::HistoryExport {
        piece: Box::new(HistoryExportPiece {
            file_name: file_name(scope, now_ms()),
            content_type: CONTENT_TYPE.into(),
            data,
            entries,
            next_cursor: next.as_ref().and_then(Position::encode),
        }),
    })
}

fn file_name(scope: &Scope, now: i64) -> String {
    let day = utc_time(now).chars().take(10).collect::<String>();
    format!("paydesk-history-{}-{day}.csv", scope.mode.as_str())
}

fn fail(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(format!("history csv: {e}"))
}

/// Rows end in CRLF, as RFC 4180 and spreadsheet programs have them.
fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new())
}

fn header(words: &HistoryWords) -> AppResult<Vec<u8>> {
    let mut out = writer();
    let names = COLUMNS.map(|column| csv_cell(&words.column(column)).into_owned());
    out.write_record(&names).map_err(fail)?;
    out.into_inner().map_err(fail)
}

/// An entry's rows: one per field it names, with the field's value before
/// and after; one with no field for an entry that names none.
fn entry_rows(stored: &StoredEntry, words: &HistoryWords) -> AppResult<Vec<u8>> {
    let entry = &stored.entry;
    let kind = entry.record_kind.as_str();
    let common = [
        entry.id.clone(),
        utc_time(entry.at),
        words.who(entry),
        entry.address.clone().unwrap_or_default(),
        entry.user_agent.clone().unwrap_or_default(),
        words.record(entry),
        entry.record_name.clone().unwrap_or_default(),
        shown_record_id(entry).to_string(),
        words.action(entry),
    ];
    let mut out = writer();
    let mut write = |field: String, before: String, after: String| {
        let cells = common.iter().cloned().chain([field, before, after]);
        let cells: Vec<String> = cells.map(|cell| csv_cell(&cell).into_owned()).collect();
        out.write_record(&cells).map_err(fail)
    };
    if entry.fields.is_empty() {
        write(String::new(), String::new(), String::new())?;
    }
    for field in &entry.fields {
        let value = |record: Option<&serde_json::Value>| {
            words.value(kind, field, record.and_then(|r| r.get(field)))
        };
        write(
            words.field(kind, field),
            value(stored.before.as_ref()),
            value(stored.after.as_ref()),
        )?;
    }
    out.into_inner().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{HistoryAction, HistoryActorKind, HistoryEntry};
    use serde_json::json;

    fn stored(name_before: &str, name_after: &str) -> StoredEntry {
        StoredEntry {
            entry: HistoryEntry {
                id: "hst_1".into(),
                at: 1_772_445_600_000,
                actor_kind: HistoryActorKind::User,
                actor_id: Some("usr_1".into()),
                actor_name: Some("@Thandi".into()),
                address: Some("127.0.0.1".into()),
                user_agent: None,
                record_kind: "customer".into(),
                record_id: Some("cus_1".into()),
                record_name: Some(name_after.into()),
                action: HistoryAction::Updated,
                fields: vec!["name".into(), "archived".into()],
                section: None,
            },
            command_id: None,
            seq: Some(3),
            before: Some(json!({"name": name_before, "archived": false})),
            after: Some(json!({"name": name_after, "archived": true})),
        }
    }

    #[test]
    fn cursors_go_on_after_an_entry_or_inside_one() {
        assert_eq!(Position::parse(None).ok(), Some(Position::Start));
        let after = Position::parse(Some("hst_abc")).ok();
        assert_eq!(after, Some(Position::After("hst_abc".into())));
        let within = Position::parse(Some("hst_abc~120")).ok();
        assert_eq!(within, Some(Position::Within("hst_abc".into(), 120)));
        assert_eq!(
            within.as_ref().and_then(Position::encode).as_deref(),
            Some("hst_abc~120")
        );
        assert!(Position::parse(Some("hst_abc~x")).is_err());
        assert!(Position::parse(Some("no such id!")).is_err());
        let Some(within) = within else { unreachable!() };
        assert_eq!(within.written_of("hst_abc"), 120);
        assert_eq!(within.written_of("hst_older"), 0);
    }

    #[test]
    fn each_named_field_is_a_row_with_before_and_after_and_formulas_stay_text() {
        let words = HistoryWords::new(Language::En);
        let rows = entry_rows(&stored("Sipho", "=HYPERLINK(\"x\")"), &words)
            .map(String::from_utf8)
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        let lines: Vec<&str> = rows.lines().collect();
        assert_eq!(lines.len(), 2, "{rows}");
        assert!(
            lines[0].starts_with("hst_1,2026-03-02T10:00:00.000Z,'@Thandi,127.0.0.1,,Customer,")
        );
        assert!(
            lines[0].ends_with(",Updated,Name,Sipho,\"'=HYPERLINK(\"\"x\"\")\""),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].ends_with(",Updated,Archived,No,Yes"),
            "{}",
            lines[1]
        );
        let afr = HistoryWords::new(Language::Afr);
        let header = header(&afr).ok().and_then(|h| String::from_utf8(h).ok());
        assert_eq!(
            header.as_deref(),
            Some(
                "Inskrywing,Tyd (UTC),Wie,Adres,Blaaier,Rekord,Rekordnaam,Rekord-ID,Aksie,Veld,Voor,Na\r\n"
            )
        );
    }
}
