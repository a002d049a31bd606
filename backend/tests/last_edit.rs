//! Who last changed a record: what an open form names when a teammate
//! saves the record being edited. Over the real socket, on both databases.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::conflicts::{business_info, save_info, two_people};

use common::{Database, Socket, committed_id, customer_input, error_of};
use protocol::{
    Command, ErrorCode, HistoryActorKind, HistoryRecordKind, Mode, Query, RecordEdit, ReplyBody,
    ServerFrame,
};

async fn last_edit(socket: &mut Socket, kind: HistoryRecordKind, id: &str) -> ServerFrame {
    socket
        .query(
            "last-edit",
            Query::GetLastEdit {
                record_kind: kind,
                record_id: id.into(),
            },
        )
        .await
}

fn edit_of(reply: ServerFrame) -> RecordEdit {
    match reply {
        ServerFrame::Reply {
            ok: Some(ReplyBody::LastEdit { edit }),
            ..
        } => edit,
        other => panic!("expected the last edit, got {other:?}"),
    }
}

async fn a_teammates_save_is_named_with_its_fields(db: Database) {
    let (app, _owner, mut thandi, mut pieter) = two_people(db).await;
    let (thandi_id, _) = app.owner_ids("owner@karoo.co.za").await;
    let id = committed_id(
        thandi
            .command(
                "create",
                Command::CreateCustomer {
                    input: customer_input("Sipho Dlamini", "sipho@example.co.za"),
                },
            )
            .await,
    );
    let mut input = customer_input("Sipho Dlamini", "sipho@example.co.za");
    input.city = "Stellenbosch".into();
    input.cellphone = "0821234567".into();
    committed_id(
        thandi
            .command(
                "edit",
                Command::UpdateCustomer {
                    customer_id: id.clone(),
                    input,
                    base_version: None,
                },
            )
            .await,
    );

    let edit = edit_of(last_edit(&mut pieter, HistoryRecordKind::Customer, &id).await);
    assert_eq!(edit.actor_kind, HistoryActorKind::User);
    assert_eq!(edit.actor_id.as_deref(), Some(thandi_id.as_str()));
    assert_eq!(edit.actor_name.as_deref(), Some("Thandi Nkosi"));
    let mut fields = edit.fields.clone();
    fields.sort();
    assert_eq!(fields, ["cellphone", "city"], "only what her save changed");

    // A record that is not the stream's is not found, like any other id.
    let error = error_of(last_edit(&mut pieter, HistoryRecordKind::Customer, "cus_nowhere").await);
    assert_eq!(error.code, ErrorCode::NotFound);
}

on_both_databases!(a_teammates_save_is_named_with_its_fields);

/// Business info is one record for both modes: a save in live mode is the
/// newest edit of a form open in test mode.
async fn business_info_names_a_save_from_the_other_mode(db: Database) {
    let (_app, owner, _thandi, mut pieter) = two_people(db).await;
    let mut thandi_live = owner.open(Mode::Live).await;
    let mut info = business_info(&mut thandi_live).await;
    info.legal_name = "Karoo Gym (Pty) Ltd".into();
    info.statement_name = "KAROO GYM".into();
    let version = info.version;
    let reply = save_info(&mut thandi_live, "save", &info, version).await;
    assert!(
        matches!(reply, ServerFrame::Reply { ok: Some(_), .. }),
        "{reply:?}"
    );

    let edit = edit_of(
        last_edit(
            &mut pieter,
            HistoryRecordKind::BusinessInfo,
            "business_info",
        )
        .await,
    );
    assert_eq!(edit.actor_name.as_deref(), Some("Thandi Nkosi"));
    assert!(edit.fields.contains(&"legalName".to_string()), "{edit:?}");
}

on_both_databases!(business_info_names_a_save_from_the_other_mode);
