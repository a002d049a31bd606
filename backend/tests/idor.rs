//! The IDOR sweep: a member of merchant A sends every command and query that
//! takes a record id with merchant B's real ids, and each is answered
//! `not_found` while nothing of B (or A) changes. Which variants take an id
//! comes from the wire types, so a new one fails this test until it is
//! swept.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::import_support;
use crate::team_support;

use std::collections::BTreeSet;

use common::{Database, Socket, TestApp, committed_id, customer_input, error_of};
use protocol::{
    Change, ClientFrame, Command, ErrorCode, Mode, PayoutStatus, Query, ReplyBody, ServerFrame,
};
use serde_json::{Value, json};
use team_support::{tag_of, wire_union, wire_variants};

fn ok(frame: ServerFrame) -> ReplyBody {
    import_support::ok(frame)
}

/// B's records, one of each kind an id can name.
struct Theirs {
    customer: String,
    bank_account: String,
    mandate: String,
    payment: String,
    transaction: String,
    page: String,
    order: String,
    card: String,
    request: String,
    endpoint: String,
    import: String,
    upload: String,
    entry: String,
    session: String,
    token: String,
    invite: String,
    /// A custom role of B's.
    role: String,
    /// B's owner.
    user: String,
    payout: String,
}

fn first_id(list: Value) -> String {
    list[0]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{list}"))
        .to_string()
}

fn json_of(body: ReplyBody, key: &str) -> Value {
    serde_json::to_value(body).unwrap()[key].clone()
}

async fn records_of_b(app: &TestApp, tab: &mut Socket) -> Theirs {
    let customer = committed_id(
        tab.command(
            "cus",
            Command::CreateCustomer {
                input: customer_input("Bongani", "bongani@example.co.za"),
            },
        )
        .await,
    );
    let bank = json!({"t": "AddBankAccount", "customerId": customer, "input": {
        "bank": "capitec", "branchCode": "470010", "accountType": "savings",
        "holderName": "B Zulu", "accountNumber": "4000000012"}});
    let bank_account = committed_id(tab.command("bank", command(bank)).await);
    let mandate = json!({"method": "eft_debit_order",
        "bankAccount": {"t": "Existing", "bankAccountId": bank_account},
        "clientType": "resident_individual", "industry": "subscription",
        "contractReference": "GYM2026", "allowTracking": false,
        "allowDateAdjustment": false, "variableAmount": false, "adjustmentCategory": "never",
        "adjustmentRate": "", "abbreviatedName": "KAROO GYM"});
    let payment = json!({"t": "CreatePayment", "input": {"customerId": customer,
        "mandate": {"t": "New", "input": mandate}, "kind": "once", "amountCents": 25000,
        "dateToProcess": "2026-03-03", "transactionReference": "INV-1", "startRunning": true}});
    let payment = committed_id(tab.command("pay", command(payment)).await);
    let got = json_of(
        ok(tab
            .query("p", query(json!({"t": "GetPayment", "paymentId": payment})))
            .await),
        "payment",
    );
    let mandate = got["mandateId"].as_str().unwrap().to_string();

    let page = json!({"t": "CreatePayPage", "input": {"title": "Yoga", "description": "",
        "amountMode": "fixed", "amountCents": 15000, "kind": "recurring",
        "interval": "monthly", "methods": ["card"], "reference": "YOGA", "colour": "#1e3a8a"}});
    let page = committed_id(tab.command("page", command(page)).await);
    pay_by_card(app, &page).await;
    let order = first_id(json_of(
        ok(tab.query("o", query(json!({"t": "ListOrders"}))).await),
        "items",
    ));
    let card = first_id(json_of(
        ok(tab.query("cards", query(json!({"t": "ListCards"}))).await),
        "items",
    ));
    let transaction = first_id(json_of(
        ok(tab
            .query("tx", query(json!({"t": "ListTransactions"})))
            .await),
        "items",
    ));
    let request = json!({"t": "RequestEMandate", "input": {"name": "L",
        "email": "l@example.co.za", "cellphone": "0825550101", "language": "en",
        "method": "debicheck", "amountCents": 1000, "interval": "monthly",
        "startDate": "2026-04-01"}});
    let request = committed_id(tab.command("emr", command(request)).await);
    let endpoint = json!({"t": "CreateWebhookEndpoint", "url": "http://127.0.0.1:9/hooks",
        "description": "", "eventTypes": ["customer.created"]});
    let endpoint = match tab.command("hook", command(endpoint)).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::WebhookSecret { endpoint_id, .. }),
            ..
        } => endpoint_id,
        other => panic!("endpoint: {other:?}"),
    };

    let csv = format!(
        "{}\n{}{}",
        import_support::HEADER,
        import_support::row("B-1", "150.00", "2026-03-10"),
        import_support::row("", "150.00", "2026-03-10"),
    );
    let preview = import_support::upload(tab, "b.csv", csv.as_bytes())
        .await
        .unwrap();
    let import = committed_id(import_support::confirm(tab, &preview.upload_id).await);
    import_support::completed(tab, &import).await;
    let waiting = import_support::upload(tab, "b2.csv", csv.as_bytes())
        .await
        .unwrap();

    let entry = first_id(json_of(
        ok(tab.query("h", query(json!({"t": "ListHistory"}))).await),
        "items",
    ));
    let session = first_id(json_of(
        ok(tab.query("s", query(json!({"t": "ListSessions"}))).await),
        "sessions",
    ));
    let token = json!({"t": "CreateApiToken", "name": "B's shop", "mode": "test",
        "permissions": protocol::Permissions::all(protocol::Access::Read),
        "allowedAddresses": []});
    let token = match tab.command("token", command(token)).await {
        ServerFrame::Reply {
            ok: Some(ReplyBody::ApiTokenSecret { token, .. }),
            ..
        } => token.id,
        other => panic!("token: {other:?}"),
    };
    let invite = json!({"t": "InviteMember", "email": "new@b.co.za", "role": "viewer"});
    committed_id(tab.command("invite", command(invite)).await);
    let team = json_of(
        ok(tab.query("team", query(json!({"t": "GetTeam"}))).await),
        "team",
    );
    let invite = first_id(team["invites"].clone());
    let payout = payout_of_b(tab).await;
    let role = json!({"t": "CreateRole", "name": "B's clerks",
        "grants": protocol::Permissions::all(protocol::Access::Read)});
    let role = committed_id(tab.command("role", command(role)).await);
    let (user, _) = app.owner_ids("owner@b.co.za").await;
    Theirs {
        payout,
        token,
        invite,
        role,
        user,
        customer,
        bank_account,
        mandate,
        payment,
        transaction,
        page,
        order,
        card,
        request,
        endpoint,
        import,
        upload: waiting.upload_id,
        entry,
        session,
    }
}

