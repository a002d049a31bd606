//! The statement of a period through the live socket: its sections add up
//! to what the ledger holds, its closing balance is the balance the ledger
//! sums to, and its CSV keeps a payer's formula-like name as text.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support;
use crate::common;

use collection_support::{customer, monthly_debicheck, running};
use common::orders::{balance, order_of, pay_by_card_as, refund_part};
use common::{Database, Socket, TestApp, advance_clock, committed_id, error_of};
use protocol::*;

/// Every entry of the period, page by page.
async fn statement(socket: &mut Socket, from: &str, to: &str) -> Statement {
    let mut offset = 0;
    let mut whole: Option<Statement> = None;
    loop {
        let page = match socket
            .query(
                &format!("s-{from}-{to}-{offset}"),
                Query::GetStatement {
                    from: from.into(),
                    to: to.into(),
                    offset,
                },
            )
            .await
        {
            ServerFrame::Reply {
                ok: Some(ReplyBody::Statement { statement }),
                ..
            } => *statement,
            other => panic!("{other:?}"),
        };
        let next = page.next_offset;
        match &mut whole {
            Some(statement) => statement.lines.extend(page.lines),
            None => whole = Some(page),
        }
        match next {
            Some(at) => offset = at,
            None => return whole.unwrap(),
        }
    }
}

async fn download(socket: &mut Socket, from: &str, to: &str, format: StatementFormat) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut offset = 0;
    loop {
        let reply = socket
            .query(
                &format!("d-{offset}"),
                Query::DownloadStatement {
                    from: from.into(),
                    to: to.into(),
                    format,
                    language: Language::En,
                    offset,
                },
            )
            .await;
        let ServerFrame::Reply {
            ok: Some(ReplyBody::FileChunk { chunk }),
            ..
        } = reply
        else {
            panic!("{reply:?}");
        };
        bytes.extend(chunk.data);
        match chunk.next_offset {
            Some(at) => offset = at,
            None => return bytes,
        }
    }
}

fn kind_sum(statement: &Statement, kind: &str) -> i64 {
    statement
        .lines
        .iter()
        .filter(|l| l.kind == kind)
        .map(|l| l.amount_cents)
        .sum()
}

