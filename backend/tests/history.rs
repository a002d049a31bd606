//! The account history through the real app: a command shows with who ran
//! it, from where and with which browser, and the record's fields before
//! and after; new entries reach another tab live; sign-ins and two-factor
//! changes are in it; members see only the sections they may read, and a
//! role without the history section is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::import_support;
use crate::team_support;

use common::{Database, Socket, TestApp, committed_id, customer_input, error_of};
use protocol::{
    Access, Change, Command, ErrorCode, HistoryAction, HistoryActorKind, HistoryDetail,
    HistoryEntry, HistoryFilter, Mode, Query, ReplyBody, Role, Section, ServerFrame,
};
use team_support::{add_custom_member, add_member, browser_with_agent, on_merchant_of};

const OWNER: &str = "owner@karoo.co.za";
const AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) HistoryTest/1.0";

pub(crate) async fn history(
    socket: &mut Socket,
    id: &str,
    filter: HistoryFilter,
) -> Vec<HistoryEntry> {
    match socket
        .query(
            id,
            Query::ListHistory {
                filter,
                cursor: None,
                limit: None,
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::HistoryPage { items, .. }),
            ..
        } => items,
        other => panic!("history: {other:?}"),
    }
}

pub(crate) async fn entry(socket: &mut Socket, id: &str) -> ServerFrame {
    socket
        .query(
            &format!("get_{id}"),
            Query::GetHistoryEntry {
                entry_id: id.into(),
            },
        )
        .await
}

pub(crate) fn detail(frame: ServerFrame) -> HistoryDetail {
    match frame {
        ServerFrame::Reply {
            ok: Some(ReplyBody::HistoryEntry { detail }),
            ..
        } => *detail,
        other => panic!("entry: {other:?}"),
    }
}

async fn a_command_shows_with_its_actor_address_and_before_after(db: Database) {
    let app = TestApp::start(db).await;
    let owner = browser_with_agent(&app, AGENT);
    let signed_up = owner
        .sign_up("Thandi Nkosi", OWNER, "karoo-sunset-41", "Karoo Gym")
        .await;
    assert_eq!(signed_up.status(), 200);
    let (user_id, _) = app.owner_ids(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let mut other_tab = owner.open(Mode::Test).await;

    let input = customer_input("Sipho Dlamini", "sipho@example.co.za");
    let customer_id = committed_id(tab.command("c1", Command::CreateCustomer { input }).await);
    let input = customer_input("Sipho M Dlamini", "sipho@example.co.za");
    committed_id(
        tab.command(
            "c2",
            Command::UpdateCustomer {
                customer_id: customer_id.clone(),
                input,
                base_version: None,
            },
        )
        .await,
    );

    // The other tab hears of the change as a new history entry.
    let live = other_tab
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. } if changes.iter().any(|c| matches!(
                c, Change::HistoryEntryAdded { entry } if entry.action == HistoryAction::Updated)))
        })
        .await;
    let ServerFrame::Delta { changes, .. } = live else {
        unreachable!()
    };
    // The record's own change still comes first.
    assert!(matches!(changes[0], Change::CustomerUpserted { .. }));

    let items = history(&mut tab, "h1", HistoryFilter::default()).await;
    let updated = &items[0];
    assert_eq!(updated.action, HistoryAction::Updated, "{items:?}");
    assert_eq!(updated.record_kind, "customer");
    assert_eq!(updated.record_id.as_deref(), Some(customer_id.as_str()));
    assert_eq!(updated.actor_kind, HistoryActorKind::User);
    assert_eq!(updated.actor_id.as_deref(), Some(user_id.as_str()));
    assert_eq!(updated.actor_name.as_deref(), Some("Thandi Nkosi"));
    assert_eq!(updated.address.as_deref(), Some("127.0.0.1"));
    assert_eq!(updated.user_agent.as_deref(), Some(AGENT));
    assert_eq!(updated.fields, vec!["name".to_string()]);
    assert_eq!(updated.section, Some(Section::Customers));
    let created = items
        .iter()
        .find(|e| e.action == HistoryAction::Created && e.record_kind == "customer")
        .unwrap();
    assert_eq!(created.record_id.as_deref(), Some(customer_id.as_str()));
    // The sign-up's session is the account's first sign-in.
    let signed_in = items
        .iter()
        .find(|e| e.action == HistoryAction::SignedIn)
        .unwrap();
    assert_eq!(signed_in.actor_id.as_deref(), Some(user_id.as_str()));
    assert_eq!(signed_in.user_agent.as_deref(), Some(AGENT));

    let full = detail(entry(&mut tab, &updated.id).await);
    assert_eq!(full.command_id.as_deref(), Some("c2"));
    let name = full.changes.iter().find(|c| c.field == "name").unwrap();
    assert_eq!(name.before.as_deref(), Some("\"Sipho Dlamini\""));
    assert_eq!(name.after.as_deref(), Some("\"Sipho M Dlamini\""));
    let email = full.changes.iter().find(|c| c.field == "email").unwrap();
    assert_eq!(email.before, email.after);

    // Filters: by action, by record kind, by a date range that ends before.
    let only_created = history(
        &mut tab,
        "h2",
        HistoryFilter {
            action: Some(HistoryAction::Created),
            ..Default::default()
        },
    )
    .await;
    assert!(!only_created.is_empty());
    assert!(
        only_created
            .iter()
            .all(|e| e.action == HistoryAction::Created)
    );
    let before_all = history(
        &mut tab,
        "h3",
        HistoryFilter {
            to: Some(signed_in.at),
            ..Default::default()
        },
    )
    .await;
    assert!(before_all.is_empty(), "{before_all:?}");
}

