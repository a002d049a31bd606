//! The history's CSV export through the real app: every entry a filter
//! matches (more than one screen's page), each named field before and
//! after, in pieces from a cursor; another merchant's entries and the
//! sections the member may not read are not in it; a value that starts
//! like a formula stays text. And the Person filter keeps the people
//! removed from the team whose entries remain.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use crate::common;
use crate::history::history;
use crate::team_support;

use common::{Database, Socket, TestApp, committed_id, customer_input};
use protocol::{
    Access, Command, CustomerInput, HistoryAction, HistoryExportPiece, HistoryFilter,
    HistoryPerson, IMPORT_CHUNK_BYTES, Language, Mode, Query, ReplyBody, Role, Section,
    ServerFrame,
};
use team_support::{add_custom_member, add_member, on_merchant_of};

const OWNER: &str = "owner@karoo.co.za";
const UPDATES: usize = 82;

/// The file's pieces, asked for from each piece's cursor until the last.
async fn export(
    socket: &mut Socket,
    filter: &HistoryFilter,
    language: Language,
) -> (Vec<HistoryExportPiece>, String) {
    let mut pieces = Vec::new();
    let mut cursor = None;
    loop {
        let reply = socket
            .query(
                &format!("x{}", pieces.len()),
                Query::DownloadHistory {
                    filter: filter.clone(),
                    language,
                    cursor: cursor.clone(),
                },
            )
            .await;
        let ServerFrame::Reply {
            ok: Some(ReplyBody::HistoryExport { piece }),
            ..
        } = reply
        else {
            panic!("export: {reply:?}")
        };
        cursor = piece.next_cursor.clone();
        pieces.push(*piece);
        if cursor.is_none() {
            break;
        }
        assert!(pieces.len() < 100, "the pieces never end");
    }
    let bytes: Vec<u8> = pieces.iter().flat_map(|p| p.data.clone()).collect();
    let text = String::from_utf8(bytes).unwrap();
    let text = text
        .strip_prefix('\u{feff}')
        .expect("a UTF-8 mark")
        .to_string();
    (pieces, text)
}

