//! Every command and query the server knows, against every preset role,
//! through the real app: each is refused (`forbidden`, or `owners_only` for
//! the owner's own decisions) exactly when the routing table says the role
//! lacks what it needs, and otherwise passes the check (whatever the
//! command itself then answers). The list of variants comes from the wire
//! types, so a new command or query fails this test until it has a sample.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::team_support;

use std::collections::BTreeSet;

use common::{Browser, Database, TestApp, customer_input};
use paydesk::domain::permissions::{Grant, Needs};
use paydesk::domain::routes::{command_route, query_route};
use protocol::{Command, ErrorCode, Query, Role, ServerFrame};
use serde_json::{Value, json};
use team_support::{add_member, on_merchant_of, tag_of, wire_variants};

const OWNER: &str = "owner@karoo.co.za";

fn command(value: Value) -> Command {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

fn query(value: Value) -> Query {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

/// Ids of records that do not exist: a command that passes the check then
/// answers `not_found`, which is not a refusal.
const ID: &str = "zzz_000000000000000000000000";

/// One sample of every command (both actions of orders, which need
/// different sections).
fn commands() -> Vec<Command> {
    let customer = serde_json::to_value(customer_input("Probe", "probe@example.co.za")).unwrap();
    let bank = json!({"bank": "capitec", "branchCode": "470010", "accountType": "savings",
        "holderName": "T Nkosi", "accountNumber": "4000000012"});
    let page = json!({"title": "Yoga", "description": "", "amountMode": "fixed",
        "amountCents": 15000, "kind": "once", "methods": ["card"], "reference": "YOGA",
        "colour": "#1e3a8a"});
    let payment = json!({"customerId": ID, "mandate": {"t": "Existing", "mandateId": ID},
        "kind": "once", "amountCents": 1000, "transactionReference": "P", "startRunning": false});
    let request = json!({"name": "L", "email": "l@example.co.za", "cellphone": "0825550101",
        "language": "en", "method": "debicheck", "amountCents": 1000, "interval": "monthly",
        "startDate": "2026-04-01"});
    let settings = json!({"enabled": [], "debicheckApprovalWindow": "tt1_real_time",
        "debicheckAllowTracking": false, "debicheckTrackingDays": 0,
        "debicheckAllowDateAdjustment": false, "debicheckAbbreviatedName": ""});
    [
        json!({"t": "CreateCustomer", "input": customer}),
        json!({"t": "UpdateCustomer", "customerId": ID, "input": customer}),
        json!({"t": "ArchiveCustomer", "customerId": ID}),
        json!({"t": "RestoreCustomer", "customerId": ID}),
        json!({"t": "UpdateProfile", "name": "Probe", "language": "en"}),
        json!({"t": "SetLanguage", "language": "en"}),
        json!({"t": "ChangePassword", "currentPassword": "wrong", "newPassword": "x"}),
        json!({"t": "ChangeEmail", "newEmail": "x@example.co.za", "currentPassword": "wrong"}),
        json!({"t": "ResendVerification"}),
        json!({"t": "BeginTwoFactor"}),
        json!({"t": "ConfirmTwoFactor", "code": "000000"}),
        json!({"t": "DisableTwoFactor", "password": "wrong", "code": "000000"}),
        json!({"t": "RegenerateBackupCodes", "code": "000000"}),
        json!({"t": "SignOutSession", "sessionId": ID}),
        json!({"t": "SignOutOtherSessions"}),
        json!({"t": "UpdateBusinessInfo", "info": protocol::BusinessInfo::default()}),
        json!({"t": "RequireTwoFactor", "required": false}),
        json!({"t": "AddBankAccount", "customerId": ID, "input": bank}),
        json!({"t": "RemoveBankAccount", "bankAccountId": ID}),
        json!({"t": "CreatePayment", "input": payment}),
        json!({"t": "ActOnPayment", "paymentId": ID, "action": "pause"}),
        json!({"t": "ActOnMandate", "mandateId": ID, "action": "suspend"}),
        json!({"t": "UpdatePaymentMethodSettings", "settings": settings}),
        json!({"t": "AdvanceTestClock", "step": "day"}),
        json!({"t": "BeginImport", "kind": "once", "template": "debicheck",
            "fileName": "x.csv", "size": 10}),
        json!({"t": "UploadImportChunk", "uploadId": ID, "offset": 0, "data": [1]}),
        json!({"t": "CheckImport", "uploadId": ID}),
        json!({"t": "ConfirmImport", "uploadId": ID, "includeDuplicates": false,
            "allowDuplicateFile": false}),
        json!({"t": "DiscardImport", "uploadId": ID}),
        json!({"t": "CreatePayPage", "input": page}),
        json!({"t": "UpdatePayPage", "pageId": ID, "input": page}),
        json!({"t": "SetPayPageActive", "pageId": ID, "active": false}),
        json!({"t": "SetPayPageLogo", "pageId": ID, "data": [1]}),
        json!({"t": "ActOnOrder", "orderId": ID, "action": "refund"}),
        json!({"t": "ActOnOrder", "orderId": ID, "action": "cancel"}),
        json!({"t": "RemoveCard", "cardId": ID}),
        json!({"t": "ChargeCard", "cardId": ID, "amountCents": 100, "reference": "R"}),
        json!({"t": "RequestEMandate", "input": request}),
        json!({"t": "ResendEMandateRequest", "requestId": ID}),
        json!({"t": "CancelEMandateRequest", "requestId": ID}),
        json!({"t": "CreateWebhookEndpoint", "url": "https://hooks.example.co.za/x",
            "description": "", "eventTypes": []}),
        json!({"t": "UpdateWebhookEndpoint", "endpointId": ID, "description": "",
            "eventTypes": [], "enabled": true}),
        json!({"t": "RollWebhookSecret", "endpointId": ID}),
        json!({"t": "ResendWebhookDeliveries", "endpointId": ID}),
        json!({"t": "SendTestWebhookEvent", "endpointId": ID}),
        json!({"t": "DeleteWebhookEndpoint", "endpointId": ID}),
        json!({"t": "ScheduleCard", "cardId": ID, "amountCents": 100, "interval": "monthly",
            "reference": "R", "startDate": "2026-04-01"}),
        json!({"t": "StopCardSchedule", "cardId": ID}),
        json!({"t": "CreateApiToken", "name": "Probe", "mode": "test",
            "permissions": protocol::Permissions::all(protocol::Access::None),
            "allowedAddresses": []}),
        json!({"t": "RollApiToken", "tokenId": ID, "graceHours": 0}),
        json!({"t": "RevokeApiToken", "tokenId": ID}),
        json!({"t": "InviteMember", "email": "new@example.co.za", "role": "viewer"}),
        json!({"t": "ResendInvite", "inviteId": ID}),
        json!({"t": "RevokeInvite", "inviteId": ID}),
        json!({"t": "ChangeMemberRole", "userId": ID, "role": "viewer"}),
        json!({"t": "RemoveMember", "userId": ID}),
        json!({"t": "TransferOwnership", "userId": ID, "confirmation": "wrong"}),
        json!({"t": "SetSettlementAccount", "confirmation": "wrong", "input": {"bank": "fnb",
            "branchCode": "250655", "accountType": "current", "holderName": "K",
            "accountNumber": "62001234567"}}),
        json!({"t": "SetPayoutSchedule", "schedule": {"interval": "off", "minimumCents": 0}}),
        json!({"t": "RequestPayout", "amountCents": 1000}),
        json!({"t": "PayoutToCustomer", "customerId": ID, "bankAccountId": ID,
            "amountCents": 100, "reason": "R"}),
        json!({"t": "CreateRole", "name": "Probe",
            "grants": protocol::Permissions::all(protocol::Access::None)}),
        json!({"t": "UpdateRole", "roleId": ID, "name": "Probe",
            "grants": protocol::Permissions::all(protocol::Access::None)}),
        json!({"t": "DeleteRole", "roleId": ID}),
    ]
    .into_iter()
    .map(command)
    .collect()
}

fn queries() -> Vec<Query> {
    [
        json!({"t": "ListCustomers"}),
        json!({"t": "GetCustomer", "customerId": ID}),
        json!({"t": "GetProfile"}),
        json!({"t": "ListSessions"}),
        json!({"t": "GetBusinessInfo"}),
        json!({"t": "ListBankAccounts", "customerId": ID}),
        json!({"t": "ListMandates"}),
        json!({"t": "GetMandate", "mandateId": ID}),
        json!({"t": "ListPayments", "kind": "once"}),
        json!({"t": "GetPayment", "paymentId": ID}),
        json!({"t": "ListTransactions"}),
        json!({"t": "GetTransaction", "transactionId": ID}),
        json!({"t": "GetDashboard"}),
        json!({"t": "GetInsights", "from": "2026-03-01", "to": "2026-03-31", "bucket": "week"}),
        json!({"t": "GetBalance"}),
        json!({"t": "GetPayoutSettings"}),
        json!({"t": "ListPayouts"}),
        json!({"t": "GetPayout", "payoutId": ID}),
        json!({"t": "GetPaymentMethodSettings"}),
        json!({"t": "GetImportPreview", "uploadId": ID, "offset": 0}),
        json!({"t": "GetImportPreviewDuplicates", "uploadId": ID, "offset": 0}),
        json!({"t": "DownloadImportTemplate", "template": "debicheck", "kind": "once",
            "offset": 0}),
        json!({"t": "DownloadImportIssues", "id": ID, "offset": 0}),
        json!({"t": "ListImports", "kind": "once"}),
        json!({"t": "GetImport", "importId": ID}),
        json!({"t": "ListImportIssues", "importId": ID, "offset": 0}),
        json!({"t": "ListPayPages"}),
        json!({"t": "GetPayPage", "pageId": ID}),
        json!({"t": "ListOrders"}),
        json!({"t": "GetOrder", "orderId": ID}),
        json!({"t": "ListCards"}),
        json!({"t": "ListEMandateRequests"}),
        json!({"t": "ListWebhookEndpoints"}),
        json!({"t": "ListWebhookDeliveries", "endpointId": ID}),
        json!({"t": "ListHistory"}),
        json!({"t": "GetHistoryEntry", "entryId": ID}),
        json!({"t": "DownloadHistory", "filter": {"action": "updated"}, "language": "afr"}),
        json!({"t": "DownloadAccountingExport", "from": "2026-03-01", "to": "2026-03-31"}),
        json!({"t": "GetStatement", "from": "2026-03-01", "to": "2026-03-31"}),
        json!({"t": "DownloadStatement", "from": "2026-03-01", "to": "2026-03-31", "format": "xlsx"}),
        json!({"t": "ListApiTokens"}),
        json!({"t": "GetTeam"}),
        json!({"t": "ListRoles"}),
    ]
    .into_iter()
    .map(query)
    .collect()
}

#[test]
fn every_command_and_query_has_a_sample() {
    let commands: BTreeSet<String> = commands().iter().map(tag_of).collect();
    let known: BTreeSet<String> = wire_variants("Command").into_iter().collect();
    assert_eq!(commands, known, "commands without a sample, or unknown");
    let queries: BTreeSet<String> = queries().iter().map(tag_of).collect();
    let known: BTreeSet<String> = wire_variants("Query").into_iter().collect();
    assert_eq!(queries, known, "queries without a sample, or unknown");
}

const ROLES: [Role; 7] = [
    Role::Owner,
    Role::Admin,
    Role::Operations,
    Role::Finance,
    Role::Developer,
    Role::Support,
    Role::Viewer,
];

/// The refusal of a reply for the member's role, if refused for it.
fn refusal(frame: &ServerFrame) -> Option<ErrorCode> {
    match frame {
        ServerFrame::Reply {
            error: Some(error), ..
        } if matches!(error.code, ErrorCode::Forbidden | ErrorCode::OwnersOnly) => Some(error.code),
        ServerFrame::Reply { .. } => None,
        other => panic!("not a reply: {other:?}"),
    }
}

fn wanted(grant: &Grant, needs: Needs) -> Option<ErrorCode> {
    grant.check(needs).err()
}

async fn every_command_and_query_against_every_preset_role(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut checked = 0;
    for role in ROLES {
        if role == Role::Owner {
            checked += run_every_sample(&app, &owner, role).await;
        } else {
            let email = format!("{}@karoo.co.za", role.as_str());
            let member = app.merchant(&email).await;
            add_member(&app, OWNER, &email, role).await;
            checked += run_every_sample(&app, &member, role).await;
        }
    }
    assert_eq!(checked, ROLES.len() * (commands().len() + queries().len()));
}

async fn run_every_sample(app: &TestApp, browser: &Browser, role: Role) -> usize {
    let (mut socket, _) = on_merchant_of(app, OWNER, browser).await;
    let grant = Grant::preset(role).unwrap();
    let mut checked = 0;
    for (n, sample) in commands().into_iter().enumerate() {
        let expected = wanted(&grant, command_route(&sample).needs);
        let name = tag_of(&sample);
        let reply = socket.command(&format!("c{n}"), sample).await;
        assert_eq!(refusal(&reply), expected, "{role:?} {name}: {reply:?}");
        checked += 1;
    }
    for (n, sample) in queries().into_iter().enumerate() {
        let expected = wanted(&grant, query_route(&sample).needs);
        let name = tag_of(&sample);
        let reply = socket.query(&format!("q{n}"), sample).await;
        assert_eq!(refusal(&reply), expected, "{role:?} {name}: {reply:?}");
        checked += 1;
    }
    checked
}

on_both_databases!(every_command_and_query_against_every_preset_role);