/// Failed sign-ins of a member show, with the address they came from; an
/// address with no account leaves nothing.
async fn failed_sign_ins_and_two_factor_changes_show(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let stranger = browser_with_agent(&app, AGENT);
    let refused = stranger.sign_in(OWNER, "not-the-password", "/").await;
    assert_eq!(refused.status(), 401);
    let mut tab = owner.open(Mode::Test).await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::TwoFactorEnrolment { secret, .. }),
        ..
    } = tab.command("2fa", Command::BeginTwoFactor {}).await
    else {
        panic!("no enrolment")
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let code = paydesk::auth::totp::code_at(&secret, now).unwrap();
    let confirmed = tab
        .command("2fa_ok", Command::ConfirmTwoFactor { code })
        .await;
    assert!(
        matches!(
            confirmed,
            ServerFrame::Reply {
                ok: Some(ReplyBody::BackupCodes { .. }),
                ..
            }
        ),
        "{confirmed:?}"
    );
    let items = history(&mut tab, "h1", HistoryFilter::default()).await;
    let failed = items
        .iter()
        .find(|e| e.action == HistoryAction::SignInFailed)
        .unwrap_or_else(|| panic!("{items:?}"));
    assert_eq!(failed.user_agent.as_deref(), Some(AGENT));
    assert_eq!(failed.address.as_deref(), Some("127.0.0.1"));
    assert_eq!(failed.record_kind, "account");
    let enabled = items
        .iter()
        .find(|e| e.action == HistoryAction::TwoFactorEnabled)
        .unwrap_or_else(|| panic!("{items:?}"));
    assert_eq!(enabled.section, Some(Section::Team));
}

