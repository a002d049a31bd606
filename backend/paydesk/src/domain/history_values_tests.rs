use super::*;
use protocol::{Access, HistoryAction, Section};
use serde_json::json;

const LANGUAGES: [Language; 2] = [Language::En, Language::Afr];

/// The screen's `RECORD_FIELDS` (web/src/features/history/recordFields.ts)
/// as (record kind, field, how its value reads).
fn screen_fields() -> Vec<(String, String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/src/features/history/recordFields.ts"
    );
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut blocks: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut kinds: Vec<(String, String)> = Vec::new();
    let mut in_block = false;
    let mut in_map = false;
    for line in source.lines().map(str::trim) {
        if let Some((name, _)) = line
            .strip_prefix("const ")
            .and_then(|rest| rest.split_once(": Fields<"))
        {
            blocks.push((name.to_string(), Vec::new()));
            in_block = true;
        } else if line.starts_with("export const RECORD_FIELDS") {
            in_map = true;
        } else if line.starts_with("};") {
            in_block = false;
            in_map = false;
        } else if in_block {
            if let Some((field, rest)) = line.split_once(": \"")
                && let Some((shown, _)) = rest.split_once('"')
                && let Some((_, fields)) = blocks.last_mut()
            {
                fields.push((field.to_string(), shown.to_string()));
            }
        } else if in_map && !line.contains('{') {
            let entry = line.trim_end_matches(',');
            let (kind, block) = entry.split_once(": ").unwrap_or((entry, entry));
            kinds.push((kind.to_string(), block.to_string()));
        }
    }
    let mut fields = Vec::new();
    for (kind, block) in kinds {
        let (_, block_fields) = blocks
            .iter()
            .find(|(name, _)| *name == block)
            .unwrap_or_else(|| panic!("no block {block}"));
        for (field, shown) in block_fields {
            fields.push((kind.clone(), field.clone(), shown.clone()));
        }
    }
    fields
}

#[test]
fn values_read_as_the_screen_says_for_every_field_it_knows() {
    let fields = screen_fields();
    assert!(fields.len() > 250, "{}", fields.len());
    let plain = ["text", "list", "time", "date", "money", "yesNo", "data"];
    let worded: Vec<(&str, &str, &str)> = fields
        .iter()
        .filter(|(_, _, shown)| !plain.contains(&shown.as_str()))
        .map(|(k, f, s)| (k.as_str(), f.as_str(), s.as_str()))
        .collect();
    let mut ours = SHOWN.to_vec();
    let mut theirs = worded.clone();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs);
    // Money and times are known here by their names: the screen agrees.
    for (kind, field, shown) in &fields {
        let time = field.ends_with("At") || field.ends_with("Until");
        assert_eq!(shown == "time", time, "{kind}.{field}");
        assert_eq!(shown == "money", field.ends_with("Cents"), "{kind}.{field}");
    }
}

#[test]
fn every_record_kind_action_and_actor_the_server_records_has_words_in_both_languages() {
    let actors = [
        HistoryActorKind::User,
        HistoryActorKind::ApiToken,
        HistoryActorKind::Scheduler,
        HistoryActorKind::Import,
        HistoryActorKind::Payer,
        HistoryActorKind::Webhooks,
        HistoryActorKind::Unrecorded,
    ];
    for language in LANGUAGES {
        for kind in HistoryRecordKind::ALL {
            let words = text(language, &["accountHistory", "record", kind.as_str()]);
            assert!(words.is_some(), "{language:?} record {kind:?}");
        }
        for action in HistoryAction::ALL {
            let words = text(language, &["accountHistory", "action", action.as_str()]);
            assert!(words.is_some(), "{language:?} action {action:?}");
        }
        for actor in actors {
            let words = text(language, &["accountHistory", "actor", &wire_name(&actor)]);
            assert!(words.is_some(), "{language:?} actor {actor:?}");
        }
        for column in crate::domain::history_export::COLUMNS {
            assert!(
                text(language, &["accountHistory", "csv", column]).is_some(),
                "{language:?} column {column}"
            );
        }
        // Every group of words a field's values read from is there.
        for (kind, field, shown) in SHOWN {
            let group = shown.trim_end_matches("[]");
            if ["bank", "permissions"].contains(&group) {
                continue;
            }
            let path: Vec<&str> = group.split('.').collect();
            let node = path
                .iter()
                .try_fold(crate::domain::locale::words(language), |n, p| n.get(p));
            assert!(
                node.is_some_and(Value::is_object),
                "{language:?} {kind}.{field}: {shown}"
            );
        }
        for section in Section::ALL {
            let key = camel_case(&wire_name(&section));
            let words = text(language, &["developers", "tokens", "sections", &key]);
            assert!(words.is_some(), "{language:?} section {section:?}");
        }
    }
}

