//! The frame size limit, enforced on the bytes as they arrive.
//!
//! The WebSocket codec checks a frame's length only once the whole frame is
//! in memory, and it keeps reading a frame whose header declares 2^63 − 1
//! bytes. So the socket's byte stream passes through [`GuardedPayload`] first:
//! it reads each frame header (never buffering a payload) and ends the stream
//! as soon as a header declares a frame, or a fragmented message's running
//! total, above the limit. The session then closes with 1009.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use actix_http::ws::Item;
use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use futures_util::Stream;

/// The longest frame header: 2 bytes, a 64-bit length, a 4-byte mask.
const MAX_HEADER: usize = 14;
const FIN: u8 = 0x80;
const OPCODE: u8 = 0x0F;
const CONTINUATION: u8 = 0x0;
const MASKED: u8 = 0x80;

/// A header declared more than the limit allows.
#[derive(Debug, PartialEq, Eq)]
pub struct TooBig;

/// Follows frame boundaries through the byte stream, reading headers only.
pub struct FrameLimit {
    max: u64,
    header: [u8; MAX_HEADER],
    header_len: usize,
    /// Payload bytes of the current frame still to skip.
    payload_left: u64,
    /// The bytes of a fragmented message so far, while one is open.
    fragmented: Option<u64>,
}

impl FrameLimit {
    pub fn new(max: usize) -> FrameLimit {
        FrameLimit {
            max: max as u64,
            header: [0; MAX_HEADER],
            header_len: 0,
            payload_left: 0,
            fragmented: None,
        }
    }

    /// Looks at the next bytes of the stream, in order.
    pub fn inspect(&mut self, mut bytes: &[u8]) -> Result<(), TooBig> {
        while !bytes.is_empty() {
            if self.payload_left > 0 {
                let skipped = self.payload_left.min(bytes.len() as u64);
                self.payload_left -= skipped;
                bytes = &bytes[skipped as usize..];
                continue;
            }
            self.header[self.header_len] = bytes[0];
            self.header_len += 1;
            bytes = &bytes[1..];
            if let Some(length) = self.complete_header() {
                self.header_len = 0;
                self.admit(length)?;
                self.payload_left = length;
            }
        }
        Ok(())
    }

    /// The payload length once the header gathered so far is whole.
    fn complete_header(&self) -> Option<u64> {
        if self.header_len < 2 {
            return None;
        }
        let second = self.header[1];
        let (extra, short) = match second & 0x7F {
            126 => (2, false),
            127 => (8, false),
            _ => (0, true),
        };
        let mask = if second & MASKED != 0 { 4 } else { 0 };
        if self.header_len < 2 + extra + mask {
            return None;
        }
        if short {
            return Some(u64::from(second & 0x7F));
        }
        let length = self.header[2..2 + extra]
            .iter()
            .fold(0u64, |acc, byte| (acc << 8) | u64::from(*byte));
        Some(length)
    }

    /// Decides on a frame from its header: its own length, and for a data
    /// message sent in fragments, the total so far.
    fn admit(&mut self, length: u64) -> Result<(), TooBig> {
        let first = self.header[0];
        let finished = first & FIN != 0;
        let opcode = first & OPCODE;
        if length > self.max {
            return Err(TooBig);
        }
        // Control frames (opcode 8 and up) may arrive between fragments and do not count.
        if opcode >= 0x8 {
            return Ok(());
        }
        let total = if opcode == CONTINUATION {
            self.fragmented.unwrap_or(0).saturating_add(length)
        } else {
            length
        };
        if total > self.max {
            return Err(TooBig);
        }
        self.fragmented = (!finished).then_some(total);
        Ok(())
    }
}

/// Whether the guard ended a socket's stream for an oversize frame.
#[derive(Clone, Default)]
pub struct Oversize(Arc<AtomicBool>);

impl Oversize {
    pub fn tripped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The socket's incoming bytes, cut off at the first header over the limit.
pub struct GuardedPayload<S> {
    inner: S,
    limit: FrameLimit,
    oversize: Oversize,
    ended: bool,
}

/// Wraps a socket's request payload; the flag tells the session why it ended.
pub fn guard<S>(inner: S, max: usize) -> (GuardedPayload<S>, Oversize) {
    let oversize = Oversize::default();
    let guarded = GuardedPayload {
        inner,
        limit: FrameLimit::new(max),
        oversize: oversize.clone(),
        ended: false,
    };
    (guarded, oversize)
}

impl<S> Stream for GuardedPayload<S>
where
    S: Stream<Item = Result<Bytes, PayloadError>> + Unpin,
{
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                if self.limit.inspect(&chunk).is_err() {
                    // Nothing more is read from this socket.
                    self.ended = true;
                    self.oversize.0.store(true, Ordering::Relaxed);
                    return Poll::Ready(Some(Err(PayloadError::Overflow)));
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            other => other,
        }
    }
}

/// A binary message sent in fragments, gathered up to the limit.
#[derive(Default)]
pub struct Fragments {
    open: Option<Vec<u8>>,
}

