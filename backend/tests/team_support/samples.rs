//! One sample of every command and query the server knows, for the tables
//! that run them all (against every role, and with an API token). The
//! samples name records that do not exist, so a command that passes its
//! checks answers `not_found` rather than changing anything.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use crate::common::customer_input;
use protocol::{Command, Query};
use serde_json::{Value, json};

fn command(value: Value) -> Command {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

fn query(value: Value) -> Query {
    serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{value}: {e}"))
}

/// Ids of records that do not exist: a command that passes the check then
/// answers `not_found`, which is not a refusal.
pub const ID: &str = "zzz_000000000000000000000000";

/// One sample of every command (both actions of orders, which need
/// different sections).
pub fn commands() -> Vec<Command> {
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
        json!({"t": "ActOnUnpaid", "transactionId": ID,
            "action": {"t": "Represent", "date": "2026-03-10"}}),
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

pub fn queries() -> Vec<Query> {
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
        json!({"t": "LocateRecord", "recordId": ID}),
        json!({"t": "GetBusinessDate"}),
        json!({"t": "Search", "text": "nkosi"}),
        json!({"t": "GetLastEdit", "recordKind": "customer", "recordId": ID}),
        json!({"t": "GetLastEdit", "recordKind": "business_info", "recordId": "business_info"}),
        json!({"t": "DownloadAccountingExport", "from": "2026-03-01", "to": "2026-03-31"}),
        json!({"t": "GetStatement", "from": "2026-03-01", "to": "2026-03-31"}),
        json!({"t": "DownloadStatement", "from": "2026-03-01", "to": "2026-03-31", "format": "xlsx"}),
        json!({"t": "DownloadHistory", "filter": {"action": "updated"}, "language": "afr"}),
        json!({"t": "ListApiTokens"}),
        json!({"t": "GetTeam"}),
        json!({"t": "ListRoles"}),
    ]
    .into_iter()
    .map(query)
    .collect()
}