/// A payer pays B's pay page by card: an order, a kept card, a transaction.
async fn pay_by_card(app: &TestApp, page_id: &str) {
    let browser = app.browser();
    let html = browser
        .http
        .get(app.url(&format!("/pay/{page_id}?method=card")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let hidden = |name: &str| {
        let marker = format!("name=\"{name}\" value=\"");
        let start = html.find(&marker).unwrap() + marker.len();
        html[start..]
            .chars()
            .take_while(|c| *c != '"')
            .collect::<String>()
    };
    let (csrf, attempt) = (hidden("csrfToken"), hidden("attempt"));
    let paid = browser
        .post_form(
            &format!("/pay/{page_id}"),
            &[
                ("csrfToken", csrf.as_str()),
                ("attempt", attempt.as_str()),
                ("method", "card"),
                ("name", "Lerato Dlamini"),
                ("email", "lerato@example.co.za"),
                ("cardNumber", "5555555555554444"),
                ("expiry", "12/29"),
                ("cvv", "123"),
            ],
        )
        .await;
    assert_eq!(paid.status(), 303);
}

/// B's card money settles a day later and is paid out; returns once the
/// scheduler has submitted it, so nothing of B moves during the sweep.
async fn payout_of_b(tab: &mut Socket) -> String {
    let account = json!({"t": "SetSettlementAccount", "confirmation": "karoo-sunset-41",
        "input": {"bank": "fnb", "branchCode": "250655", "accountType": "current",
        "holderName": "B Zulu", "accountNumber": "62001234567"}});
    committed(tab.command("acct", command(account)).await);
    let clock = json!({"t": "AdvanceTestClock", "step": "day"});
    committed(tab.command("clock", command(clock)).await);
    tab.next_matching(|f| {
        matches!(f, ServerFrame::Delta { changes, .. } if changes.iter().any(
            |c| matches!(c, Change::ClockAdvanced { today } if today == "2026-03-03")))
    })
    .await;
    let request = json!({"t": "RequestPayout", "amountCents": 5000});
    let payout = committed_id(tab.command("payout", command(request)).await);
    let id = payout.clone();
    tab.next_matching(move |f| {
        matches!(f, ServerFrame::Delta { changes, .. } if changes.iter().any(
            |c| matches!(c, Change::PayoutUpserted { payout } if payout.id == id
                && payout.status == PayoutStatus::Submitted)))
    })
    .await;
    payout
}

fn committed(frame: ServerFrame) {
    assert!(
        matches!(frame, ServerFrame::Reply { ok: Some(_), .. }),
        "{frame:?}"
    );
}

fn command(value: Value) -> Command {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

fn query(value: Value) -> Query {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

enum Probe {
    Command(Command),
    Query(Query),
}

impl Probe {
    fn tag(&self) -> String {
        match self {
            Probe::Command(c) => tag_of(c),
            Probe::Query(q) => tag_of(q),
        }
    }
}

/// Every command and query that names a record, with B's ids.
fn probes(b: &Theirs) -> Vec<Probe> {
    let customer = serde_json::to_value(customer_input("Mine", "mine@example.co.za")).unwrap();
    let page = json!({"title": "Mine", "description": "", "amountMode": "fixed",
        "amountCents": 100, "kind": "once", "methods": ["card"], "reference": "M",
        "colour": "#1e3a8a"});
    let bank = json!({"bank": "capitec", "branchCode": "470010", "accountType": "savings",
        "holderName": "M", "accountNumber": "4000000012"});
    let c = |v: Value| Probe::Command(command(v));
    let q = |v: Value| Probe::Query(query(v));
    vec![
        c(json!({"t": "UpdateCustomer", "customerId": b.customer, "input": customer})),
        c(json!({"t": "ArchiveCustomer", "customerId": b.customer})),
        c(json!({"t": "RestoreCustomer", "customerId": b.customer})),
        c(json!({"t": "SignOutSession", "sessionId": b.session})),
        c(json!({"t": "AddBankAccount", "customerId": b.customer, "input": bank})),
        c(json!({"t": "RemoveBankAccount", "bankAccountId": b.bank_account})),
        c(
            json!({"t": "CreatePayment", "input": {"customerId": b.customer,
            "mandate": {"t": "Existing", "mandateId": b.mandate}, "kind": "once",
            "amountCents": 1000, "dateToProcess": "2026-03-03",
            "transactionReference": "X", "startRunning": false}}),
        ),
        c(json!({"t": "ActOnPayment", "paymentId": b.payment, "action": "cancel"})),
        c(json!({"t": "ActOnUnpaid", "transactionId": b.transaction,
            "action": {"t": "EmailPayer", "message": "Hello", "language": "en"}})),
        c(json!({"t": "ActOnMandate", "mandateId": b.mandate, "action": "cancel"})),
        c(json!({"t": "UploadImportChunk", "uploadId": b.upload, "offset": 0, "data": [1]})),
        c(json!({"t": "CheckImport", "uploadId": b.upload})),
        c(
            json!({"t": "ConfirmImport", "uploadId": b.upload, "includeDuplicates": false,
            "allowDuplicateFile": true}),
        ),
        c(json!({"t": "DiscardImport", "uploadId": b.upload})),
        c(json!({"t": "UpdatePayPage", "pageId": b.page, "input": page})),
        c(json!({"t": "SetPayPageActive", "pageId": b.page, "active": false})),
        c(json!({"t": "SetPayPageLogo", "pageId": b.page, "data": [1]})),
        c(json!({"t": "ActOnOrder", "orderId": b.order, "action": "refund"})),
        c(json!({"t": "ActOnOrder", "orderId": b.order, "action": "cancel"})),
        c(json!({"t": "RemoveCard", "cardId": b.card})),
        c(json!({"t": "ChargeCard", "cardId": b.card, "amountCents": 100, "reference": "R"})),
        c(
            json!({"t": "ScheduleCard", "cardId": b.card, "amountCents": 100,
            "interval": "monthly", "reference": "R", "startDate": "2026-04-01"}),
        ),
        c(json!({"t": "StopCardSchedule", "cardId": b.card})),
        c(json!({"t": "RollApiToken", "tokenId": b.token, "graceHours": 0})),
        c(json!({"t": "RevokeApiToken", "tokenId": b.token})),
        c(json!({"t": "ResendInvite", "inviteId": b.invite})),
        c(json!({"t": "RevokeInvite", "inviteId": b.invite})),
        c(json!({"t": "ChangeMemberRole", "userId": b.user, "role": "viewer"})),
        c(json!({"t": "UpdateRole", "roleId": b.role, "name": "Mine",
            "grants": protocol::Permissions::all(protocol::Access::None)})),
        c(json!({"t": "DeleteRole", "roleId": b.role})),
        // B's role handed out on A: A's own merchant has no such role.
        c(
            json!({"t": "InviteMember", "email": "someone@a.co.za", "role": "custom",
            "roleId": b.role}),
        ),
        c(json!({"t": "RemoveMember", "userId": b.user})),
        // With A's owner's right password: only B's user id is wrong.
        c(json!({"t": "TransferOwnership", "userId": b.user, "confirmation": "karoo-sunset-41"})),
        c(
            json!({"t": "RequestEMandate", "input": {"customerId": b.customer,
            "language": "en", "method": "debicheck", "amountCents": 1000,
            "interval": "monthly", "startDate": "2026-04-01"}}),
        ),
        c(json!({"t": "ResendEMandateRequest", "requestId": b.request})),
        c(json!({"t": "CancelEMandateRequest", "requestId": b.request})),
        c(
            json!({"t": "UpdateWebhookEndpoint", "endpointId": b.endpoint, "description": "x",
            "eventTypes": [], "enabled": false}),
        ),
        c(json!({"t": "RollWebhookSecret", "endpointId": b.endpoint})),
        c(json!({"t": "ResendWebhookDeliveries", "endpointId": b.endpoint})),
        c(json!({"t": "SendTestWebhookEvent", "endpointId": b.endpoint})),
        c(json!({"t": "DeleteWebhookEndpoint", "endpointId": b.endpoint})),
        q(json!({"t": "GetCustomer", "customerId": b.customer})),
        q(json!({"t": "ListBankAccounts", "customerId": b.customer})),
        q(json!({"t": "GetMandate", "mandateId": b.mandate})),
        q(json!({"t": "GetPayment", "paymentId": b.payment})),
        q(json!({"t": "GetTransaction", "transactionId": b.transaction})),
        q(json!({"t": "GetImportPreview", "uploadId": b.upload, "offset": 0})),
        q(json!({"t": "GetImportPreviewDuplicates", "uploadId": b.upload, "offset": 0})),
        q(json!({"t": "DownloadImportIssues", "id": b.import, "offset": 0})),
        q(json!({"t": "GetImport", "importId": b.import})),
        q(json!({"t": "ListImportIssues", "importId": b.import, "offset": 0})),
        q(json!({"t": "GetPayPage", "pageId": b.page})),
        q(json!({"t": "GetOrder", "orderId": b.order})),
        q(json!({"t": "ListCards", "customerId": b.customer})),
        q(json!({"t": "ListWebhookDeliveries", "endpointId": b.endpoint})),
        q(json!({"t": "GetHistoryEntry", "entryId": b.entry})),
        // Where B's record is: A's member is on no team of B's.
        q(json!({"t": "LocateRecord", "recordId": b.customer})),
        q(json!({"t": "GetLastEdit", "recordKind": "customer", "recordId": b.customer})),
        c(json!({"t": "PayoutToCustomer", "customerId": b.customer,
            "bankAccountId": b.bank_account, "amountCents": 100, "reason": "R",
            "transactionId": b.transaction})),
        q(json!({"t": "GetPayout", "payoutId": b.payout})),
    ]
}

/// The variants of `type_name` whose fields name a record by id.
fn taking_an_id(type_name: &str) -> BTreeSet<String> {
    let union = wire_union(type_name);
    let names = wire_variants(type_name);
    union
        .split("{ \"t\": ")
        .skip(1)
        .zip(names)
        .filter(|(body, _)| {
            body.split([',', '{', ' '])
                .any(|field| field.ends_with("Id:") || field.ends_with("Id?:") || field == "id:")
        })
        .map(|(_, name)| name)
        .collect()
}

#[test]
fn every_variant_that_takes_an_id_is_swept() {
    let b = Theirs {
        customer: "x".into(),
        bank_account: "x".into(),
        mandate: "x".into(),
        payment: "x".into(),
        transaction: "x".into(),
        page: "x".into(),
        order: "x".into(),
        card: "x".into(),
        request: "x".into(),
        endpoint: "x".into(),
        import: "x".into(),
        upload: "x".into(),
        entry: "x".into(),
        session: "x".into(),
        token: "x".into(),
        invite: "x".into(),
        role: "x".into(),
        user: "x".into(),
        payout: "x".into(),
    };
    let swept: BTreeSet<String> = probes(&b).iter().map(Probe::tag).collect();
    let mut wanted = taking_an_id("Command");
    wanted.extend(taking_an_id("Query"));
    let missing: Vec<_> = wanted.difference(&swept).collect();
    assert!(missing.is_empty(), "not swept: {missing:?}");
    assert!(wanted.len() > 30, "{wanted:?}");
}

fn names_an_upload(tag: &str) -> bool {
    matches!(
        tag,
        "UploadImportChunk"
            | "CheckImport"
            | "ConfirmImport"
            | "DiscardImport"
            | "GetImportPreview"
            | "GetImportPreviewDuplicates"
    )
}

/// What would show that something of B (or A) changed: every stream's
/// position, the events, the history rows and the sessions.
async fn footprint(app: &TestApp) -> Vec<(String, i64)> {
    let db = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let mut all = Vec::new();
    for (name, sql) in [
        (
            "streams",
            "SELECT COALESCE(MAX(seq), 0) FROM merchant_streams",
        ),
        ("stream_total", "SELECT COUNT(*) FROM merchant_streams"),
        ("events", "SELECT COUNT(*) FROM events"),
        (
            "history",
            "SELECT COUNT(*) FROM history_entries WHERE merchant_id IS NOT NULL",
        ),
        ("sessions", "SELECT COUNT(*) FROM sessions"),
        ("customers", "SELECT COUNT(*) FROM customers"),
        ("bank_accounts", "SELECT COUNT(*) FROM bank_accounts"),
        ("payments", "SELECT COUNT(*) FROM payments"),
    ] {
        let n: i64 = sqlx::query_scalar(sql).fetch_one(&db.pool).await.unwrap();
        all.push((name.to_string(), n));
    }
    all
}

async fn a_member_of_a_gets_not_found_for_every_id_of_b(db: Database) {
    let app = TestApp::start_with(db, |config| {
        config.business_date = Some(time::macros::date!(2026 - 03 - 02));
        config.webhooks_allow_private_addresses = true;
    })
    .await;
    let owner_b = app.merchant("owner@b.co.za").await;
    let mut tab_b = owner_b.open(Mode::Test).await;
    let b = records_of_b(&app, &mut tab_b).await;

    let owner_a = app.merchant("owner@a.co.za").await;
    let mut tab_a = owner_a.open(Mode::Test).await;
    let before = footprint(&app).await;
    for (n, probe) in probes(&b).into_iter().enumerate() {
        let tag = probe.tag();
        let id = format!("x{n}");
        let reply = match probe {
            Probe::Command(command) => tab_a.command(&id, command).await,
            Probe::Query(query) => tab_a.query(&id, query).await,
        };
        let code = error_of(reply.clone()).code;
        // An upload held in memory has its own not-found code, which the
        // import screen explains (the upload expired or was never made).
        let wanted = if names_an_upload(&tag) {
            ErrorCode::ImportUploadNotFound
        } else {
            ErrorCode::NotFound
        };
        assert_eq!(code, wanted, "{tag}: {reply:?}");
    }
    assert_eq!(footprint(&app).await, before);
    // B's own tab is still signed in and heard nothing.
    tab_b
        .send(&ClientFrame::Query {
            id: "still".into(),
            query: Query::GetProfile {},
        })
        .await;
    tab_b
        .next_matching(|f| matches!(f, ServerFrame::Reply { id, .. } if id == "still"))
        .await;
}

on_both_databases!(a_member_of_a_gets_not_found_for_every_id_of_b);
