//! Spreadsheet imports through the live socket: a file uploaded in pieces,
//! checked and previewed with nothing written, its invalid rows downloaded,
//! then confirmed and written in batches while a second tab of the merchant
//! watches the progress; another merchant sees none of it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::import_support;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::{Database, Socket, TestApp, committed_id, error_of};
use import_support::*;
use paydesk::domain::imports::cells::Cell;
use paydesk::domain::imports::reader::read_rows;
use protocol::*;

/// `valid` good rows over `valid / 2` customers (each customer twice, on
/// two dates: two payments, not a repeated one), then three bad rows: row
/// numbers of the bad ones are `valid + 2 ..= valid + 4`.
fn eft_once_csv(valid: usize) -> String {
    let mut csv = format!("{HEADER}\n");
    for i in 0..valid {
        let customer = i / 2;
        csv.push_str(&format!(
            "CUST-{customer},Thandi,Mokoena{customer},t{customer}@example.co.za,T Mokoena,400000{:04},Current,Absa,632005,{}.50,2026-03-1{},Subscription,yes\n",
            customer % 10_000,
            100 + i % 50,
            i % 2,
        ));
    }
    csv.push_str("BAD-1,Jan,Smit,jan@mailinator.com,J Smit,4000000001,Current,Absa,632005,10,2026-03-10,Subscription,no\n");
    csv.push_str("BAD-2,Jan,Smit,jan@example.co.za,J Smit,4000000001,Current,Absa,250655,10,2026-02-27,Subscription,no\n");
    csv.push_str("BAD 3,,Smit,jan@example.co.za,J Smit,4000000001,Current,Barclays,632005,ten,2026-03-10,Groceries,maybe\n");
    csv
}

/// The customers, archived ones too, whose reference is exactly `reference`.
async fn customers_named(socket: &mut Socket, reference: &str) -> Vec<Customer> {
    let ReplyBody::CustomerPage { items, .. } = ok(socket
        .query(
            "customer",
            Query::ListCustomers {
                search: Some(reference.to_lowercase()),
                status: CustomerStatus::All,
                cursor: None,
                limit: Some(200),
            },
        )
        .await)
    else {
        panic!("expected customers");
    };
    items
        .into_iter()
        .filter(|c| c.reference == reference)
        .collect()
}