fn rows_of(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().iter().map(String::from).collect();
    let rows = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// A customer with every address field filled, so each update names many
/// fields and the file takes several pieces.
fn full_input(name: &str, n: usize) -> CustomerInput {
    let street = format!("{n} Long Street, Unit {n}, Karoo Business Park, Block {n}");
    CustomerInput {
        address_line1: format!("{street}, North Wing, Floor {n}"),
        address_line2: format!("{street}, Loading Bay {n}"),
        city: format!("Beaufort West {n}"),
        cellphone: format!("08212345{:02}", n % 100),
        ..customer_input(name, &format!("sipho{n}@example.co.za"))
    }
}

fn name_at(n: usize) -> String {
    // One name starts like a formula: `-` is allowed in a name.
    if n == 41 {
        "-1-1 Sipho".into()
    } else {
        format!("Sipho Dlamini {n}")
    }
}

async fn every_filtered_entry_is_exported_with_before_and_after(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let id = committed_id(
        tab.command(
            "c0",
            Command::CreateCustomer {
                input: full_input(&name_at(0), 0),
            },
        )
        .await,
    );
    for n in 1..=UPDATES {
        let command = Command::UpdateCustomer {
            customer_id: id.clone(),
            input: full_input(&name_at(n), n),
            base_version: None,
        };
        committed_id(tab.command(&format!("u{n}"), command).await);
    }
    // Another merchant's customer, changed the same way.
    let other = app.merchant("other@shop.co.za").await;
    let mut other_tab = other.open(Mode::Test).await;
    let theirs = committed_id(
        other_tab
            .command(
                "o1",
                Command::CreateCustomer {
                    input: customer_input("Elsewhere Person", "else@example.co.za"),
                },
            )
            .await,
    );
    committed_id(
        other_tab
            .command(
                "o2",
                Command::UpdateCustomer {
                    customer_id: theirs,
                    input: customer_input("Elsewhere Renamed", "else@example.co.za"),
                    base_version: None,
                },
            )
            .await,
    );

    let filter = HistoryFilter {
        record_kind: Some("customer".into()),
        action: Some(HistoryAction::Updated),
        ..Default::default()
    };
    // The screen pages through them: more than one page.
    let first_page = history(&mut tab, "h0", filter.clone()).await;
    assert_eq!(first_page.len(), 50);

    let (pieces, text) = export(&mut tab, &filter, Language::En).await;
    assert!(pieces.len() > 1, "{} piece(s)", pieces.len());
    assert!(
        pieces
            .iter()
            .all(|p| p.data.len() <= IMPORT_CHUNK_BYTES as usize)
    );
    assert_eq!(pieces.iter().map(|p| p.entries).sum::<u32>(), 82);
    assert!(pieces[0].file_name.starts_with("paydesk-history-test-"));
    assert_eq!(pieces[0].content_type, "text/csv; charset=utf-8");
    let (header, rows) = rows_of(&text);
    assert_eq!(
        header,
        [
            "Entry",
            "Time (UTC)",
            "Who",
            "Address",
            "Browser",
            "Record",
            "Record name",
            "Record ID",
            "Action",
            "Field",
            "Before",
            "After"
        ]
    );
    let entries: BTreeSet<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(entries.len(), UPDATES, "every filtered entry");
    assert!(first_page.iter().all(|e| entries.contains(e.id.as_str())));
    assert!(rows.iter().all(|r| r[5] == "Customer" && r[8] == "Updated"));
    assert!(rows.iter().all(|r| r[2] == "Thandi Nkosi" && r[7] == id));
    // Newest first, each update's name before and after it.
    let names: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r[9] == "Name")
        .map(|r| (r[10].as_str(), r[11].as_str()))
        .collect();
    assert_eq!(names.len(), UPDATES);
    for (i, (before, after)) in names.iter().enumerate() {
        let n = UPDATES - i;
        let shown = |name: String| {
            if name.starts_with('-') {
                format!("'{name}")
            } else {
                name
            }
        };
        assert_eq!(*before, shown(name_at(n - 1)), "update {n}");
        assert_eq!(*after, shown(name_at(n)), "update {n}");
    }
    // The rest of what each update changed is there too.
    for field in ["E-mail address", "Address line 1", "Town/City"] {
        let count = rows.iter().filter(|r| r[9] == field).count();
        assert_eq!(count, UPDATES, "{field}: {:?}", rows.first());
    }
    let city = rows.iter().find(|r| r[9] == "Town/City").unwrap();
    assert_eq!(
        (city[10].as_str(), city[11].as_str()),
        ("Beaufort West 81", "Beaufort West 82")
    );
    // The formula-like name is text in its own cells, in the name column too.
    assert!(text.contains("'-1-1 Sipho"));
    assert!(!text.contains(",-1-1 Sipho"));
    assert!(!text.contains("Elsewhere"), "another merchant's entries");

    // The same file in Afrikaans.
    let (_, afr) = export(&mut tab, &filter, Language::Afr).await;
    let (header, rows) = rows_of(&afr);
    assert_eq!(header[9..], ["Veld", "Voor", "Na"]);
    assert!(rows.iter().all(|r| r[5] == "Kliënt" && r[8] == "Bygewerk"));
    assert!(rows.iter().any(|r| r[9] == "Naam"));

    // A bad cursor is refused, not read from the start.
    let reply = tab
        .query(
            "bad",
            Query::DownloadHistory {
                filter: filter.clone(),
                language: Language::En,
                cursor: Some("not a cursor".into()),
            },
        )
        .await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: None, .. }),
        "{reply:?}"
    );
}

/// A member who reads the history but not customers gets a file without
/// the customers' entries; what every member sees (the business date) is
/// in it, in words.
async fn the_export_keeps_to_the_sections_the_member_reads(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let auditor = app.merchant("audit@karoo.co.za").await;
    let matrix = protocol::Permissions::all(Access::None)
        .with(Section::History, Access::Read)
        .with(Section::Settings, Access::Read);
    add_custom_member(&app, OWNER, "audit@karoo.co.za", "Auditor", &matrix).await;
    let mut tab = owner.open(Mode::Test).await;
    let input = customer_input("Sipho Dlamini", "sipho@example.co.za");
    committed_id(tab.command("c1", Command::CreateCustomer { input }).await);
    let step = protocol::ClockStep::Day;
    let advanced = tab.command("d1", Command::AdvanceTestClock { step }).await;
    assert!(
        matches!(
            advanced,
            ServerFrame::Reply {
                ok: Some(ReplyBody::Committed { .. }),
                ..
            }
        ),
        "{advanced:?}"
    );

    let (mut audit, _) = on_merchant_of(&app, OWNER, &auditor).await;
    let (_, text) = export(&mut audit, &HistoryFilter::default(), Language::En).await;
    let (_, rows) = rows_of(&text);
    assert!(rows.iter().all(|r| r[5] != "Customer"), "{rows:?}");
    assert!(!text.contains("Sipho"));
    let clock = rows.iter().find(|r| r[5] == "Business date").unwrap();
    // No internal id for a one-per-business record, and its field by its label.
    assert_eq!(clock[7], "", "{clock:?}");
    assert!(!text.contains("business_clock"), "{text}");
    assert_eq!(clock[11].len(), 10, "{clock:?}");
    let only_customers = HistoryFilter {
        record_kind: Some("customer".into()),
        ..Default::default()
    };
    let (pieces, text) = export(&mut audit, &only_customers, Language::En).await;
    assert_eq!(pieces.iter().map(|p| p.entries).sum::<u32>(), 0);
    assert_eq!(rows_of(&text).1.len(), 0);

    // The owner's file has the customer, created with every field after.
    let (_, text) = export(&mut tab, &only_customers, Language::En).await;
    let (_, rows) = rows_of(&text);
    let name = rows.iter().find(|r| r[9] == "Name").unwrap();
    assert_eq!(
        (name[8].as_str(), name[10].as_str(), name[11].as_str()),
        ("Created", "", "Sipho Dlamini")
    );
}

