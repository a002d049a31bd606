//! Version-checked saves over the real socket: two people of one merchant
//! edit the same customer from the same version; the second save is refused
//! with `edit_conflict` naming what the first changed, and nothing of
//! theirs is overwritten until the second saves again from the new version.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::members::{add_member, on_merchant};
use common::{Browser, Database, Socket, TestApp, committed_id, customer_input, error_of};
use protocol::{
    AmountMode, BusinessInfo, Command, Customer, ErrorCode, Mode, PayPage, PayPageInput,
    PaymentKind, PaymentMethod, PaymentMethodSettings, Query, ReplyBody, Role, ServerFrame,
};

const OWNER: &str = "owner@karoo.co.za";
const MEMBER: &str = "pieter@karoo.co.za";

async fn customer(socket: &mut Socket, id: &str) -> Customer {
    let reply = socket
        .query(
            "get",
            Query::GetCustomer {
                customer_id: id.into(),
            },
        )
        .await;
    match reply {
        ServerFrame::Reply {
            ok: Some(ReplyBody::Customer { customer }),
            ..
        } => *customer,
        other => panic!("expected the customer, got {other:?}"),
    }
}

async fn the_second_save_from_an_old_version_is_refused_naming_the_field(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let member = app.browser();
    let response = member
        .sign_up("Pieter", MEMBER, "karoo-sunset-41", "Pieter's Shop")
        .await;
    assert_eq!(response.status(), 200);
    add_member(&app, OWNER, MEMBER, Role::Admin).await;
    let mut thandi = owner.open(Mode::Test).await;
    let (mut pieter, _) = on_merchant(&member, &merchant_id, Mode::Test).await;

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
    let base = customer(&mut pieter, &id).await;
    assert!(base.version > 0, "a written record carries its version");

    // Both open the form at the same version; Thandi saves first.
    let mut hers = customer_input("Sipho Dlamini", "sipho@example.co.za");
    hers.city = "Stellenbosch".into();
    let reply = thandi
        .command(
            "hers",
            Command::UpdateCustomer {
                customer_id: id.clone(),
                input: hers,
                base_version: Some(base.version),
            },
        )
        .await;
    committed_id(reply);
    let after_hers = customer(&mut pieter, &id).await;
    assert!(after_hers.version > base.version, "every change bumps it");

    let mut his = customer_input("Sipho M. Dlamini", "sipho@example.co.za");
    his.city = "Paarl".into();
    let reply = pieter
        .command(
            "his",
            Command::UpdateCustomer {
                customer_id: id.clone(),
                input: his.clone(),
                base_version: Some(base.version),
            },
        )
        .await;
    let error = error_of(reply);
    assert_eq!(error.code, ErrorCode::EditConflict);
    let conflict = error.conflict.expect("the conflict's details");
    assert_eq!(conflict.version, after_hers.version);
    let fields: Vec<(&str, &str)> = conflict
        .fields
        .iter()
        .map(|f| (f.field.as_str(), f.theirs.as_str()))
        .collect();
    assert_eq!(
        fields,
        [("city", "Stellenbosch")],
        "only what she changed, with its value now"
    );
    let unchanged = customer(&mut thandi, &id).await;
    assert_eq!(unchanged.name, "Sipho Dlamini", "nothing was overwritten");
    assert_eq!(unchanged.city, "Stellenbosch");
    assert_eq!(unchanged.version, after_hers.version);

    // He keeps his name, takes her city, and saves from the new version.
    his.city = "Stellenbosch".into();
    let reply = pieter
        .command(
            "his-again",
            Command::UpdateCustomer {
                customer_id: id.clone(),
                input: his,
                base_version: Some(conflict.version),
            },
        )
        .await;
    committed_id(reply);
    let merged = customer(&mut thandi, &id).await;
    assert_eq!(merged.name, "Sipho M. Dlamini");
    assert_eq!(merged.city, "Stellenbosch");
    assert!(merged.version > after_hers.version);

    // Archiving is a change too: a form begun before it is stale.
    committed_id(
        thandi
            .command(
                "archive",
                Command::ArchiveCustomer {
                    customer_id: id.clone(),
                },
            )
            .await,
    );
    let reply = pieter
        .command(
            "stale",
            Command::UpdateCustomer {
                customer_id: id.clone(),
                input: customer_input("Someone Else", "sipho@example.co.za"),
                base_version: Some(merged.version),
            },
        )
        .await;
    assert_eq!(error_of(reply).code, ErrorCode::EditConflict);
}

on_both_databases!(the_second_save_from_an_old_version_is_refused_naming_the_field);

