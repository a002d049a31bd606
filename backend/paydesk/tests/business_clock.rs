//! Which clock the domain reads. A business record of a test stream is
//! stamped by the stream's clock (`domain::scope::stream_now_ms`, the wall
//! clock moved on by the test clock's days), so its times agree with its
//! business dates. The wall clock (`ids::now_ms`) is read only where a time
//! guards access, times a real wait or is told to a person as a security
//! event; each such file is listed here with how many reads it makes and
//! why. A new read of the wall clock in the domain fails this test until it
//! is either moved to the stream's clock or listed with its reason.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// File under `src/domain/` → (reads of the wall clock, why).
const WALL_CLOCK_READS: &[(&str, usize, &str)] = &[
    ("accounts.rs", 1, "a two-factor code's time step"),
    (
        "api_tokens/commands.rs",
        1,
        "a token's expiry and its creation, which guard access",
    ),
    ("api_tokens/mod.rs", 2, "a token's expiry and its last use"),
    (
        "teams.rs",
        4,
        "invites expire by the wall clock; mails about a member's standing say when it happened",
    ),
    ("notices.rs", 1, "a security notice says when it happened"),
    (
        "history_export.rs",
        1,
        "the export file's name says when it was made",
    ),
    (
        "e_mandate_signing/mod.rs",
        7,
        "the payer's signing rows time the bank's real-time approval window",
    ),
    (
        "imports/prepare.rs",
        1,
        "the wall clock moved on by the plan's `clock_ahead_ms`",
    ),
    (
        "commerce/checkout/public_page.rs",
        1,
        "the wall clock moved on by the page's test clock (`stream_now_ms`)",
    ),
    (
        "commerce/checkout/expiry.rs",
        1,
        "the wall clock moved on by the stream's test clock (`stream_now_ms`)",
    ),
    (
        "commerce/card_mails.rs",
        1,
        "a card-update link expires by the wall clock",
    ),
    (
        "commerce/card_updates.rs",
        2,
        "a card-update link expires by the wall clock",
    ),
    (
        "webhooks/commands.rs",
        1,
        "an endpoint's secret roll and its deliveries are real time",
    ),
    (
        "payouts/mod.rs",
        1,
        "the owners' mail about a new settlement account is a security event",
    ),
    (
        "payouts/views.rs",
        1,
        "the wall clock moved on by the view's `clock_ahead_ms`",
    ),
];

/// The reads of `now_ms()` in each file, outside comments.
fn reads(dir: &Path, root: &Path, found: &mut BTreeMap<String, usize>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            reads(&path, root, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).unwrap();
            let count = text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
                .map(|line| line.matches("now_ms()").count())
                .sum::<usize>();
            if count > 0 {
                let name = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                found.insert(name, count);
            }
        }
    }
}

#[test]
fn the_domain_reads_the_wall_clock_only_where_listed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/domain");
    let mut found = BTreeMap::new();
    reads(&root, &root, &mut found);
    let listed: BTreeMap<String, usize> = WALL_CLOCK_READS
        .iter()
        .map(|(file, count, _)| ((*file).to_string(), *count))
        .collect();
    assert_eq!(
        found, listed,
        "a business record is stamped by `domain::scope::stream_now_ms`; a read of the wall \
         clock (`now_ms()`) belongs in WALL_CLOCK_READS with its reason"
    );
}