fn person<'a>(people: &'a [HistoryPerson], user_id: &str) -> Option<&'a HistoryPerson> {
    people.iter().find(|p| p.user_id == user_id)
}

async fn people(socket: &mut Socket) -> Vec<HistoryPerson> {
    match socket
        .query(
            "people",
            Query::ListHistory {
                filter: HistoryFilter::default(),
                cursor: None,
                limit: Some(1),
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::HistoryPage { people, .. }),
            ..
        } => people,
        other => panic!("history: {other:?}"),
    }
}

/// Someone removed from the team stays in the Person filter while their
/// entries remain, marked as no longer a member, even when the removal was
/// made in the other mode; someone removed who did nothing is not listed.
async fn a_removed_member_stays_in_the_person_filter(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let lerato = app.browser();
    let signed_up = lerato
        .sign_up(
            "Lerato Mokoena",
            "lerato@karoo.co.za",
            "karoo-sunset-41",
            "Lerato's",
        )
        .await;
    assert_eq!(signed_up.status(), 200);
    add_member(&app, OWNER, "lerato@karoo.co.za", Role::Operations).await;
    let idle = app.merchant("idle@karoo.co.za").await;
    add_member(&app, OWNER, "idle@karoo.co.za", Role::Viewer).await;
    let (lerato_id, _) = app.owner_ids("lerato@karoo.co.za").await;
    let (idle_id, _) = app.owner_ids("idle@karoo.co.za").await;
    drop(idle);

    let (mut hers, _) = on_merchant_of(&app, OWNER, &lerato).await;
    let input = customer_input("Sipho Dlamini", "sipho@example.co.za");
    committed_id(hers.command("c1", Command::CreateCustomer { input }).await);

    let mut tab = owner.open(Mode::Test).await;
    let before = people(&mut tab).await;
    let member = person(&before, &lerato_id).unwrap();
    assert_eq!(
        (member.name.as_str(), member.former),
        ("Lerato Mokoena", false)
    );

    let mut live = owner.open(Mode::Live).await;
    for (n, user_id) in [lerato_id.clone(), idle_id.clone()].into_iter().enumerate() {
        let command = Command::RemoveMember { user_id };
        committed_id(live.command(&format!("r{n}"), command).await);
    }

    let after = people(&mut tab).await;
    let former = person(&after, &lerato_id).unwrap_or_else(|| panic!("{after:?}"));
    assert_eq!(
        (former.name.as_str(), former.former),
        ("Lerato Mokoena", true)
    );
    assert!(person(&after, &idle_id).is_none(), "{after:?}");
    let (owner_id, _) = app.owner_ids(OWNER).await;
    assert!(person(&after, &owner_id).is_some_and(|p| !p.former));
    // Her entries are still found by her.
    let by_her = history(
        &mut tab,
        "h1",
        HistoryFilter {
            person: Some(lerato_id.clone()),
            ..Default::default()
        },
    )
    .await;
    assert!(
        by_her.iter().any(|e| e.record_kind == "customer"),
        "{by_her:?}"
    );
}

on_both_databases!(
    every_filtered_entry_is_exported_with_before_and_after,
    the_export_keeps_to_the_sections_the_member_reads,
    a_removed_member_stays_in_the_person_filter
);