/// Thandi (the owner, her browser and a tab) and Pieter (an admin, a tab)
/// on the same merchant in test mode.
pub(crate) async fn two_people(db: Database) -> (TestApp, Browser, Socket, Socket) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let member = app.browser();
    let response = member
        .sign_up("Pieter", MEMBER, "karoo-sunset-41", "Pieter's Shop")
        .await;
    assert_eq!(response.status(), 200);
    add_member(&app, OWNER, MEMBER, Role::Admin).await;
    let thandi = owner.open(Mode::Test).await;
    let (pieter, _) = on_merchant(&member, &merchant_id, Mode::Test).await;
    (app, owner, thandi, pieter)
}

/// The fields an `edit_conflict` names, with their values now.
fn conflict_fields(reply: ServerFrame) -> (u64, Vec<(String, String)>) {
    let error = error_of(reply);
    assert_eq!(error.code, ErrorCode::EditConflict);
    let conflict = error.conflict.expect("the conflict's details");
    let fields = conflict
        .fields
        .into_iter()
        .map(|f| (f.field, f.theirs))
        .collect();
    (conflict.version, fields)
}

fn page_input(title: &str) -> PayPageInput {
    PayPageInput {
        title: title.into(),
        description: "One drop-in class at the Karoo studio.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Once,
        interval: None,
        methods: vec![PaymentMethod::Card, PaymentMethod::InstantEft],
        expires_on: None,
        max_uses: None,
        reference: "YOGA-1".into(),
        success_url: None,
        colour: "#1e3a8a".into(),
    }
}

async fn pay_page(socket: &mut Socket, id: &str) -> PayPage {
    let reply = socket
        .query("page", Query::GetPayPage { page_id: id.into() })
        .await;
    match reply {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PayPage { page }),
            ..
        } => *page,
        other => panic!("expected the pay page, got {other:?}"),
    }
}

async fn a_pay_page_saved_over_a_newer_version_is_refused_naming_the_field(db: Database) {
    let (_app, _, mut thandi, mut pieter) = two_people(db).await;
    let id = committed_id(
        thandi
            .command(
                "create",
                Command::CreatePayPage {
                    input: Box::new(page_input("Yoga class")),
                },
            )
            .await,
    );
    let base = pay_page(&mut pieter, &id).await;
    assert!(base.version > 0, "a written page carries its version");

    let mut hers = page_input("Yoga class");
    hers.amount_cents = Some(18_000);
    committed_id(
        thandi
            .command(
                "hers",
                Command::UpdatePayPage {
                    page_id: id.clone(),
                    input: Box::new(hers),
                    base_version: Some(base.version),
                },
            )
            .await,
    );
    let after_hers = pay_page(&mut pieter, &id).await;
    assert!(after_hers.version > base.version);

    let mut his = page_input("Evening yoga");
    let reply = pieter
        .command(
            "his",
            Command::UpdatePayPage {
                page_id: id.clone(),
                input: Box::new(his.clone()),
                base_version: Some(base.version),
            },
        )
        .await;
    let (version, fields) = conflict_fields(reply);
    assert_eq!(version, after_hers.version);
    assert_eq!(fields, [("amountCents".to_string(), "18000".to_string())]);
    let unchanged = pay_page(&mut thandi, &id).await;
    assert_eq!(unchanged.title, "Yoga class", "nothing was overwritten");
    assert_eq!(unchanged.amount_cents, Some(18_000));

    his.amount_cents = Some(18_000);
    committed_id(
        pieter
            .command(
                "his-again",
                Command::UpdatePayPage {
                    page_id: id.clone(),
                    input: Box::new(his),
                    base_version: Some(version),
                },
            )
            .await,
    );
    let merged = pay_page(&mut thandi, &id).await;
    assert_eq!(merged.title, "Evening yoga");
    assert_eq!(merged.amount_cents, Some(18_000));
    assert!(merged.version > after_hers.version);
}

on_both_databases!(a_pay_page_saved_over_a_newer_version_is_refused_naming_the_field);

/// A command with no record id of its own went through.
fn committed(reply: ServerFrame) {
    assert!(
        matches!(
            reply,
            ServerFrame::Reply {
                ok: Some(ReplyBody::Committed { .. }),
                ..
            }
        ),
        "expected a commit, got {reply:?}"
    );
}

async fn method_settings(socket: &mut Socket) -> PaymentMethodSettings {
    match socket
        .query("settings", Query::GetPaymentMethodSettings {})
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::PaymentMethodSettings { settings }),
            ..
        } => *settings,
        other => panic!("expected the settings, got {other:?}"),
    }
}

