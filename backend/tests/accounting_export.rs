//! The accounting export over the real socket: the debits the bank paid in
//! a date range as a bank-statement CSV (Xero and Sage's columns and date
//! order), formula-safe, scoped to the merchant and mode, refused for a bad
//! range and for roles without export access.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support;
use crate::common;

use collection_support::{customer, monthly_debicheck, running};
use common::{Database, Socket, TestApp, advance_clock, committed_id, error_of};
use paydesk::store::Db;
use protocol::*;

const OWNER: &str = "owner@karoo.test";

fn export(from: &str, to: &str, offset: u32) -> Query {
    Query::DownloadAccountingExport {
        from: from.into(),
        to: to.into(),
        offset,
    }
}

/// The whole file, piece by piece as the browser asks for it.
async fn download(socket: &mut Socket, from: &str, to: &str) -> (String, String, String) {
    let mut bytes = Vec::new();
    let mut offset = 0;
    loop {
        match socket.query("x", export(from, to, offset)).await {
            ServerFrame::Reply {
                ok: Some(ReplyBody::FileChunk { chunk }),
                ..
            } => {
                bytes.extend_from_slice(&chunk.data);
                match chunk.next_offset {
                    Some(next) => offset = next,
                    None => {
                        let text = String::from_utf8(bytes).unwrap();
                        return (chunk.file_name, chunk.content_type, text);
                    }
                }
            }
            other => panic!("{other:?}"),
        }
    }
}

fn rows(csv: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

const HEADER: [&str; 5] = ["Date", "Amount", "Payee", "Description", "Reference"];

async fn paid_debits_export_as_a_bank_statement(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;

    let customer_id = customer(&mut tab).await;
    // One debit the bank pays, one the payer disputes after it was paid.
    for (account, contract) in [("4000000001", "GYM2026"), ("4000000006", "GYM2027")] {
        let input = Box::new(monthly_debicheck(&customer_id, account, contract));
        let id = committed_id(
            tab.command(contract, Command::CreatePayment { input })
                .await,
        );
        running(&mut tab, &id).await;
    }
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-09").await;
    advance_clock(&mut tab, &mut watcher, ClockStep::Week, "2026-03-16").await;

    // A payer's name that a spreadsheet would run as a formula.
    let store = Db::connect(&app.database_url).await.unwrap();
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query(
        "UPDATE customers SET name = '=HYPERLINK(\"http://evil.test\",\"x\")' WHERE id = $1",
    )
    .bind(&customer_id)
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let (name, content_type, csv) = download(&mut tab, "2026-03-01", "2026-03-31").await;
    assert_eq!(name, "paydesk-test-2026-03-01-2026-03-31.csv");
    assert!(content_type.starts_with("text/csv"), "{content_type}");
    let lines = rows(&csv);
    assert_eq!(lines[0], HEADER);
    // The paid debit only: the disputed one took its money back.
    assert_eq!(lines.len(), 2, "{csv}");
    let row = &lines[1];
    assert_eq!(row[0], "06/03/2026");
    assert_eq!(row[1], "100.00");
    assert_eq!(row[2], "'=HYPERLINK(\"http://evil.test\",\"x\")");
    assert!(row[3].starts_with("DebiCheck tx"), "{}", row[3]);
    assert!(!row[4].is_empty());
    for cell in row {
        assert!(!paydesk::domain::downloads::starts_formula(cell), "{cell}");
    }

    // Settled before the range: only the header.
    let (_, _, later) = download(&mut tab, "2026-04-01", "2026-04-30").await;
    assert_eq!(rows(&later), vec![HEADER.map(String::from).to_vec()]);
    // The live mode and another merchant see nothing of it.
    let mut live = owner.open(Mode::Live).await;
    let (_, _, theirs) = download(&mut live, "2026-03-01", "2026-03-31").await;
    assert_eq!(rows(&theirs).len(), 1);
    let stranger = app.merchant("other@elsewhere.test").await;
    let mut other = stranger.open(Mode::Test).await;
    let (_, _, theirs) = download(&mut other, "2026-03-01", "2026-03-31").await;
    assert_eq!(rows(&theirs).len(), 1);
}

fn field_codes(frame: ServerFrame) -> Vec<(String, ErrorCode)> {
    error_of(frame)
        .fields
        .into_iter()
        .map(|f| (f.field, f.code))
        .collect()
}

async fn a_bad_range_or_a_role_without_exports_is_refused(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    for (from, to, field, code) in [
        ("2026-13-01", "2026-03-31", "from", ErrorCode::InvalidDate),
        ("2026-03-01", "31/03/2026", "to", ErrorCode::InvalidDate),
        (
            "2026-03-31",
            "2026-03-01",
            "to",
            ErrorCode::EndNotAfterStart,
        ),
        (
            "2025-03-01",
            "2026-03-02",
            "to",
            ErrorCode::DateRangeTooLong,
        ),
    ] {
        let refused = tab.query("x", export(from, to, 0)).await;
        assert_eq!(
            field_codes(refused),
            vec![(field.to_string(), code)],
            "{from}..{to}"
        );
    }
    // 366 days, both ends counted, is allowed.
    download(&mut tab, "2025-03-01", "2026-03-01").await;

    // Support has no export access: refused before anything is read.
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let member = app.merchant("support@karoo.test").await;
    let (user_id, _) = app.owner_ids("support@karoo.test").await;
    let store = Db::connect(&app.database_url).await.unwrap();
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&merchant_id)
    .bind(&user_id)
    .bind(Role::Support.as_str())
    .bind(paydesk::ids::now_ms())
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let mut socket = member.socket().await;
    socket
        .send(&ClientFrame::Hello {
            resume: None,
            build: "test".into(),
            merchant_id: Some(merchant_id),
            mode: Some(Mode::Test),
        })
        .await;
    socket
        .next_matching(|f| matches!(f, ServerFrame::Welcome { .. }))
        .await;
    let refused = socket
        .query("x", export("2026-03-01", "2026-03-31", 0))
        .await;
    assert_eq!(error_of(refused).code, ErrorCode::Forbidden);
}

on_both_databases!(
    paid_debits_export_as_a_bank_statement,
    a_bad_range_or_a_role_without_exports_is_refused,
);
