//! The rows of a checked upload, kept as read. Checking an upload reads
//! every row of the spreadsheet; the commit needs the same rows again, on
//! another day or after a restart. Unpacking and parsing an xlsx a second
//! time costs more than writing the rows, so the check keeps them here,
//! MessagePack in a zlib stream, and the commit reads them back in order.
//!
//! The stream is the server's own, written by `KeptRows` and read by
//! `read_kept`: each row is `Some(row)`, and one `None` ends it, so a cut
//! stream is told apart from a finished one.

use std::io::{BufReader, BufWriter, Write};

use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use protocol::ErrorCode;
use serde::{Deserialize, Serialize};
use time::Date;

use crate::domain::imports::cells::{Cell, Refusal, SheetRow};

/// A cell as kept: dates as their Julian day number.
#[derive(Serialize, Deserialize)]
enum KeptCell<T> {
    Empty,
    Text(T),
    Number(f64),
    Date(i32),
    Bool(bool),
}

#[derive(Serialize, Deserialize)]
struct KeptRow<T> {
    number: u32,
    cells: Vec<KeptCell<T>>,
}

fn unreadable() -> Refusal {
    Refusal::new(ErrorCode::ImportUnreadable)
}

/// Writes rows as they are read; `finish` hands back the stream.
pub struct KeptRows {
    /// Buffered: MessagePack writes a few bytes at a time, and the encoder
    /// clears its whole output buffer on every write it is given.
    encoder: BufWriter<ZlibEncoder<Vec<u8>>>,
}

impl Default for KeptRows {
    fn default() -> Self {
        // The fastest level: the rows shrink about sixfold, and the check
        // the user waits on stays about as quick as it was.
        KeptRows {
            encoder: BufWriter::with_capacity(
                256 * 1024,
                ZlibEncoder::new(Vec::new(), Compression::fast()),
            ),
        }
    }
}

impl KeptRows {
    pub fn push(&mut self, row: &SheetRow) -> Result<(), Refusal> {
        let kept = KeptRow {
            number: row.number,
            cells: row
                .cells
                .iter()
                .map(|cell| match cell {
                    Cell::Empty => KeptCell::Empty,
                    Cell::Text(text) => KeptCell::Text(text.as_str()),
                    Cell::Number(number) => KeptCell::Number(*number),
                    Cell::Date(date) => KeptCell::Date(date.to_julian_day()),
                    Cell::Bool(flag) => KeptCell::Bool(*flag),
                })
                .collect(),
        };
        rmp_serde::encode::write(&mut self.encoder, &Some(kept)).map_err(|_| unreadable())
    }

    pub fn finish(mut self) -> Result<Vec<u8>, Refusal> {
        rmp_serde::encode::write(&mut self.encoder, &None::<KeptRow<&str>>)
            .map_err(|_| unreadable())?;
        self.encoder.flush().map_err(|_| unreadable())?;
        let encoder = self.encoder.into_inner().map_err(|_| unreadable())?;
        encoder.finish().map_err(|_| unreadable())
    }
}

/// Hands `on_row` each kept row, in the order they were read.
pub fn read_kept(
    kept: &[u8],
    on_row: &mut dyn FnMut(SheetRow) -> Result<(), Refusal>,
) -> Result<(), Refusal> {
    let mut stream = BufReader::new(ZlibDecoder::new(kept));
    loop {
        let next: Option<KeptRow<String>> =
            rmp_serde::decode::from_read(&mut stream).map_err(|_| unreadable())?;
        let Some(row) = next else {
            return Ok(());
        };
        let cells = row
            .cells
            .into_iter()
            .map(|cell| {
                Ok(match cell {
                    KeptCell::Empty => Cell::Empty,
                    KeptCell::Text(text) => Cell::Text(text),
                    KeptCell::Number(number) => Cell::Number(number),
                    KeptCell::Date(day) => {
                        Cell::Date(Date::from_julian_day(day).map_err(|_| unreadable())?)
                    }
                    KeptCell::Bool(flag) => Cell::Bool(flag),
                })
            })
            .collect::<Result<Vec<Cell>, Refusal>>()?;
        on_row(SheetRow {
            number: row.number,
            cells,
        })?;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn rows() -> Vec<SheetRow> {
        let date = Date::from_calendar_date(2026, time::Month::March, 10).unwrap();
        vec![
            SheetRow {
                number: 1,
                cells: vec![Cell::Text("Customer Reference*".into())],
            },
            SheetRow {
                number: 7,
                cells: vec![
                    Cell::Text("CUST-1".into()),
                    Cell::Empty,
                    Cell::Number(181.0),
                    Cell::Number(120.5),
                    Cell::Date(date),
                    Cell::Bool(true),
                    Cell::Text(String::new()),
                ],
            },
        ]
    }

    fn kept(rows: &[SheetRow]) -> Vec<u8> {
        let mut kept = KeptRows::default();
        for row in rows {
            kept.push(row).unwrap();
        }
        kept.finish().unwrap()
    }

    fn read_all(kept: &[u8]) -> Result<Vec<SheetRow>, Refusal> {
        let mut read = Vec::new();
        read_kept(kept, &mut |row| {
            read.push(row);
            Ok(())
        })?;
        Ok(read)
    }

    #[test]
    fn rows_come_back_as_they_were_read() {
        let kept = kept(&rows());
        assert_eq!(read_all(&kept).unwrap(), rows());
    }

    #[test]
    fn no_rows_at_all_is_an_empty_stream() {
        let kept = KeptRows::default().finish().unwrap();
        assert_eq!(read_all(&kept).unwrap(), Vec::<SheetRow>::new());
    }

    #[test]
    fn a_cut_or_foreign_stream_is_unreadable() {
        let kept = kept(&rows());
        let unreadable = Err(Refusal::new(ErrorCode::ImportUnreadable));
        assert_eq!(read_all(&kept[..kept.len() / 2]), unreadable);
        assert_eq!(read_all(b"PK\x03\x04 not ours"), unreadable);
        assert_eq!(read_all(&[]), unreadable);
    }
}