async fn save_methods(
    socket: &mut Socket,
    label: &str,
    settings: &PaymentMethodSettings,
    base_version: u64,
) -> ServerFrame {
    socket
        .command(
            label,
            Command::UpdatePaymentMethodSettings {
                settings: settings.clone(),
                base_version: Some(base_version),
            },
        )
        .await
}

async fn payment_method_settings_saved_over_a_newer_version_are_refused(db: Database) {
    let (_app, _, mut thandi, mut pieter) = two_people(db).await;
    let mut first = method_settings(&mut thandi).await;
    first.debicheck_abbreviated_name = "KAROO".into();
    committed(save_methods(&mut thandi, "first", &first, first.version).await);
    let base = method_settings(&mut pieter).await;
    assert!(base.version > 0, "saved settings carry their version");

    let mut hers = base.clone();
    hers.debicheck_tracking_days = 7;
    committed(save_methods(&mut thandi, "hers", &hers, base.version).await);

    let mut his = base.clone();
    his.debicheck_abbreviated_name = "KAROO CO".into();
    let (version, fields) =
        conflict_fields(save_methods(&mut pieter, "his", &his, base.version).await);
    assert_eq!(
        fields,
        [("debicheckTrackingDays".to_string(), "7".to_string())]
    );
    let unchanged = method_settings(&mut thandi).await;
    assert_eq!(
        unchanged.debicheck_abbreviated_name, "KAROO",
        "nothing was overwritten"
    );
    assert_eq!(unchanged.version, version);

    his.debicheck_tracking_days = 7;
    committed(save_methods(&mut pieter, "his-again", &his, version).await);
    let merged = method_settings(&mut thandi).await;
    assert_eq!(merged.debicheck_abbreviated_name, "KAROO CO");
    assert_eq!(merged.debicheck_tracking_days, 7);
    assert!(merged.version > version);
}

on_both_databases!(payment_method_settings_saved_over_a_newer_version_are_refused);

pub(crate) async fn business_info(socket: &mut Socket) -> BusinessInfo {
    match socket.query("info", Query::GetBusinessInfo {}).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::BusinessInfo { info, .. }),
            ..
        } => *info,
        other => panic!("expected the business info, got {other:?}"),
    }
}

pub(crate) async fn save_info(
    socket: &mut Socket,
    label: &str,
    info: &BusinessInfo,
    base_version: u64,
) -> ServerFrame {
    socket
        .command(
            label,
            Command::UpdateBusinessInfo {
                info: info.clone(),
                base_version: Some(base_version),
            },
        )
        .await
}

/// Business info is shared by test and live mode: a save in one mode makes
/// a form begun in the other stale, though the two modes' seqs differ.
async fn business_info_saved_over_a_newer_version_is_refused_across_modes(db: Database) {
    let (_app, owner, mut thandi, mut pieter) = two_people(db).await;
    let mut thandi_live = owner.open(Mode::Live).await;
    let mut first = business_info(&mut thandi).await;
    first.legal_name = "Karoo Gym (Pty) Ltd".into();
    first.statement_name = "KAROO GYM".into();
    committed(save_info(&mut thandi, "first", &first, first.version).await);
    let base = business_info(&mut pieter).await;
    assert!(base.version > 0, "saved details carry their version");

    // Thandi saves from live mode; Pieter's form is in test mode.
    let mut hers = base.clone();
    hers.support_phone = "0821234567".into();
    committed(save_info(&mut thandi_live, "hers", &hers, base.version).await);
    let after_hers = business_info(&mut pieter).await;
    assert!(after_hers.version > base.version, "every save bumps it");

    let mut his = base.clone();
    his.trading_name = "Karoo Gym".into();
    let (version, fields) =
        conflict_fields(save_info(&mut pieter, "his", &his, base.version).await);
    assert_eq!(version, after_hers.version);
    let named: Vec<&str> = fields.iter().map(|(f, _)| f.as_str()).collect();
    assert!(named.contains(&"supportPhone"), "{fields:?}");
    assert_eq!(
        fields
            .iter()
            .find(|(f, _)| f == "supportPhone")
            .map(|(_, v)| v.as_str()),
        Some(after_hers.support_phone.as_str()),
        "her value now"
    );
    let unchanged = business_info(&mut thandi).await;
    assert_eq!(
        unchanged.trading_name, base.trading_name,
        "nothing was overwritten"
    );

    his.support_phone = after_hers.support_phone.clone();
    committed(save_info(&mut pieter, "his-again", &his, version).await);
    let merged = business_info(&mut thandi_live).await;
    assert_eq!(merged.trading_name, "Karoo Gym");
    assert_eq!(merged.support_phone, after_hers.support_phone);
    assert!(merged.version > version);
}

on_both_databases!(business_info_saved_over_a_newer_version_is_refused_across_modes);
