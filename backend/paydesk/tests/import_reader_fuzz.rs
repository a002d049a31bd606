//! Property test of the spreadsheet reader against hostile uploads: arbitrary
//! bytes under every extension, and random mutations (bit flips, truncation,
//! insertion) of valid files in every format, both of the raw file and of a
//! part inside its container (re-packed so checksums still hold, which is
//! what gets past the container and into the spreadsheet parser).
//!
//! Asserted: the reader never panics and memory stays bounded. The workspace
//! forbids `unsafe_code`, which a counting `#[global_allocator]` would need
//! (`unsafe impl GlobalAlloc`, and `forbid` cannot be lifted), so memory is
//! bounded by the process's peak resident set (VmHWM in /proc/self/status),
//! checked after every case against a 512 MiB cap. This file is the only
//! test in its binary, so nothing else runs in the process meanwhile.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../src/domain/imports/reader/fixtures.rs"]
mod fixtures;

use std::collections::BTreeMap;
use std::io::{Cursor, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use paydesk::domain::imports::reader::read_rows;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const PEAK_CAP_KIB: u64 = 512 * 1024;
/// Far above what any case takes in a debug build.
const HANG_AFTER: Duration = Duration::from_secs(20);
const CASES_ARBITRARY: u32 = 200;
const CASES_RAW: u32 = 400;
const CASES_INSIDE: u32 = 600;
const EXTENSIONS: [&str; 6] = ["xlsx", "xlsm", "xlsb", "xls", "ods", "csv"];

/// Panics the spreadsheet parser raised and the reader fenced off.
static FENCED_PANICS: AtomicUsize = AtomicUsize::new(0);
/// How the cases ended, to show that mutations reach past the containers.
static OUTCOMES: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Reads a file to the end; any refusal is fine, a panic, a hang or a
/// memory spike is not. A file that hangs is kept under /tmp to replay.
fn survives(name: &str, bytes: &[u8]) {
    let (done, finished) = mpsc::channel();
    let (owned_name, owned_bytes) = (name.to_string(), bytes.to_vec());
    std::thread::spawn(move || {
        let result = read_rows(&owned_name, &owned_bytes, &mut |_| Ok(()));
        let _ = done.send(result);
    });
    let Ok(result) = finished.recv_timeout(HANG_AFTER) else {
        let kept = std::env::temp_dir().join(format!("hanging-{name}"));
        std::fs::write(&kept, bytes).unwrap();
        panic!("{name} is still being read after {HANG_AFTER:?}; kept as {kept:?}");
    };
    let outcome = match result {
        Ok(()) => "read".to_string(),
        Err(refusal) => format!("{:?}", refusal.code),
    };
    *OUTCOMES.lock().unwrap().entry(outcome).or_default() += 1;
    let peak = peak_kib();
    assert!(peak < PEAK_CAP_KIB, "{name}: peak memory {peak} KiB");
}

#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Truncate(usize),
    Insert(usize, Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::Flip(at, bit)),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(at, bytes)| Mutation::Insert(at, bytes)),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for mutation in mutations {
        let len = bytes.len();
        match mutation {
            Mutation::Flip(at, bit) if len > 0 => bytes[at % len] ^= 1 << bit,
            Mutation::Truncate(at) if len > 0 => bytes.truncate(at % len),
            Mutation::Insert(at, inserted) => {
                let at = at % (len + 1);
                bytes.splice(at..at, inserted.iter().copied());
            }
            _ => {}
        }
    }
    bytes
}

/// Mutates one part inside the container and packs it again.
fn mutate_inside(name: &str, bytes: &[u8], part: usize, mutations: &[Mutation]) -> Vec<u8> {
    if name.ends_with(".csv") {
        return mutate(bytes.to_vec(), mutations);
    }
    if name.ends_with(".xls") {
        let mut file = cfb::CompoundFile::open(Cursor::new(bytes)).unwrap();
        let mut stream = Vec::new();
        file.open_stream("/Workbook")
            .unwrap()
            .read_to_end(&mut stream)
            .unwrap();
        return fixtures::ole_workbook(&mutate(stream, mutations));
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    let mut parts = Vec::new();
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).unwrap();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        parts.push((entry.name().unwrap().to_string(), data));
    }
    let chosen = part % parts.len();
    parts[chosen].1 = mutate(std::mem::take(&mut parts[chosen].1), mutations);
    let parts: Vec<(&str, &[u8], bool)> = parts
        .iter()
        .map(|(name, data)| (name.as_str(), &data[..], name == "mimetype"))
        .collect();
    fixtures::zip_parts(&parts)
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        // A failing case is kept as a file instead; shrinking a hang would
        // take HANG_AFTER per attempt.
        max_shrink_iters: 0,
        ..Config::default()
    })
}

#[test]
fn hostile_uploads_are_refused_without_panics_or_memory_spikes() {
    // Parser panics are fenced by the reader; count them quietly, and let
    // every other panic (a failing assertion here, a bug in the reader)
    // through as usual.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let in_parser = info
            .location()
            .is_some_and(|at| at.file().contains("calamine"));
        if in_parser {
            FENCED_PANICS.fetch_add(1, Ordering::Relaxed);
        } else {
            default_hook(info);
        }
    }));

    let fixtures = fixtures::all_formats(&fixtures::sample());

    // Arbitrary bytes under every extension, bare and behind the right magic.
    runner(CASES_ARBITRARY)
        .run(
            &(
                0..EXTENSIONS.len(),
                any::<bool>(),
                prop::collection::vec(any::<u8>(), 0..4096),
            ),
            |(extension, with_magic, body)| {
                let name = format!("upload.{}", EXTENSIONS[extension]);
                let magic: &[u8] = match EXTENSIONS[extension] {
                    "xls" => &[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1],
                    "csv" => b"\xEF\xBB\xBF",
                    _ => b"PK\x03\x04",
                };
                let bytes = if with_magic {
                    [magic, &body[..]].concat()
                } else {
                    body
                };
                survives(&name, &bytes);
                Ok(())
            },
        )
        .unwrap();

    // Mutations of every valid file, of the file itself.
    runner(CASES_RAW)
        .run(
            &(0..fixtures.len(), prop::collection::vec(mutation(), 1..6)),
            |(format, mutations)| {
                let (name, bytes) = &fixtures[format];
                survives(name, &mutate(bytes.clone(), &mutations));
                Ok(())
            },
        )
        .unwrap();

    // Mutations of a part inside the container, packed again.
    runner(CASES_INSIDE)
        .run(
            &(
                0..fixtures.len(),
                any::<usize>(),
                prop::collection::vec(mutation(), 1..6),
            ),
            |(format, part, mutations)| {
                let (name, bytes) = &fixtures[format];
                survives(name, &mutate_inside(name, bytes, part, &mutations));
                Ok(())
            },
        )
        .unwrap();

    let _ = std::panic::take_hook();
    eprintln!(
        "{} hostile uploads: {:?}; parser panics fenced: {}; peak memory {} KiB",
        CASES_ARBITRARY + CASES_RAW + CASES_INSIDE,
        OUTCOMES.lock().unwrap(),
        FENCED_PANICS.load(Ordering::Relaxed),
        peak_kib()
    );
}
