//! The documented event types and the payload of each. One event type per
//! kind of change; a change that no endpoint could act on (a moved test
//! clock, a list to refetch, an import's progress) is no event.

use protocol::{
    Change, ImportStatus, MandateStatus, Mode, OrderStatus, PayoutStatus, TransactionStatus,
};
use serde_json::{Value, json};

use crate::domain::machine_json;

/// Every event type an endpoint may subscribe to, in the order the
/// endpoint form lists them.
pub const EVENT_TYPES: &[&str] = &[
    "customer.created",
    "customer.updated",
    "bank_account.added",
    "bank_account.removed",
    "mandate.created",
    "mandate.approved",
    "mandate.cancelled",
    "mandate.updated",
    "payment.created",
    "payment.updated",
    "transaction.created",
    "transaction.paid",
    "transaction.unpaid",
    "transaction.updated",
    "order.created",
    "order.paid",
    "order.updated",
    "pay_page.created",
    "pay_page.updated",
    "card.added",
    "card.removed",
    "import.completed",
    "business_info.updated",
    "payment_method_settings.updated",
    "payout.created",
    "payout.paid",
    "payout.failed",
    "payout.updated",
];

/// The event type of a test event sent from the endpoint page; endpoints
/// get it whatever they subscribe to.
pub const TEST_EVENT_TYPE: &str = "webhook.test";

pub fn is_event_type(name: &str) -> bool {
    EVENT_TYPES.contains(&name)
}

/// An object was created by the change that carries it when it has not
/// been updated since: every writer sets both times in the same statement.
fn created_or(
    created_at: i64,
    updated_at: i64,
    created: &'static str,
    other: &'static str,
) -> &'static str {
    if created_at == updated_at {
        created
    } else {
        other
    }
}

