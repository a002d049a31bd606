//! What the spreadsheet import tests share: uploading a file over the
//! socket in pieces, confirming it, waiting for the commit, and reading
//! back its payments and problems.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use protocol::*;

use crate::common::{Socket, committed_id, error_of};

pub fn ok(frame: ServerFrame) -> ReplyBody {
    match frame {
        ServerFrame::Reply { ok: Some(body), .. } => body,
        other => panic!("expected an answer, got {other:?}"),
    }
}

pub const HEADER: &str = "Customer reference,Person name,Person surname,Email,Bank account holder name,\
Bank account number,Bank account type,Bank name,Bank branch code *,Amount,Date to process,Type of payment,\
Set the payment status to running?";

/// Uploads `bytes` in pieces and checks them: the preview.
pub async fn upload(
    socket: &mut Socket,
    name: &str,
    bytes: &[u8],
) -> Result<ImportPreview, WireError> {
    let begin = ok(socket
        .command(
            "begin",
            Command::BeginImport {
                kind: PaymentKind::Once,
                template: ImportTemplate::EftDebitOrder,
                file_name: name.into(),
                size: bytes.len() as u32,
            },
        )
        .await);
    let ReplyBody::ImportUpload {
        upload_id,
        chunk_bytes,
    } = begin
    else {
        panic!("expected an upload, got {begin:?}");
    };
    for (index, piece) in bytes.chunks(chunk_bytes as usize).enumerate() {
        let offset = (index * chunk_bytes as usize) as u32;
        let reply = ok(socket
            .command(
                &format!("piece-{index}"),
                Command::UploadImportChunk {
                    upload_id: upload_id.clone(),
                    offset,
                    data: piece.to_vec(),
                },
            )
            .await);
        assert_eq!(
            reply,
            ReplyBody::ImportChunkReceived {
                received: offset + piece.len() as u32
            }
        );
    }
    match socket
        .command("check", Command::CheckImport { upload_id })
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ImportPreview { preview }),
            ..
        } => Ok(*preview),
        other => Err(error_of(other)),
    }
}

pub async fn download(socket: &mut Socket, query: impl Fn(u32) -> Query) -> (String, Vec<u8>) {
    let mut bytes = Vec::new();
    let mut offset = Some(0);
    let mut name = String::new();
    while let Some(at) = offset {
        let ReplyBody::FileChunk { chunk } = ok(socket.query(&format!("dl-{at}"), query(at)).await)
        else {
            panic!("expected a file chunk");
        };
        assert!(chunk.total as usize >= bytes.len() + chunk.data.len());
        bytes.extend_from_slice(&chunk.data);
        name = chunk.file_name;
        offset = chunk.next_offset;
    }
    (name, bytes)
}

pub async fn payments_of(socket: &mut Socket, import_id: &str) -> Vec<Payment> {
    let mut all = Vec::new();
    let mut cursor = None;
    loop {
        let reply = ok(socket
            .query(
                "payments",
                Query::ListPayments {
                    kind: PaymentKind::Once,
                    filter: PaymentFilter {
                        import_id: Some(import_id.into()),
                        ..Default::default()
                    },
                    sort: SortOrder::default(),
                    cursor: cursor.clone(),
                    limit: Some(200),
                },
            )
            .await);
        let ReplyBody::PaymentPage { items, next_cursor } = reply else {
            panic!("expected payments");
        };
        all.extend(items);
        if next_cursor.is_none() {
            return all;
        }
        cursor = next_cursor;
    }
}

/// Makes a customer by hand, as a merchant would before importing; its id.
pub async fn create_customer(
    socket: &mut Socket,
    name: &str,
    email: &str,
    reference: &str,
) -> String {
    committed_id(
        socket
            .command(
                // A command's id makes it idempotent: one per customer.
                &format!("create-{reference}"),
                Command::CreateCustomer {
                    input: CustomerInput {
                        name: name.into(),
                        email: email.into(),
                        reference: reference.into(),
                        ..Default::default()
                    },
                },
            )
            .await,
    )
}

/// One data row of `eft_once_csv`'s layout for `reference`, named `surname`.
pub fn eft_once_row(reference: &str, surname: &str, account: usize) -> String {
    format!(
        "{reference},Thandi,{surname},t@example.co.za,T Mokoena,500000{account:04},Current,Absa,632005,120.00,2026-03-10,Subscription,no\n"
    )
}

/// Asks for a checked upload to be imported, as the user chooses by default:
/// rows repeating a payment skipped, a file imported before refused.
pub async fn confirm(tab: &mut Socket, upload_id: &str) -> ServerFrame {
    confirm_choosing(tab, "confirm", upload_id, Choice::default()).await
}

/// What the user may choose when confirming (`Command::ConfirmImport`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Choice {
    pub include_duplicates: bool,
    pub allow_duplicate_file: bool,
}

/// Confirms with the command id `id` and the user's `choice`.
pub async fn confirm_choosing(
    tab: &mut Socket,
    id: &str,
    upload_id: &str,
    choice: Choice,
) -> ServerFrame {
    let upload_id = upload_id.to_string();
    tab.command(
        id,
        Command::ConfirmImport {
            upload_id,
            include_duplicates: choice.include_duplicates,
            allow_duplicate_file: choice.allow_duplicate_file,
        },
    )
    .await
}

/// The first page of an import's problems, and how many there are.
pub async fn import_issues(tab: &mut Socket, import_id: &str) -> (Vec<ImportIssue>, u32) {
    let ReplyBody::ImportIssuePage { items, total, .. } = ok(tab
        .query(
            "issues",
            Query::ListImportIssues {
                import_id: import_id.to_string(),
                offset: 0,
                limit: None,
            },
        )
        .await)
    else {
        panic!("expected issues");
    };
    (items, total)
}

/// Waits on `socket` until the import's delta says it completed.
pub async fn completed(socket: &mut Socket, import_id: &str) -> Import {
    loop {
        let frame = socket
            .next_matching(|f| matches!(f, ServerFrame::Delta { .. }))
            .await;
        let ServerFrame::Delta { changes, .. } = frame else {
            unreachable!()
        };
        for change in changes {
            if let Change::ImportUpserted { import } = change
                && import.id == import_id
                && import.status == ImportStatus::Completed
            {
                return *import;
            }
        }
    }
}

/// One valid row of `HEADER`'s layout, debiting `reference` on `date`.
pub fn row(reference: &str, amount: &str, date: &str) -> String {
    format!(
        "{reference},Thandi,Nkosi,t@example.co.za,T Nkosi,6200001234,Current,Absa,632005,{amount},{date},Subscription,yes\n"
    )
}

/// `count` rows over customers `{prefix}-0 …`, one payment each.
pub fn file_of(prefix: &str, count: usize) -> String {
    let mut csv = format!("{HEADER}\n");
    for i in 0..count {
        csv.push_str(&row(&format!("{prefix}-{i}"), "150.00", "2026-03-10"));
    }
    csv
}

/// Every payment of the kind, whatever its import.
pub async fn all_payments(tab: &mut Socket) -> Vec<Payment> {
    let frame = tab
        .query(
            "all-payments",
            Query::ListPayments {
                kind: PaymentKind::Once,
                filter: PaymentFilter::default(),
                sort: SortOrder::default(),
                cursor: None,
                limit: Some(200),
            },
        )
        .await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::PaymentPage { items, .. }),
        ..
    } = frame
    else {
        panic!("expected payments, got {frame:?}");
    };
    items
}