/// A role without the history section is refused; a role with it sees only
/// entries of the sections it may read, and another's entry is not found.
async fn members_see_only_what_their_role_reads(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let viewer_no_history = app.merchant("viewer@karoo.co.za").await;
    let matrix = paydesk::domain::permissions::preset(Role::Viewer)
        .unwrap()
        .with(Section::History, Access::None);
    add_custom_member(
        &app,
        OWNER,
        "viewer@karoo.co.za",
        "Viewer without history",
        &matrix,
    )
    .await;
    let payments_auditor = app.merchant("audit@karoo.co.za").await;
    let auditor = protocol::Permissions::all(Access::None)
        .with(Section::History, Access::Read)
        .with(Section::Settings, Access::Read);
    add_custom_member(&app, OWNER, "audit@karoo.co.za", "Auditor", &auditor).await;
    let viewer = app.merchant("plain-viewer@karoo.co.za").await;
    add_member(&app, OWNER, "plain-viewer@karoo.co.za", Role::Viewer).await;

    let mut owner_tab = owner.open(Mode::Test).await;
    let input = customer_input("Sipho Dlamini", "sipho@example.co.za");
    committed_id(
        owner_tab
            .command("c1", Command::CreateCustomer { input })
            .await,
    );
    let customer_entry = history(&mut owner_tab, "h0", HistoryFilter::default()).await[0].clone();
    assert_eq!(customer_entry.record_kind, "customer");

    let (mut refused, _) = on_merchant_of(&app, OWNER, &viewer_no_history).await;
    let reply = refused
        .query(
            "h1",
            Query::ListHistory {
                filter: HistoryFilter::default(),
                cursor: None,
                limit: None,
            },
        )
        .await;
    assert_eq!(error_of(reply).code, ErrorCode::Forbidden);
    assert_eq!(
        error_of(entry(&mut refused, &customer_entry.id).await).code,
        ErrorCode::Forbidden
    );

    // History but not customers: the customer's entry is not theirs to see.
    let (mut audit, _) = on_merchant_of(&app, OWNER, &payments_auditor).await;
    let seen = history(&mut audit, "h2", HistoryFilter::default()).await;
    assert!(seen.iter().all(|e| e.record_kind != "customer"), "{seen:?}");
    assert_eq!(
        error_of(entry(&mut audit, &customer_entry.id).await).code,
        ErrorCode::NotFound
    );
    // Nor does it arrive live.
    let input = customer_input("Lerato", "lerato@example.co.za");
    committed_id(
        owner_tab
            .command("c2", Command::CreateCustomer { input })
            .await,
    );
    let delta = audit
        .next_matching(|f| matches!(f, ServerFrame::Delta { .. }))
        .await;
    assert!(
        matches!(&delta, ServerFrame::Delta { changes, .. } if changes.is_empty()),
        "{delta:?}"
    );

    // A viewer reads the history and the customer's entry, and can filter
    // by the person who made it.
    let (mut viewing, _) = on_merchant_of(&app, OWNER, &viewer).await;
    let (owner_id, _) = app.owner_ids(OWNER).await;
    let by_owner = history(
        &mut viewing,
        "h3",
        HistoryFilter {
            person: Some(owner_id.clone()),
            ..Default::default()
        },
    )
    .await;
    assert!(by_owner.iter().any(|e| e.id == customer_entry.id));
    assert!(
        by_owner
            .iter()
            .all(|e| e.actor_id.as_deref() == Some(owner_id.as_str()))
    );
    let (viewer_id, _) = app.owner_ids("plain-viewer@karoo.co.za").await;
    let by_viewer = history(
        &mut viewing,
        "h4",
        HistoryFilter {
            person: Some(viewer_id),
            record_kind: Some("customer".into()),
            ..Default::default()
        },
    )
    .await;
    assert!(by_viewer.is_empty(), "{by_viewer:?}");
}

/// A customer an import wrote (announced in bulk) and then edited is
/// updated, not created, even though the history never saw it alone.
async fn a_record_written_in_bulk_then_edited_is_updated(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let csv = format!(
        "{}\n{}",
        import_support::HEADER,
        import_support::row("BULK-1", "150.00", "2026-03-10")
    );
    let preview = import_support::upload(&mut tab, "bulk.csv", csv.as_bytes())
        .await
        .unwrap();
    let import_id = committed_id(import_support::confirm(&mut tab, &preview.upload_id).await);
    import_support::completed(&mut tab, &import_id).await;
    let customers = match tab
        .query(
            "cs",
            serde_json::from_value(serde_json::json!({"t": "ListCustomers"})).unwrap(),
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::CustomerPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    };
    let imported = &customers[0];
    let bulk = history(&mut tab, "h0", HistoryFilter::default()).await;
    assert!(
        bulk.iter()
            .any(|e| e.action == HistoryAction::BulkChanged && e.record_kind == "customer"),
        "{bulk:?}"
    );
    let input = customer_input("Renamed", &imported.email);
    committed_id(
        tab.command(
            "edit",
            Command::UpdateCustomer {
                customer_id: imported.id.clone(),
                input,
                base_version: None,
            },
        )
        .await,
    );
    let latest = history(&mut tab, "h1", HistoryFilter::default()).await;
    let edit = latest
        .iter()
        .find(|e| e.record_id.as_deref() == Some(imported.id.as_str()))
        .unwrap();
    assert_eq!(edit.action, HistoryAction::Updated, "{edit:?}");
}

on_both_databases!(
    a_record_written_in_bulk_then_edited_is_updated,
    a_command_shows_with_its_actor_address_and_before_after,
    failed_sign_ins_and_two_factor_changes_show,
    members_see_only_what_their_role_reads
);