/// The event type of a change and its `data` (the object as the API shows
/// it), or none when the change is no event.
pub fn event_of(change: &Change) -> Option<(&'static str, Value)> {
    let (kind, data) = match change {
        Change::CustomerUpserted { customer } => (
            created_or(
                customer.created_at,
                customer.updated_at,
                "customer.created",
                "customer.updated",
            ),
            serde_json::to_value(customer),
        ),
        Change::BankAccountAdded { account } => {
            ("bank_account.added", serde_json::to_value(account))
        }
        Change::BankAccountRemoved { id, customer_id } => (
            "bank_account.removed",
            Ok(json!({ "id": id, "customerId": customer_id })),
        ),
        Change::MandateUpserted { mandate } => (
            if mandate.created_at == mandate.updated_at {
                "mandate.created"
            } else {
                match mandate.status {
                    MandateStatus::Active => "mandate.approved",
                    MandateStatus::Cancelled => "mandate.cancelled",
                    _ => "mandate.updated",
                }
            },
            serde_json::to_value(mandate),
        ),
        Change::PaymentUpserted { payment } => (
            created_or(
                payment.created_at,
                payment.updated_at,
                "payment.created",
                "payment.updated",
            ),
            serde_json::to_value(payment),
        ),
        Change::TransactionUpserted { transaction } => (
            match transaction.status {
                TransactionStatus::Paid => "transaction.paid",
                TransactionStatus::Unpaid => "transaction.unpaid",
                _ => created_or(
                    transaction.created_at,
                    transaction.updated_at,
                    "transaction.created",
                    "transaction.updated",
                ),
            },
            serde_json::to_value(transaction),
        ),
        Change::OrderUpserted { order } => (
            match order.status {
                OrderStatus::Paid => "order.paid",
                _ => created_or(
                    order.created_at,
                    order.updated_at,
                    "order.created",
                    "order.updated",
                ),
            },
            serde_json::to_value(order),
        ),
        Change::PayPageUpserted { page } => (
            created_or(
                page.created_at,
                page.updated_at,
                "pay_page.created",
                "pay_page.updated",
            ),
            serde_json::to_value(page),
        ),
        Change::CardUpserted { card } => ("card.added", serde_json::to_value(card)),
        Change::CardRemoved { id, customer_id } => (
            "card.removed",
            Ok(json!({ "id": id, "customerId": customer_id })),
        ),
        Change::ImportUpserted { import } if import.status == ImportStatus::Completed => {
            ("import.completed", serde_json::to_value(import))
        }
        Change::BusinessInfoUpdated { info } => {
            ("business_info.updated", serde_json::to_value(info))
        }
        Change::PaymentMethodSettingsUpdated { settings } => (
            "payment_method_settings.updated",
            serde_json::to_value(settings),
        ),
        Change::PayoutUpserted { payout } => (
            match payout.status {
                PayoutStatus::Paid => "payout.paid",
                PayoutStatus::Failed => "payout.failed",
                _ => created_or(
                    payout.created_at,
                    payout.updated_at,
                    "payout.created",
                    "payout.updated",
                ),
            },
            serde_json::to_value(payout),
        ),
        // A request for a payer's signature is the merchant's own
        // paperwork; the mandate it leads to is the event.
        Change::ImportUpserted { .. }
        | Change::EMandateRequestUpserted { .. }
        | Change::WebhookDeliveryUpserted { .. }
        // A token's secret is never sent anywhere; its changes, and the
        // endpoints' own, are in the account history only.
        | Change::ApiTokenUpserted { .. }
        | Change::WebhookEndpointUpserted { .. }
        | Change::WebhookEndpointRemoved { .. }
        | Change::Invalidate { .. }
        | Change::TwoFactorPolicyUpdated { .. }
        | Change::MemberUpserted { .. }
        | Change::MemberRemoved { .. }
        | Change::InviteUpserted { .. }
        | Change::RoleUpserted { .. }
        | Change::RoleRemoved { .. }
        | Change::ClockAdvanced { .. }
        | Change::FiguresMoved {}
        | Change::HistoryEntryAdded { .. }
        // The settlement account is not for machines to watch.
        | Change::PayoutSettingsUpdated { .. } => return None,
    };
    // Wire types always serialise; a failure would be a bug, not an event.
    Some((kind, data.ok()?))
}

/// The body of one delivery: the event's id, type, mode and time, with the
/// object. Fixed when the event is written; every attempt sends these bytes.
pub fn payload(event_id: &str, event_type: &str, mode: Mode, at_ms: i64, data: Value) -> String {
    let mut data = data;
    machine_json::times_as_rfc3339(&mut data);
    json!({
        "id": event_id,
        "type": event_type,
        "mode": mode.as_str(),
        "timestamp": machine_json::rfc3339(at_ms),
        "data": data,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_type_is_unique() {
        let mut seen = std::collections::HashSet::new();
        assert!(EVENT_TYPES.iter().all(|t| seen.insert(*t)));
        assert!(!is_event_type(TEST_EVENT_TYPE));
    }

    #[test]
    fn payload_names_event_type_mode_and_time() {
        let body = payload(
            "evt_1",
            "payment.created",
            Mode::Test,
            0,
            json!({"id": "pay_1", "createdAt": 1_772_438_400_000_i64}),
        );
        let value: Value = serde_json::from_str(&body).unwrap_or_default();
        assert_eq!(value["id"], "evt_1");
        assert_eq!(value["type"], "payment.created");
        assert_eq!(value["mode"], "test");
        assert_eq!(value["timestamp"], "1970-01-01T00:00:00.000Z");
        assert_eq!(value["data"]["id"], "pay_1");
        // The object's times read as the API answers them.
        assert_eq!(value["data"]["createdAt"], "2026-03-02T08:00:00.000Z");
    }

    #[test]
    fn clock_moves_are_no_event() {
        assert!(
            event_of(&Change::ClockAdvanced {
                today: "2026-01-01".into()
            })
            .is_none()
        );
    }
}