/// March with a card order refunded in part, a DebiCheck debit paid and
/// one disputed: each section is the sum of its kind's entries, the closing
/// balance is the opening balance plus every entry, and it is the balance.
async fn a_statement_adds_up_to_the_ledger(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let other = app.merchant("other@elsewhere.test").await;
    let mut stranger = other.open(Mode::Test).await;

    // A payer whose name a spreadsheet program would read as a formula (a
    // pay page takes letters and `-`).
    let page_id = pay_by_card_as(&app, &mut tab, "-Lerato Dlamini").await;
    let order = order_of(&mut tab, &page_id).await;
    let refunded = tab.command("r", refund_part(&order.id, Some(5_000))).await;
    assert!(
        matches!(refunded, ServerFrame::Reply { ok: Some(_), .. }),
        "{refunded:?}"
    );
    let customer_id = customer(&mut tab).await;
    for (account, contract) in [("4000000001", "GYM2026"), ("4000000006", "GYM2027")] {
        let input = Box::new(monthly_debicheck(&customer_id, account, contract));
        let id = committed_id(
            tab.command(contract, Command::CreatePayment { input })
                .await,
        );
        running(&mut tab, &id).await;
    }
    for day in ["2026-03-09", "2026-03-16", "2026-03-23"] {
        advance_clock(&mut tab, &mut watcher, ClockStep::Week, day).await;
    }

    let march = statement(&mut tab, "2026-03-01", "2026-03-31").await;
    assert_eq!(march.opening_balance_cents, 0);
    assert_eq!(
        march.collected,
        vec![
            StatementMethodTotal {
                method: PaymentMethod::Card,
                count: 1,
                amount_cents: 15_000,
            },
            StatementMethodTotal {
                method: PaymentMethod::Debicheck,
                count: 2,
                amount_cents: 20_000,
            },
        ]
    );
    // The card's R6.43 and two DebiCheck fees of R9; a third of the card
    // fee came back with the refund and the disputed debit's whole fee.
    assert_eq!(march.fees_cents, -643 - 1_800);
    assert_eq!(march.fee_returns_cents, 214 + 900);
    assert_eq!(march.refunds_cents, -5_000);
    assert_eq!(march.disputes_cents, -10_000);
    assert_eq!(march.reversals_cents, 0);
    assert_eq!(
        march
            .payouts
            .iter()
            .map(|p| (p.kind.as_str(), p.amount_cents))
            .collect::<Vec<_>>(),
        vec![("payout", 0), ("payout_fee", 0), ("payout_return", 0)]
    );
    assert!(march.other.is_empty());
    // Each section is the sum of its entries.
    assert_eq!(march.lines.len() as u32, march.lines_total);
    assert_eq!(march.fees_cents, kind_sum(&march, "fee"));
    assert_eq!(march.refunds_cents, kind_sum(&march, "refund"));
    assert_eq!(march.disputes_cents, kind_sum(&march, "dispute"));
    assert_eq!(
        march.fee_returns_cents,
        kind_sum(&march, "fee_return") + kind_sum(&march, "refund_fee_return")
    );
    // Closing = opening + the period's entries = the ledger's balance.
    let entries: i64 = march.lines.iter().map(|l| l.amount_cents).sum();
    assert_eq!(
        march.closing_balance_cents,
        march.opening_balance_cents + entries
    );
    let (available, pending) = balance(&mut tab).await;
    assert_eq!(march.closing_balance_cents, available + pending);
    assert_eq!(march.closing_balance_cents, 18_671);
    // Whose statement it is: the business's details, as the owner keeps them.
    assert_eq!(
        march.business,
        StatementBusiness {
            legal_name: "Karoo Gym".into(),
            registration_number: String::new(),
            vat_number: String::new(),
        }
    );
    let details = BusinessInfo {
        legal_name: "Karoo Gym (Pty) Ltd".into(),
        registration_number: "2019/123456/07".into(),
        vat_number: "4123456789".into(),
        statement_name: "karoo gym".into(),
        ..Default::default()
    };
    let saved = tab
        .command(
            "details",
            Command::UpdateBusinessInfo {
                info: details,
                base_version: None,
            },
        )
        .await;
    assert!(
        matches!(saved, ServerFrame::Reply { ok: Some(_), .. }),
        "{saved:?}"
    );
    let business = statement(&mut tab, "2026-03-01", "2026-03-31")
        .await
        .business;
    assert_eq!(
        (
            business.legal_name.as_str(),
            business.registration_number.as_str(),
            business.vat_number.as_str()
        ),
        ("Karoo Gym (Pty) Ltd", "2019/123456/07", "4123456789")
    );
    let refund_line = march.lines.iter().find(|l| l.kind == "refund").unwrap();
    assert_eq!(refund_line.order_id.as_deref(), Some(order.id.as_str()));
    assert_eq!(refund_line.name, "-Lerato Dlamini");

    // A later period opens where the earlier one's entries leave it.
    let later = statement(&mut tab, "2026-03-03", "2026-03-31").await;
    assert_eq!(later.opening_balance_cents, 15_000 - 643 - 5_000 + 214);
    assert_eq!(later.closing_balance_cents, march.closing_balance_cents);

    // The CSV carries the same figures, the payer's name as text.
    let csv = String::from_utf8(
        download(&mut tab, "2026-03-01", "2026-03-31", StatementFormat::Csv).await,
    )
    .unwrap();
    assert!(csv.contains("Closing balance,186.71\n"), "{csv}");
    assert!(csv.contains("Refunds,-50.00\n"), "{csv}");
    assert!(csv.contains(",'-Lerato Dlamini,"), "{csv}");
    assert!(!csv.contains(",-Lerato"), "{csv}");
    let xlsx = download(&mut tab, "2026-03-01", "2026-03-31", StatementFormat::Xlsx).await;
    assert!(xlsx.starts_with(b"PK"), "an xlsx is a zip");

    // A period that ends before it starts is refused on its end date.
    let backwards = error_of(
        tab.query(
            "bad",
            Query::GetStatement {
                from: "2026-03-31".into(),
                to: "2026-03-01".into(),
                offset: 0,
            },
        )
        .await,
    );
    assert_eq!(backwards.fields[0].field, "to");
    assert_eq!(backwards.fields[0].code, ErrorCode::EndNotAfterStart);

    // Another merchant's statement is its own; so is live mode's.
    let theirs = statement(&mut stranger, "2026-03-01", "2026-03-31").await;
    assert_eq!((theirs.lines_total, theirs.closing_balance_cents), (0, 0));
    let mut live = owner.open(Mode::Live).await;
    let live_march = statement(&mut live, "2026-03-01", "2026-03-31").await;
    assert_eq!(live_march.lines_total, 0);
}