async fn a_file_is_previewed_confirmed_and_watched(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let other = app.merchant("other@example.co.za").await;
    let mut stranger = other.open(Mode::Test).await;

    // A customer the file updates by reference.
    create_customer(&mut tab, "Old Name", "old@example.co.za", "CUST-0").await;

    let valid = 2_345;
    let csv = eft_once_csv(valid);
    let preview = upload(&mut tab, "march.csv", csv.as_bytes()).await.unwrap();
    assert_eq!(
        (preview.rows, preview.valid, preview.invalid),
        (valid as u32 + 3, valid as u32, 3)
    );
    let first_bad = valid as u32 + 2;
    let issue = |row: u32, column: &str, code: ErrorCode| ImportIssue {
        row,
        column: column.into(),
        code,
    };
    assert!(
        preview
            .issues
            .contains(&issue(first_bad, "Email", ErrorCode::BlockedEmailDomain))
    );
    assert!(preview.issues.contains(&issue(
        first_bad + 1,
        "Bank branch code",
        ErrorCode::BranchCodeMismatch
    )));
    assert!(preview.issues.contains(&issue(
        first_bad + 1,
        "Date to process",
        ErrorCode::DateInPast
    )));
    for (column, code) in [
        ("Customer reference", ErrorCode::InvalidCharacters),
        ("Person name", ErrorCode::Required),
        ("Bank name", ErrorCode::InvalidChoice),
        ("Amount", ErrorCode::InvalidAmount),
        ("Type of payment", ErrorCode::InvalidChoice),
        (
            "Set the payment status to running?",
            ErrorCode::InvalidBoolean,
        ),
    ] {
        assert!(
            preview.issues.contains(&issue(first_bad + 2, column, code)),
            "{column}"
        );
    }
    assert_eq!(preview.issue_count as usize, preview.issues.len());

    // Nothing is written before the user confirms.
    assert!(payments_of(&mut tab, "imp_none").await.is_empty());
    let ReplyBody::CustomerPage { items, .. } = ok(tab
        .query(
            "customers",
            Query::ListCustomers {
                search: None,
                status: CustomerStatus::default(),
                cursor: None,
                limit: Some(10),
            },
        )
        .await)
    else {
        panic!("expected customers");
    };
    assert_eq!(items.len(), 1, "only the customer made by hand");

    // The invalid rows as a spreadsheet, with their problems in a last column.
    let upload_id = preview.upload_id.clone();
    let (name, sheet) = download(&mut tab, |offset| Query::DownloadImportIssues {
        id: upload_id.clone(),
        offset,
    })
    .await;
    assert_eq!(name, "march-invalid-rows.xlsx");
    let mut rows = Vec::new();
    read_rows(&name, &sheet, &mut |row| {
        rows.push(row.cells.iter().map(Cell::display).collect::<Vec<_>>());
        Ok(())
    })
    .unwrap();
    assert_eq!(rows.len(), 4, "a header and the three bad rows");
    assert_eq!(rows[0].first().map(String::as_str), Some("Row"));
    assert_eq!(rows[0].last().map(String::as_str), Some("Errors"));
    assert_eq!(rows[1][0], first_bad.to_string());
    assert!(
        rows[1].last().unwrap().starts_with("Email: "),
        "{:?}",
        rows[1]
    );

    // Someone else cannot use this upload.
    let refused = error_of(confirm(&mut stranger, &upload_id).await);
    assert_eq!(refused.code, ErrorCode::ImportUploadNotFound);

    // Confirmed: written in batches; the other tab follows every step.
    let import_id = committed_id(confirm(&mut tab, &upload_id).await);
    let mut last_committed = 0;
    let mut batches = 0;
    loop {
        let frame = watcher
            .next_matching(|f| matches!(f, ServerFrame::Delta { .. }))
            .await;
        let ServerFrame::Delta { changes, .. } = frame else {
            unreachable!()
        };
        let Some(import) = changes.iter().find_map(|c| match c {
            Change::ImportUpserted { import } => Some(import.clone()),
            _ => None,
        }) else {
            continue;
        };
        assert_eq!(import.id, import_id);
        assert!(
            import.committed >= last_committed,
            "progress never goes back"
        );
        if import.committed > last_committed {
            batches += 1;
            assert!(
                changes.contains(&Change::Invalidate {
                    kind: EntityKind::Payment
                }),
                "each batch asks lists of payments to refetch"
            );
        }
        last_committed = import.committed;
        if import.status == ImportStatus::Completed {
            assert_eq!(
                (import.committed, import.failed, import.invalid),
                (valid as u32, 0, 3)
            );
            assert!(import.finished_at.is_some());
            break;
        }
    }
    assert!(batches >= 3, "{batches} batches of at most 1,000 rows");

    let payments = payments_of(&mut tab, &import_id).await;
    assert_eq!(payments.len(), valid);
    let mut rows: Vec<u32> = payments.iter().map(|p| p.import_row.unwrap()).collect();
    rows.sort_unstable();
    rows.dedup();
    assert_eq!(rows.len(), valid, "one payment per row");
    assert!(payments.iter().all(|p| p.status == PaymentStatus::Running && p.method == PaymentMethod::EftDebitOrder));

    // The customer with the file's reference was updated, not doubled.
    let found = customers_named(&mut tab, "CUST-0").await;
    assert_eq!(found.len(), 1, "one customer per reference");
    let updated = &found[0];
    assert_eq!(updated.name, "Thandi Mokoena0");
    assert_eq!(updated.email, "t0@example.co.za");

    // The import's page: its summary and its problems by row.
    let ReplyBody::Import { import } = ok(tab
        .query(
            "get",
            Query::GetImport {
                import_id: import_id.clone(),
            },
        )
        .await)
    else {
        panic!("expected the import");
    };
    assert_eq!(import.file_name, "march.csv");
    let (items, total) = import_issues(&mut tab, &import_id).await;
    assert_eq!(total as usize, preview.issue_count as usize);
    assert_eq!(items.first().map(|i| i.row), Some(first_bad));
    let ReplyBody::ImportPage { items, .. } = ok(tab
        .query(
            "list",
            Query::ListImports {
                kind: PaymentKind::Once,
                cursor: None,
                limit: None,
            },
        )
        .await)
    else {
        panic!("expected imports");
    };
    assert_eq!(
        items.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
        vec![import_id.as_str()]
    );

    // Another merchant sees nothing of it.
    assert_eq!(
        error_of(
            stranger
                .query(
                    "peek",
                    Query::GetImport {
                        import_id: import_id.clone()
                    }
                )
                .await
        )
        .code,
        ErrorCode::NotFound
    );
    assert!(payments_of(&mut stranger, &import_id).await.is_empty());
    stranger.expect_silence(Duration::from_millis(200)).await;

    // The confirm is the member's event; every batch and the finish are the import's.
    let (user_id, _) = app.owner_ids("owner@example.co.za").await;
    let causes = app.event_causes("owner@example.co.za", Mode::Test).await;
    let confirmed = causes
        .iter()
        .find(|c| c.command_id.as_deref() == Some("confirm"))
        .expect("the confirm's event");
    assert_eq!(confirmed.actor_kind, "user");
    assert_eq!(confirmed.actor_id.as_deref(), Some(user_id.as_str()));
    assert_eq!(confirmed.client_address.as_deref(), Some("127.0.0.1"));
    let batches: Vec<_> = causes.iter().filter(|c| c.actor_kind == "import").collect();
    // Three batches of 1,000 rows and the finish.
    assert_eq!(batches.len(), 4, "{causes:?}");
    for batch in batches {
        assert_eq!(batch.actor_id.as_deref(), Some(import_id.as_str()));
        assert!(batch.seq > confirmed.seq);
        assert_eq!((&batch.command_id, &batch.client_address), (&None, &None));
    }
}