/// What a fragment completed.
#[derive(Debug, PartialEq, Eq)]
pub enum Gathered {
    /// More fragments are to come.
    Partial,
    Whole(Vec<u8>),
    TooBig,
    /// Text, or a fragment with no message open: not this protocol.
    Refused,
}

impl Fragments {
    pub fn push(&mut self, item: Item, max: usize) -> Gathered {
        let (bytes, last) = match item {
            Item::FirstText(_) => return Gathered::Refused,
            Item::FirstBinary(bytes) => {
                if self.open.is_some() {
                    return Gathered::Refused;
                }
                self.open = Some(Vec::new());
                (bytes, false)
            }
            Item::Continue(bytes) => (bytes, false),
            Item::Last(bytes) => (bytes, true),
        };
        let Some(open) = self.open.as_mut() else {
            return Gathered::Refused;
        };
        // The guard already refused such a header; this keeps the bound local too.
        if open.len() + bytes.len() > max {
            self.open = None;
            return Gathered::TooBig;
        }
        open.extend_from_slice(&bytes);
        if !last {
            return Gathered::Partial;
        }
        Gathered::Whole(self.open.take().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A masked client frame header declaring `length` payload bytes.
    fn header(fin: bool, opcode: u8, length: u64) -> Vec<u8> {
        let mut out = vec![if fin { FIN | opcode } else { opcode }];
        if length < 126 {
            out.push(MASKED | length as u8);
        } else if length <= u64::from(u16::MAX) {
            out.push(MASKED | 126);
            out.extend_from_slice(&(length as u16).to_be_bytes());
        } else {
            out.push(MASKED | 127);
            out.extend_from_slice(&length.to_be_bytes());
        }
        out.extend_from_slice(&[1, 2, 3, 4]);
        out
    }

    fn frame(fin: bool, opcode: u8, length: usize) -> Vec<u8> {
        let mut out = header(fin, opcode, length as u64);
        out.extend(std::iter::repeat_n(0xAB, length));
        out
    }

    #[test]
    fn a_huge_header_is_refused_before_any_payload() {
        let mut limit = FrameLimit::new(64 * 1024);
        assert_eq!(
            limit.inspect(&header(true, 2, i64::MAX as u64)),
            Err(TooBig)
        );
        let mut limit = FrameLimit::new(64 * 1024);
        assert_eq!(limit.inspect(&header(true, 2, 64 * 1024 + 1)), Err(TooBig));
    }

    #[test]
    fn frames_at_the_limit_pass_even_split_across_reads() {
        let mut limit = FrameLimit::new(64 * 1024);
        let mut bytes = frame(true, 2, 64 * 1024);
        bytes.extend(frame(true, 9, 3));
        bytes.extend(frame(true, 2, 10));
        for piece in bytes.chunks(5) {
            assert_eq!(limit.inspect(piece), Ok(()));
        }
        // A header split over reads is still read whole.
        let huge = header(true, 2, 1 << 40);
        assert_eq!(limit.inspect(&huge[..3]), Ok(()));
        assert_eq!(limit.inspect(&huge[3..]), Err(TooBig));
    }

    #[test]
    fn a_fragmented_message_counts_its_total() {
        let mut limit = FrameLimit::new(100);
        assert_eq!(limit.inspect(&frame(false, 2, 60)), Ok(()));
        // A ping between fragments does not count.
        assert_eq!(limit.inspect(&frame(true, 9, 50)), Ok(()));
        assert_eq!(limit.inspect(&frame(false, 0, 40)), Ok(()));
        assert_eq!(limit.inspect(&header(true, 0, 1)), Err(TooBig));

        let mut limit = FrameLimit::new(100);
        assert_eq!(limit.inspect(&frame(false, 2, 60)), Ok(()));
        assert_eq!(limit.inspect(&frame(true, 0, 40)), Ok(()));
        // The message ended: the next one starts from zero.
        assert_eq!(limit.inspect(&frame(true, 2, 100)), Ok(()));
    }

    #[test]
    fn fragments_gather_into_one_message_within_the_limit() {
        let mut fragments = Fragments::default();
        let part = |b: &[u8]| Bytes::copy_from_slice(b);
        assert_eq!(
            fragments.push(Item::FirstBinary(part(b"ab")), 5),
            Gathered::Partial
        );
        assert_eq!(
            fragments.push(Item::Continue(part(b"c")), 5),
            Gathered::Partial
        );
        assert_eq!(
            fragments.push(Item::Last(part(b"de")), 5),
            Gathered::Whole(b"abcde".to_vec())
        );
        assert_eq!(
            fragments.push(Item::FirstBinary(part(b"abc")), 5),
            Gathered::Partial
        );
        assert_eq!(
            fragments.push(Item::Last(part(b"def")), 5),
            Gathered::TooBig
        );
        assert_eq!(
            fragments.push(Item::Continue(part(b"x")), 5),
            Gathered::Refused
        );
        assert_eq!(
            fragments.push(Item::FirstText(part(b"x")), 5),
            Gathered::Refused
        );
    }
}