#[test]
fn values_are_words_not_codes() {
    let en = HistoryWords::new(Language::En);
    let afr = HistoryWords::new(Language::Afr);
    assert_eq!(en.value("customer", "archived", Some(&json!(false))), "No");
    assert_eq!(afr.value("customer", "archived", Some(&json!(true))), "Ja");
    assert_eq!(
        en.value("payment", "amountCents", Some(&json!(15050))),
        "150.50"
    );
    assert_eq!(
        en.value("payment", "amountCents", Some(&json!(-5))),
        "-0.05"
    );
    assert_eq!(
        en.value("customer", "createdAt", Some(&json!(1_772_445_600_123_i64))),
        "2026-03-02T10:00:00.123Z"
    );
    assert_eq!(en.value("customer", "name", None), "");
    assert_eq!(en.value("customer", "name", Some(&Value::Null)), "");
    assert_eq!(
        en.value("customer", "name", Some(&json!("=1+1"))),
        "=1+1",
        "the file's cells guard formulas, not the words"
    );
    assert_eq!(
        en.value("bank_account", "bank", Some(&json!("absa"))),
        "Absa"
    );
    assert_eq!(
        en.value("business_clock", "today", Some(&json!("2026-03-02"))),
        "2026-03-02"
    );
    let grants = protocol::Permissions::all(Access::None)
        .with(Section::Customers, Access::Write)
        .with(Section::PayPages, Access::Write)
        .with(Section::History, Access::Read);
    let grants = serde_json::to_value(grants).ok();
    assert_eq!(
        en.value("role", "grants", grants.as_ref()),
        "Changes: Customers, Payment pages. Reads: History."
    );
    let nothing = serde_json::to_value(protocol::Permissions::all(Access::None)).ok();
    assert_eq!(
        en.value("member", "permissions", nothing.as_ref()),
        "No access to anything."
    );
    // Structured data field by field, each read as a field of its name.
    let steps = json!([
        {"status": "pending", "date": "2026-03-02", "unpaidCode": null},
        {"status": "paid", "date": "2026-03-04"}
    ]);
    assert_eq!(
        en.value("transaction", "history", Some(&steps)),
        "Date: 2026-03-02, Status: Pending; Date: 2026-03-04, Status: Paid"
    );
    // A follow-up's kind is worded as a follow-up, not as a payment's kind.
    let follow_ups = json!([{"kind": "pay_link_sent", "email": "thabo@example.co.za"}]);
    assert_eq!(
        en.value("transaction", "followUps", Some(&follow_ups)),
        "E-mail address: thabo@example.co.za, Type: Pay link sent"
    );
    let schedule = json!({"interval": "monthly", "dayOfMonth": 25, "minimumCents": 10_000});
    assert_eq!(
        afr.value("payout_settings", "schedule", Some(&schedule)),
        "Dag van die maand: 25, Interval: Maandeliks, Minimum: 100.00"
    );
    assert_eq!(en.field("mandate", "industry"), "Type of payment");
    assert_eq!(en.field("customer", "industry"), "Industry");
    assert_eq!(en.field("customer", "notAField"), "notAField");
}

#[test]
fn settings_and_accounts_show_no_internal_id() {
    let entry = |kind: &str, id: &str| HistoryEntry {
        id: "hst_1".into(),
        at: 0,
        actor_kind: HistoryActorKind::Scheduler,
        actor_id: None,
        actor_name: None,
        address: None,
        user_agent: None,
        record_kind: kind.into(),
        record_id: Some(id.into()),
        record_name: None,
        action: HistoryAction::Updated,
        fields: Vec::new(),
        section: None,
    };
    assert_eq!(
        shown_record_id(&entry("business_clock", "business_clock")),
        ""
    );
    assert_eq!(shown_record_id(&entry("account", "usr_1")), "");
    assert_eq!(shown_record_id(&entry("customer", "cus_1")), "cus_1");
    let words = HistoryWords::new(Language::En);
    assert_eq!(
        words.record(&entry("business_clock", "business_clock")),
        "Business date"
    );
    assert_eq!(words.who(&entry("customer", "cus_1")), "Scheduler");
}
