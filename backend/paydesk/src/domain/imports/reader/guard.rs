//! Zip bombs: every entry of an xlsx/xlsm/xlsb/ods archive is inflated once
//! into a counting sink before the spreadsheet parser opens it, so an archive
//! that would expand past what any real spreadsheet needs is refused without
//! ever holding its contents.

use std::io::{self, Cursor, Write};

use protocol::ErrorCode;
use zip::ZipArchive;

use crate::domain::imports::cells::Refusal;

pub(super) struct ZipLimits {
    /// Decompressed bytes across all entries.
    pub total: u64,
    /// Decompressed bytes per compressed byte, per entry ...
    pub ratio: u64,
    /// ... once the entry is past this many decompressed bytes (small parts
    /// such as styles legitimately compress very well).
    pub ratio_after: u64,
}

/// A 32 MiB upload expands to a few hundred MiB of XML at the very most; real
/// spreadsheet parts compress by well under 100:1.
pub(super) const ZIP_LIMITS: ZipLimits = ZipLimits {
    total: 512 * 1024 * 1024,
    ratio: 250,
    ratio_after: 1024 * 1024,
};

pub(super) fn check_zip(bytes: &[u8], limits: &ZipLimits, xlsb: bool) -> Result<(), Refusal> {
    let unreadable = |_| Refusal::new(ErrorCode::ImportUnreadable);
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(unreadable)?;
    let mut total = 0u64;
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(unreadable)?;
        let records = xlsb && entry.name().is_ok_and(|name| is_record_part(&name));
        let mut sink = CountingSink {
            limits,
            before: total,
            compressed: entry.compressed_size(),
            written: 0,
            exceeded: false,
            records: records.then(RecordWalker::default),
        };
        match io::copy(&mut entry, &mut sink) {
            Ok(_) => {}
            Err(_) if sink.exceeded => return Err(Refusal::new(ErrorCode::ImportSheetTooLarge)),
            // Corrupt data, a bad checksum, encryption, an unknown method.
            Err(_) => return Err(Refusal::new(ErrorCode::ImportUnreadable)),
        }
        if sink.records.as_ref().is_some_and(RecordWalker::overran) {
            return Err(Refusal::new(ErrorCode::ImportUnreadable));
        }
        total += sink.written;
    }
    Ok(())
}

/// The xlsb parts the parser reads as BIFF12 records.
fn is_record_part(name: &str) -> bool {
    matches!(
        name,
        "xl/workbook.bin" | "xl/styles.bin" | "xl/sharedStrings.bin"
    ) || (name.starts_with("xl/worksheets/") && name.ends_with(".bin"))
}

struct CountingSink<'a> {
    limits: &'a ZipLimits,
    before: u64,
    compressed: u64,
    written: u64,
    exceeded: bool,
    records: Option<RecordWalker>,
}

impl Write for CountingSink<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.written += buf.len() as u64;
        let over_total = self.before + self.written > self.limits.total;
        let over_ratio = self.written > self.limits.ratio_after
            && self.written > self.compressed.saturating_mul(self.limits.ratio);
        if over_total || over_ratio {
            self.exceeded = true;
            return Err(io::Error::other("decompressed size limit"));
        }
        if let Some(records) = self.records.as_mut() {
            records.feed(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Follows BIFF12 record headers (a 1-2 byte type and a 1-4 byte length,
/// 7 bits per byte) through a part. The parser sizes its buffer from a
/// record's declared length before reading it, so a length running past the
/// end of the part (up to 256 MiB) is refused here instead.
#[derive(Default)]
struct RecordWalker {
    state: WalkState,
}

#[derive(Default)]
enum WalkState {
    #[default]
    Type,
    TypeSecond,
    Length {
        read: u8,
        value: u64,
    },
    Body(u64),
}

impl RecordWalker {
    fn feed(&mut self, mut bytes: &[u8]) {
        while let Some((&byte, rest)) = bytes.split_first() {
            if let WalkState::Body(left) = self.state {
                let skip = usize::try_from(left).unwrap_or(usize::MAX).min(bytes.len());
                bytes = bytes.get(skip..).unwrap_or_default();
                self.state = match left - skip as u64 {
                    0 => WalkState::Type,
                    left => WalkState::Body(left),
                };
                continue;
            }
            bytes = rest;
            self.state = match self.state {
                WalkState::Type if byte & 0x80 != 0 => WalkState::TypeSecond,
                WalkState::Type | WalkState::TypeSecond => WalkState::Length { read: 0, value: 0 },
                WalkState::Length { read, value } => {
                    let value = value | (u64::from(byte & 0x7F) << (7 * read));
                    if byte & 0x80 != 0 && read < 3 {
                        WalkState::Length {
                            read: read + 1,
                            value,
                        }
                    } else if value == 0 {
                        WalkState::Type
                    } else {
                        WalkState::Body(value)
                    }
                }
                WalkState::Body(left) => WalkState::Body(left),
            };
        }
    }

    fn overran(&self) -> bool {
        matches!(self.state, WalkState::Body(left) if left > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_walker_follows_lengths_across_chunks() {
        let mut walker = RecordWalker::default();
        // Type 0x94 (two bytes), length 0x81 0x01 = 129, then 129 bytes.
        walker.feed(&[0x94, 0x01, 0x81, 0x01]);
        walker.feed(&[0u8; 100]);
        assert!(walker.overran());
        walker.feed(&[0u8; 29]);
        assert!(!walker.overran());
        // A record claiming 2^21 bytes that never arrive.
        walker.feed(&[0x05, 0xFF, 0xFF, 0x7F]);
        assert!(walker.overran());
    }
}
