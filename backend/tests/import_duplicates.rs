//! Imports never debit a payer twice by accident: a file uploaded again is
//! recognised by its content and refused unless the user chooses to import
//! it again, and rows repeating a payment (or an earlier row of the file)
//! are shown in the preview and skipped unless the user includes them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::import_support;

use common::{Database, Socket, TestApp, committed_id, error_of};
use import_support::*;
use protocol::*;

/// What the EFT one-time layout names a payment by.
const KEY_COLUMNS: &str = "Customer reference, Transaction reference, Date to process";

async fn import_of(tab: &mut Socket, import_id: &str) -> Import {
    let frame = tab
        .query(
            "import",
            Query::GetImport {
                import_id: import_id.into(),
            },
        )
        .await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::Import { import }),
        ..
    } = frame
    else {
        panic!("expected the import, got {frame:?}");
    };
    *import
}

fn rows_and_codes(issues: &[ImportIssue]) -> Vec<(u32, ErrorCode)> {
    issues.iter().map(|i| (i.row, i.code)).collect()
}

async fn a_file_uploaded_again_is_refused_unless_chosen(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    // More rows than a preview page, so its repeats come in two pages.
    let count = 150;
    let csv = file_of("PAYER", count);

    let first = upload(&mut tab, "march.csv", csv.as_bytes()).await.unwrap();
    assert_eq!((first.duplicates, first.duplicate_of.is_none()), (0, true));
    let first_id = committed_id(confirm(&mut tab, &first.upload_id).await);
    let first_import = completed(&mut tab, &first_id).await;
    assert_eq!(first_import.committed, count as u32);

    // The same bytes under another name: the file is known by its content.
    let again = upload(&mut tab, "march (1).csv", csv.as_bytes())
        .await
        .unwrap();
    let earlier = again.duplicate_of.clone().expect("the earlier import");
    assert_eq!(
        (earlier.id.as_str(), earlier.file_name.as_str()),
        (first_id.as_str(), "march.csv")
    );
    assert_eq!(earlier.created_at, first_import.created_at);
    assert_eq!(
        again.duplicates, count as u32,
        "every row repeats a payment"
    );
    assert_eq!(again.duplicate_rows.len(), 100, "one page");
    assert_eq!(again.duplicates_next_offset, Some(100));
    assert!(
        again.duplicate_rows.iter().all(|issue| {
            issue.code == ErrorCode::DuplicatePayment && issue.column == KEY_COLUMNS
        })
    );
    let ServerFrame::Reply {
        ok:
            Some(ReplyBody::ImportIssuePage {
                items,
                total,
                next_offset,
            }),
        ..
    } = tab
        .query(
            "more-repeats",
            Query::GetImportPreviewDuplicates {
                upload_id: again.upload_id.clone(),
                offset: 100,
            },
        )
        .await
    else {
        panic!("expected the next page of repeats");
    };
    assert_eq!((items.len(), total, next_offset), (50, count as u32, None));
    let mut rows: Vec<u32> = again.duplicate_rows.iter().map(|i| i.row).collect();
    rows.extend(items.iter().map(|i| i.row));
    assert_eq!(rows, (2..=count as u32 + 1).collect::<Vec<_>>());

    // Confirming as before is refused, and writes nothing.
    let refused = error_of(confirm(&mut tab, &again.upload_id).await);
    assert_eq!(refused.code, ErrorCode::ImportDuplicateFile);
    assert_eq!(all_payments(&mut tab).await.len(), count);

    // The user chooses to import the file again, repeats included.
    let choice = Choice {
        include_duplicates: true,
        allow_duplicate_file: true,
    };
    let again_id =
        committed_id(confirm_choosing(&mut tab, "again", &again.upload_id, choice).await);
    let again_import = completed(&mut tab, &again_id).await;
    assert_eq!(
        (
            again_import.committed,
            again_import.skipped,
            again_import.failed
        ),
        (count as u32, 0, 0)
    );
    // The choice is kept with the import.
    let kept = import_of(&mut tab, &again_id).await;
    assert!(kept.include_duplicates);
    assert_eq!(kept.duplicate_of.as_deref(), Some(first_id.as_str()));
    assert_eq!(import_of(&mut tab, &first_id).await.duplicate_of, None);
    assert_eq!(payments_of(&mut tab, &again_id).await.len(), count);
    assert_eq!(payments_of(&mut tab, &first_id).await.len(), count);
}

async fn rows_repeating_payments_are_skipped_unless_included(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let first = file_of("PAYER", 4);
    let preview = upload(&mut tab, "first.csv", first.as_bytes())
        .await
        .unwrap();
    let first_id = committed_id(confirm(&mut tab, &preview.upload_id).await);
    completed(&mut tab, &first_id).await;

    // Rows 2 and 4 repeat stored payments (another amount is still the
    // same payment), row 5 is new, row 6 repeats row 5, row 7 pays PAYER-0
    // on another date: a payment of its own.
    let mut csv = format!("{HEADER}\n");
    csv.push_str(&row("PAYER-0", "99.00", "2026-03-10"));
    csv.push_str(&row("OTHER-1", "150.00", "2026-03-10"));
    csv.push_str(&row("PAYER-3", "150.00", "2026-03-10"));
    csv.push_str(&row("NEW-1", "150.00", "2026-03-10"));
    csv.push_str(&row("NEW-1", "150.00", "2026-03-10"));
    csv.push_str(&row("PAYER-0", "150.00", "2026-03-11"));
    let preview = upload(&mut tab, "second.csv", csv.as_bytes())
        .await
        .unwrap();
    assert_eq!(preview.duplicate_of, None, "another file");
    assert_eq!((preview.valid, preview.duplicates), (6, 3));
    let expected = vec![
        (2, ErrorCode::DuplicatePayment),
        (4, ErrorCode::DuplicatePayment),
        (6, ErrorCode::DuplicateRow),
    ];
    assert_eq!(rows_and_codes(&preview.duplicate_rows), expected);

    // By default the repeats are skipped, counted and listed as problems.
    let second_id = committed_id(confirm(&mut tab, &preview.upload_id).await);
    let second = completed(&mut tab, &second_id).await;
    assert_eq!((second.committed, second.skipped, second.failed), (3, 3, 0));
    assert!(!second.include_duplicates);
    let (issues, total) = import_issues(&mut tab, &second_id).await;
    assert_eq!((rows_and_codes(&issues), total), (expected, 3));
    let mut written: Vec<u32> = payments_of(&mut tab, &second_id)
        .await
        .iter()
        .map(|p| p.import_row.unwrap())
        .collect();
    written.sort_unstable();
    assert_eq!(written, vec![3, 5, 7]);

    // The same rows in another file, confirmed with the repeats included:
    // all of them are written.
    let third = format!("{csv}\n");
    let preview = upload(&mut tab, "third.csv", third.as_bytes())
        .await
        .unwrap();
    assert_eq!(preview.duplicates, 6, "every row now repeats a payment");
    let choice = Choice {
        include_duplicates: true,
        allow_duplicate_file: false,
    };
    let third_id =
        committed_id(confirm_choosing(&mut tab, "third", &preview.upload_id, choice).await);
    let third = completed(&mut tab, &third_id).await;
    assert_eq!((third.committed, third.skipped), (6, 0));
    assert!(third.include_duplicates);
    assert_eq!(payments_of(&mut tab, &third_id).await.len(), 6);
    assert_eq!(all_payments(&mut tab).await.len(), 4 + 3 + 6);
}

on_both_databases!(
    a_file_uploaded_again_is_refused_unless_chosen,
    rows_repeating_payments_are_skipped_unless_included,
);