async fn refused_files_say_why_and_write_nothing(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let missing = upload(
        &mut tab,
        "short.csv",
        b"Customer reference,Email\nC-1,a@example.co.za\n",
    )
    .await
    .unwrap_err();
    assert_eq!(missing.code, ErrorCode::ImportMissingColumn);
    assert_eq!(
        missing.fields.first().map(|f| f.field.as_str()),
        Some("Bank account holder name")
    );
    let unknown = upload(&mut tab, "notes.txt", b"hello").await.unwrap_err();
    assert_eq!(unknown.code, ErrorCode::ImportUnsupportedFormat);
    let broken = upload(&mut tab, "broken.xlsx", b"PK\x03\x04 not really a zip")
        .await
        .unwrap_err();
    assert_eq!(broken.code, ErrorCode::ImportUnreadable);
    let too_big = error_of(
        tab.command(
            "big",
            Command::BeginImport {
                kind: PaymentKind::Once,
                template: ImportTemplate::Debicheck,
                file_name: "big.xlsx".into(),
                size: IMPORT_MAX_FILE_BYTES + 1,
            },
        )
        .await,
    );
    assert_eq!(too_big.code, ErrorCode::ImportTooLarge);
    let only_bad = upload(
        &mut tab,
        "bad.csv",
        format!("{HEADER}\nX,,,,,,,,,,,,\n").as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!((only_bad.valid, only_bad.invalid), (0, 1));
    let nothing = error_of(confirm(&mut tab, &only_bad.upload_id).await);
    assert_eq!(nothing.code, ErrorCode::ImportNothingValid);

    // Templates download for every layout and read back with their headers.
    for template in ImportTemplate::ALL {
        let (name, bytes) = download(&mut tab, |offset| Query::DownloadImportTemplate {
            template,
            kind: PaymentKind::Recurring,
            offset,
        })
        .await;
        assert!(name.ends_with("-recurring-template.xlsx"), "{name}");
        let mut header = Vec::new();
        read_rows(&name, &bytes, &mut |row| {
            if header.is_empty() {
                header = row.cells.iter().map(Cell::display).collect();
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(
            header.first().map(String::as_str),
            Some("Customer reference *")
        );
    }
}

/// `csv` with a transaction reference of its own on every data row: rows
/// naming one customer on one date are then distinct payments, not repeats
/// (see `import_duplicates.rs`).
fn with_transaction_references(csv: &str) -> String {
    let mut lines = csv.lines();
    let mut out = format!(
        "{},Transaction reference\n",
        lines.next().unwrap_or_default()
    );
    for (index, line) in lines.enumerate() {
        out.push_str(&format!("{line},TX-{index}\n"));
    }
    out
}

/// Uploads `csv`, whose `rows` rows must all be valid, confirms it and
/// waits until the import completes. Each row is its own payment
/// (`with_transaction_references`).
async fn import_valid_csv(tab: &mut Socket, name: &str, csv: &str, rows: u32) -> (String, Import) {
    let csv = with_transaction_references(csv);
    let preview = upload(tab, name, csv.as_bytes()).await.unwrap();
    assert_eq!(preview.duplicates, 0);
    assert_eq!((preview.valid, preview.invalid), (rows, 0));
    let import_id = committed_id(confirm(tab, &preview.upload_id).await);
    let import = completed(tab, &import_id).await;
    (import_id, import)
}

async fn a_customer_on_many_rows_ends_with_its_last_rows_details(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    // Known before the import, with the details its last row repeats.
    create_customer(&mut tab, "Thandi Kept", "t@example.co.za", "KNOWN").await;

    // 2,500 rows, so three batches: NEW changes its name in each, KNOWN
    // changes it in the first batch and names it as stored in the last.
    let mut csv = format!("{HEADER}\n");
    for i in 0..2_500 {
        let row = match i {
            0 => eft_once_row("NEW", "First", 1),
            10 => eft_once_row("KNOWN", "Changed", 2),
            1_500 => eft_once_row("NEW", "Middle", 1),
            2_300 => eft_once_row("KNOWN", "Kept", 2),
            2_400 => eft_once_row("NEW", "Last", 1),
            _ => eft_once_row(&format!("FILL-{i}"), "Filler", 3 + i),
        };
        csv.push_str(&row);
    }
    let (import_id, import) = import_valid_csv(&mut tab, "repeats.csv", &csv, 2_500).await;
    assert_eq!((import.committed, import.failed), (2_500, 0));

    for (reference, name, payments) in [("NEW", "Thandi Last", 3), ("KNOWN", "Thandi Kept", 2)] {
        let found = customers_named(&mut tab, reference).await;
        assert_eq!(found.len(), 1, "{reference}: one customer");
        assert_eq!(
            found[0].name, name,
            "{reference}: the last row's details stand"
        );
        let theirs = payments_of(&mut tab, &import_id)
            .await
            .into_iter()
            .filter(|p| p.customer_id == found[0].id)
            .count();
        assert_eq!(theirs, payments, "{reference}: a payment per row");
    }
}

async fn an_archived_customers_rows_fail_in_every_batch(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let gone_id = create_customer(&mut tab, "Thandi Gone", "t@example.co.za", "GONE").await;
    committed_id(
        tab.command(
            "archive",
            Command::ArchiveCustomer {
                customer_id: gone_id.clone(),
            },
        )
        .await,
    );

    // 1,500 rows, so two batches, each naming the archived customer.
    let mut csv = format!("{HEADER}\n");
    for i in 0..1_500 {
        let row = match i {
            5 | 1_200 => eft_once_row("GONE", "Back", 1),
            _ => eft_once_row(&format!("FILL-{i}"), "Filler", 2 + i),
        };
        csv.push_str(&row);
    }
    let (import_id, import) = import_valid_csv(&mut tab, "archived.csv", &csv, 1_500).await;
    assert_eq!((import.committed, import.failed), (1_498, 2));

    let (items, _) = import_issues(&mut tab, &import_id).await;
    let failed: Vec<(u32, ErrorCode)> = items.iter().map(|i| (i.row, i.code)).collect();
    // Spreadsheet rows: the header is row 1.
    assert_eq!(
        failed,
        [
            (7, ErrorCode::CustomerArchived),
            (1_202, ErrorCode::CustomerArchived)
        ]
    );
    let theirs = payments_of(&mut tab, &import_id)
        .await
        .into_iter()
        .filter(|p| p.customer_id == gone_id)
        .count();
    assert_eq!(theirs, 0, "no payment for the archived customer");
    let still = customers_named(&mut tab, "GONE").await;
    assert_eq!(still.len(), 1, "the archived customer is not made again");
    assert_eq!(still[0].name, "Thandi Gone", "nor changed");
}

async fn accounts_of(tab: &mut Socket, customer_id: &str) -> Vec<BankAccount> {
    let query = Query::ListBankAccounts {
        customer_id: customer_id.into(),
    };
    let ReplyBody::BankAccounts { accounts } = ok(tab.query("accounts", query).await) else {
        panic!("expected bank accounts");
    };
    accounts
}

/// The bank account of each of the customer's imported payments, in row order.
async fn accounts_paid_from(tab: &mut Socket, import_id: &str, customer_id: &str) -> Vec<String> {
    let mut mandate_ids: Vec<(Option<u32>, String)> = payments_of(tab, import_id)
        .await
        .into_iter()
        .filter(|p| p.customer_id == customer_id)
        .map(|p| (p.import_row, p.mandate_id))
        .collect();
    mandate_ids.sort();
    let mut accounts = Vec::new();
    for (_, mandate_id) in mandate_ids {
        let query = Query::GetMandate { mandate_id };
        let ReplyBody::Mandate { mandate } = ok(tab.query("mandate", query).await) else {
            panic!("expected a mandate");
        };
        accounts.push(mandate.bank_account_id);
    }
    accounts
}

async fn accounts_are_matched_by_bank_and_number_across_batches(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let known_id = create_customer(&mut tab, "Thandi Known", "t@example.co.za", "KNOWN").await;
    // The account the file names first, stored under another holder's name.
    let kept = committed_id(
        tab.command(
            "account",
            Command::AddBankAccount {
                customer_id: known_id.clone(),
                input: BankAccountInput {
                    bank: Some(BankId::Absa),
                    branch_code: "632005".into(),
                    account_type: AccountType::Current,
                    holder_name: "Old Holder".into(),
                    account_number: "5000000001".into(),
                },
            },
        )
        .await,
    );

    // 2,500 rows, so three batches. KNOWN pays from its stored account in
    // the first two and from a new one in the third; NEW is made in the
    // first batch and pays from one account, then a second.
    let mut csv = format!("{HEADER}\n");
    for i in 0..2_500 {
        let row = match i {
            0 | 1_500 => eft_once_row("KNOWN", "Kept", 1),
            2_400 => eft_once_row("KNOWN", "Kept", 2),
            5 | 1_600 => eft_once_row("NEW", "Made", 7),
            1_700 => eft_once_row("NEW", "Made", 8),
            _ => eft_once_row(&format!("FILL-{i}"), "Filler", 10 + i),
        };
        csv.push_str(&row);
    }
    let (import_id, import) = import_valid_csv(&mut tab, "accounts.csv", &csv, 2_500).await;
    assert_eq!((import.committed, import.failed), (2_500, 0));

    let known_accounts = accounts_of(&mut tab, &known_id).await;
    let numbers: Vec<&str> = known_accounts
        .iter()
        .map(|a| a.account_number.as_str())
        .collect();
    assert_eq!(numbers, ["5000000001", "5000000002"]);
    assert_eq!(known_accounts[0].id, kept, "the stored account is reused");
    assert_eq!(
        known_accounts[0].holder_name, "T Mokoena",
        "and takes the file's holder"
    );
    let (first, second) = (known_accounts[0].id.clone(), known_accounts[1].id.clone());
    assert_eq!(
        accounts_paid_from(&mut tab, &import_id, &known_id).await,
        [first.clone(), first, second]
    );

    let made = customers_named(&mut tab, "NEW").await.remove(0);
    let made_accounts = accounts_of(&mut tab, &made.id).await;
    let numbers: Vec<&str> = made_accounts
        .iter()
        .map(|a| a.account_number.as_str())
        .collect();
    assert_eq!(numbers, ["5000000007", "5000000008"]);
    let (first, second) = (made_accounts[0].id.clone(), made_accounts[1].id.clone());
    assert_eq!(
        accounts_paid_from(&mut tab, &import_id, &made.id).await,
        [first.clone(), first, second]
    );
}

/// Batches are planned ahead while the one before is written, and the plan
/// is made again whenever someone else wrote to the stream in between: here
/// another tab of the team makes customers for as long as the import runs.
async fn an_import_stays_exact_while_the_team_writes_beside_it(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut beside = owner.open(Mode::Test).await;
    // 4,000 rows, so four batches, over 400 customers with an account each.
    let mut csv = format!("{HEADER}\n");
    for i in 0..4_000 {
        let customer = i % 400;
        csv.push_str(&eft_once_row(
            &format!("CUST-{customer}"),
            "Filler",
            customer,
        ));
    }
    let done = AtomicBool::new(false);
    let import = async {
        let imported = import_valid_csv(&mut tab, "beside.csv", &csv, 4_000).await;
        done.store(true, Ordering::SeqCst);
        imported
    };
    let team = async {
        let mut made = 0;
        while !done.load(Ordering::SeqCst) {
            let reference = format!("TEAM-{made}");
            create_customer(&mut beside, "Team Made", "team@example.co.za", &reference).await;
            made += 1;
        }
        made
    };
    let ((import_id, import), made) = tokio::join!(import, team);
    assert_eq!((import.committed, import.failed), (4_000, 0));
    assert!(made > 0, "the team wrote while the import ran");

    let payments = payments_of(&mut tab, &import_id).await;
    let rows: HashSet<Option<u32>> = payments.iter().map(|p| p.import_row).collect();
    assert_eq!(
        (payments.len(), rows.len()),
        (4_000, 4_000),
        "each row once"
    );
    let customers: HashSet<&str> = payments.iter().map(|p| p.customer_id.as_str()).collect();
    assert_eq!(customers.len(), 400, "one customer per reference");
    for reference in ["CUST-0", "CUST-399"] {
        let found = customers_named(&mut tab, reference).await;
        assert_eq!(found.len(), 1, "{reference}");
        assert_eq!(
            accounts_of(&mut tab, &found[0].id).await.len(),
            1,
            "{reference}"
        );
    }
    for i in 0..made {
        let reference = format!("TEAM-{i}");
        assert_eq!(
            customers_named(&mut tab, &reference).await.len(),
            1,
            "{reference}"
        );
    }
}

/// The payments list answers for one import at a time (the import page's
/// list), scoped by merchant and mode like every list.
async fn the_payments_list_answers_for_one_import(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@example.co.za").await;
    let mut tab = owner.open(Mode::Test).await;
    let mut ids = Vec::new();
    for (prefix, count) in [("MARCH", 3), ("APRIL", 4)] {
        let csv = file_of(prefix, count);
        let preview = upload(&mut tab, "file.csv", csv.as_bytes()).await.unwrap();
        let id = committed_id(confirm(&mut tab, &preview.upload_id).await);
        completed(&mut tab, &id).await;
        ids.push((id, count));
    }
    assert_eq!(all_payments(&mut tab).await.len(), 7);
    for (id, count) in &ids {
        let payments = payments_of(&mut tab, id).await;
        assert_eq!(payments.len(), *count, "{id}");
        assert!(payments.iter().all(|p| p.import_id.as_deref() == Some(id)));
    }
    assert!(payments_of(&mut tab, "imp_unknown").await.is_empty());

    // Scoped like every list: another mode, another merchant see none.
    let mut live = owner.open(Mode::Live).await;
    assert!(payments_of(&mut live, &ids[0].0).await.is_empty());
    let other = app.merchant("other@example.co.za").await;
    let mut stranger = other.open(Mode::Test).await;
    assert!(payments_of(&mut stranger, &ids[0].0).await.is_empty());
}

on_both_databases!(
    a_file_is_previewed_confirmed_and_watched,
    an_import_stays_exact_while_the_team_writes_beside_it,
    accounts_are_matched_by_bank_and_number_across_batches,
    a_customer_on_many_rows_ends_with_its_last_rows_details,
    an_archived_customers_rows_fail_in_every_batch,
    refused_files_say_why_and_write_nothing,
    the_payments_list_answers_for_one_import,
);