/// Every kind the ledger can hold, of every method it can carry (a
/// collection's five, a payout's none), before and inside the period: the
/// statement places each one, its sections and the closing balance add up,
/// its CSV and xlsx list every entry, and insights read the period too.
async fn every_ledger_kind_is_placed(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut tab = owner.open(Mode::Test).await;
    let (_, merchant_id) = app.owner_ids("owner@karoo.test").await;
    let store = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let mut kinds: Vec<(&str, &str)> = paydesk::domain::ledger::EntryKind::ALL
        .iter()
        .flat_map(|kind| PaymentMethod::ALL.map(|m| (kind.as_str(), m.as_str())))
        .collect();
    for kind in paydesk::store::payouts::PAYOUT_KINDS {
        kinds.push((kind, paydesk::store::ledger::PAYOUT_METHOD));
    }
    let mut inserted = 0;
    let mut tx = store.begin_write().await.unwrap();
    for (at, (kind, method)) in kinds.iter().enumerate() {
        for (day, cents) in [
            ("2026-02-27", 100 + at as i64),
            ("2026-03-02", -7 * at as i64 + 50),
        ] {
            inserted += 1;
            sqlx::query(
                "INSERT INTO ledger_entries (id, merchant_id, mode, kind, amount_cents, method, \
                 transaction_id, order_id, source_id, entry_date, available_on, created_at) \
                 VALUES ($1, $2, 'test', $3, $4, $5, NULL, NULL, $6, $7, $7, $8)",
            )
            .bind(format!("led_table_{inserted}"))
            .bind(&merchant_id)
            .bind(*kind)
            .bind(cents)
            .bind(*method)
            .bind(format!("src_table_{inserted}"))
            .bind(day)
            .bind(inserted as i64)
            .execute(&mut *tx)
            .await
            .unwrap();
        }
    }
    tx.commit().await.unwrap();
    let opening: i64 = (0..kinds.len()).map(|at| 100 + at as i64).sum();
    let period: i64 = (0..kinds.len()).map(|at| -7 * at as i64 + 50).sum();

    let march = statement(&mut tab, "2026-03-01", "2026-03-31").await;
    assert_eq!(march.opening_balance_cents, opening);
    assert_eq!(march.lines_total as usize, kinds.len());
    assert_eq!(march.lines.len(), kinds.len());
    assert_eq!(march.closing_balance_cents, opening + period);
    let sections: i64 = march.collected.iter().map(|c| c.amount_cents).sum::<i64>()
        + march.fees_cents
        + march.fee_returns_cents
        + march.refunds_cents
        + march.reversals_cents
        + march.disputes_cents
        + march
            .payouts
            .iter()
            .chain(&march.other)
            .map(|t| t.amount_cents)
            .sum::<i64>();
    assert_eq!(sections, period, "every entry is in exactly one section");
    assert!(march.other.is_empty(), "{:?}", march.other);
    assert_eq!(march.collected.len(), PaymentMethod::ALL.len());
    for kind in paydesk::store::payouts::PAYOUT_KINDS {
        let section = march.payouts.iter().find(|p| p.kind == kind).unwrap();
        assert_eq!(section.amount_cents, kind_sum(&march, kind), "{kind}");
        let line = march.lines.iter().find(|l| l.kind == kind).unwrap();
        assert_eq!(line.method, None, "{kind}");
    }
    let (available, pending) = balance(&mut tab).await;
    assert_eq!(march.closing_balance_cents, available + pending);

    // The files carry every entry and the same closing balance.
    let csv = String::from_utf8(
        download(&mut tab, "2026-03-01", "2026-03-31", StatementFormat::Csv).await,
    )
    .unwrap();
    let closing = format!(
        "Closing balance,{}.{:02}\n",
        march.closing_balance_cents / 100,
        march.closing_balance_cents % 100
    );
    assert!(csv.contains(&closing), "{closing} in {csv}");
    assert!(
        csv.contains("Payout fee") || csv.contains("payout_fee"),
        "{csv}"
    );
    let entry_rows = csv.lines().filter(|l| l.starts_with("2026-03-02,")).count();
    assert_eq!(entry_rows, kinds.len(), "{csv}");
    let xlsx = download(&mut tab, "2026-03-01", "2026-03-31", StatementFormat::Xlsx).await;
    let mut book = calamine::open_workbook_auto_from_rs(std::io::Cursor::new(xlsx)).unwrap();
    let sheets = calamine::Reader::sheet_names(&book);
    let entries = calamine::Reader::worksheet_range(&mut book, &sheets[1]).unwrap();
    assert_eq!(
        entries.height(),
        kinds.len() + 1,
        "a title row and every entry"
    );

    // Insights read the same period without refusing any of it.
    let insights = tab
        .query(
            "insights",
            Query::GetInsights {
                from: "2026-03-01".into(),
                to: "2026-03-31".into(),
                bucket: InsightBucket::default(),
                method: None,
            },
        )
        .await;
    assert!(
        matches!(insights, ServerFrame::Reply { ok: Some(_), .. }),
        "{insights:?}"
    );
}

on_both_databases!(
    a_statement_adds_up_to_the_ledger,
    every_ledger_kind_is_placed
);
