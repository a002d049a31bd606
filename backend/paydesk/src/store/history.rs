//! The account history's rows. The stream's one writer (`stream::write`)
//! records every change of every event here, in the event's transaction,
//! with the record as it was before (the previous row of the same record)
//! and after; no command records its own. A user's sign-ins, failed
//! sign-ins and two-factor changes are rows of their account, which the
//! history of each merchant they are a member of shows. Nothing in the
//! product updates or deletes a row.

use protocol::{
    Change, EntityKind, HistoryAction, HistoryActorKind, HistoryEntry, HistoryRecordKind as Kind,
    Section,
};
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use sqlx::Executor;

use super::batch::Batch;
use super::sql::{Bind, Sql, from_wire_name, wire_name};
use super::stream::{Actor, Cause, StreamKey};
use super::{Db, Tx};
use crate::domain::permissions::change_section;
use crate::error::AppResult;
use crate::ids::{new_id, now_ms};

/// Fields that change with every write and say nothing on their own.
const QUIET_FIELDS: [&str; 2] = ["updatedAt", "version"];

/// One record a change touched, as the history keeps it.
struct Touched {
    kind: String,
    /// None when many records of the kind changed at once.
    id: Option<String>,
    /// The record as it is now; none when it was removed.
    after: Option<Value>,
    /// The record as it was, when the change itself says so (a removal
    /// that carries what it removed); else the history's last row of it.
    before: Option<Value>,
    removed: bool,
}

fn json<T: serde::Serialize>(value: &T) -> Option<Value> {
    serde_json::to_value(value).ok()
}

fn touched(change: &Change) -> Option<Touched> {
    let record = |kind: Kind, id: &str, after: Option<Value>| Touched {
        kind: kind.as_str().to_string(),
        id: Some(id.to_string()),
        after,
        before: None,
        removed: false,
    };
    // Settings and policies are one record per stream: their kind is their id.
    let single = |kind: Kind, after: Option<Value>| record(kind, kind.as_str(), after);
    let removed = |kind: Kind, id: &str| Touched {
        removed: true,
        ..record(kind, id, None)
    };
    Some(match change {
        Change::CustomerUpserted { customer } => {
            record(Kind::Customer, &customer.id, json(customer))
        }
        Change::Invalidate { kind } => Touched {
            kind: entity_record_kind(*kind).as_str().to_string(),
            id: None,
            after: None,
            before: None,
            removed: false,
        },
        Change::BusinessInfoUpdated { info } => single(Kind::BusinessInfo, json(info)),
        Change::TwoFactorPolicyUpdated { required } => single(
            Kind::TwoFactorPolicy,
            Some(serde_json::json!({ "required": required })),
        ),
        Change::BankAccountAdded { account } => {
            record(Kind::BankAccount, &account.id, json(account))
        }
        Change::BankAccountRemoved { id, .. } => removed(Kind::BankAccount, id),
        Change::MandateUpserted { mandate } => record(Kind::Mandate, &mandate.id, json(mandate)),
        Change::PaymentUpserted { payment } => record(Kind::Payment, &payment.id, json(payment)),
        Change::TransactionUpserted { transaction } => {
            record(Kind::Transaction, &transaction.id, json(transaction))
        }
        Change::PaymentMethodSettingsUpdated { settings } => {
            single(Kind::PaymentMethodSettings, json(settings))
        }
        Change::ClockAdvanced { today } => single(
            Kind::BusinessClock,
            Some(serde_json::json!({ "today": today })),
        ),
        Change::ImportUpserted { import } => record(Kind::Import, &import.id, json(import)),
        Change::PayPageUpserted { page } => record(Kind::PayPage, &page.id, json(page)),
        Change::OrderUpserted { order } => record(Kind::Order, &order.id, json(order)),
        Change::CardUpserted { card } => record(Kind::Card, &card.id, json(card)),
        Change::CardRemoved { id, .. } => removed(Kind::Card, id),
        Change::EMandateRequestUpserted { request } => {
            record(Kind::EMandateRequest, &request.id, json(request))
        }
        Change::ApiTokenUpserted { token } => record(Kind::ApiToken, &token.id, json(token)),
        Change::WebhookEndpointUpserted { endpoint } => {
            record(Kind::WebhookEndpoint, &endpoint.id, json(endpoint))
        }
        Change::WebhookEndpointRemoved { endpoint } => Touched {
            before: json(endpoint),
            ..removed(Kind::WebhookEndpoint, &endpoint.id)
        },
        // A role change says who the member was: members join without an
        // entry of their own (the owner at sign-up), so the history may
        // have none to read it from.
        Change::MemberUpserted { member, before } => Touched {
            before: before.as_ref().and_then(json),
            ..record(Kind::Member, &member.user_id, json(member))
        },
        Change::MemberRemoved { user_id } => removed(Kind::Member, user_id),
        Change::InviteUpserted { invite } => record(Kind::Invite, &invite.id, json(invite)),
        Change::PayoutUpserted { payout } => record(Kind::Payout, &payout.id, json(payout)),
        Change::PayoutSettingsUpdated { settings } => {
            // How far the test clock runs ahead is the stream's, not the
            // settings': it is not kept with them.
            let mut settings = json(settings);
            if let Some(Value::Object(fields)) = settings.as_mut() {
                fields.remove("clockAheadMs");
            }
            single(Kind::PayoutSettings, settings)
        }
        Change::RoleUpserted { role } => record(Kind::Role, &role.id, json(role)),
        Change::RoleRemoved { role_id } => removed(Kind::Role, role_id),
        // The history's own entries are not records of the merchant's data,
        // and each webhook delivery attempt is in its endpoint's log, not here.
        // Moved figures are a hint to the screens, added per reader, never stored.
        Change::HistoryEntryAdded { .. }
        | Change::WebhookDeliveryUpserted { .. }
        | Change::FiguresMoved {} => return None,
    })
}

/// The records a bulk change (`Invalidate`) is about.
fn entity_record_kind(kind: EntityKind) -> Kind {
    match kind {
        EntityKind::Customer => Kind::Customer,
        EntityKind::BusinessInfo => Kind::BusinessInfo,
        EntityKind::BankAccount => Kind::BankAccount,
        EntityKind::Mandate => Kind::Mandate,
        EntityKind::Payment => Kind::Payment,
        EntityKind::Transaction => Kind::Transaction,
        EntityKind::Import => Kind::Import,
        EntityKind::PayPage => Kind::PayPage,
        EntityKind::Order => Kind::Order,
        EntityKind::Card => Kind::Card,
        EntityKind::EMandateRequest => Kind::EMandateRequest,
        EntityKind::WebhookEndpoint => Kind::WebhookEndpoint,
        EntityKind::ApiToken => Kind::ApiToken,
    }
}

/// The field a kind's records are named by, as a merchant knows them: a
/// customer or member by name, a token by the name it was given, an endpoint
/// by its address, a payment by whom it collects from. Secrets and account
/// numbers are never one of these; settings, one per stream, need no name.
pub(super) fn name_field(kind: &str) -> Option<&'static str> {
    match kind {
        "customer" | "member" | "role" | "api_token" | "e_mandate_request" => Some("name"),
        "mandate" | "payment" | "card" => Some("customerName"),
        "bank_account" | "payout" => Some("holderName"),
        "webhook_endpoint" => Some("url"),
        "invite" => Some("email"),
        "pay_page" => Some("title"),
        "import" => Some("fileName"),
        "order" => Some("payerName"),
        _ => None,
    }
}

/// The record's name as the entry shows it: after the change, or as it was
/// when it was removed. A blank name (a member who has not given one) is none.
pub(super) fn record_name(
    kind: &str,
    before: Option<&Value>,
    after: Option<&Value>,
) -> Option<String> {
    let field = name_field(kind)?;
    after
        .or(before)
        .and_then(|record| record.get(field))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_string)
}

/// The top-level fields whose values differ, in the record's order.
fn changed_fields(before: Option<&Value>, after: Option<&Value>) -> Vec<String> {
    let empty = Map::new();
    let before = before.and_then(Value::as_object).unwrap_or(&empty);
    let after = after.and_then(Value::as_object).unwrap_or(&empty);
    let mut fields: Vec<String> = after
        .keys()
        .chain(before.keys().filter(|k| !after.contains_key(*k)))
        .filter(|k| !QUIET_FIELDS.contains(&k.as_str()))
        .filter(|k| before.get(*k) != after.get(*k))
        .cloned()
        .collect();
    fields.dedup();
    fields
}

/// Whether a record the history has not seen before was made by this
/// change: a record written in bulk (an import's rows, a scheduler day,
/// which announce an `Invalidate`) or before the history existed has no
/// earlier row, but its times tell it was changed, not created.
fn is_new(after: Option<&Value>) -> bool {
    let time = |field: &str| after.and_then(|a| a.get(field)).and_then(Value::as_i64);
    match (time("createdAt"), time("updatedAt")) {
        (Some(created), Some(updated)) => created == updated,
        _ => true,
    }
}

/// An API token's `state` or an invite's `status` reads `revoked`: the one
/// change of such a record that its history names for what it was, rather
/// than as an update of that field.
fn revoked(record: Option<&Value>) -> bool {
    let revoked =
        |field: &str| record.and_then(|r| r.get(field)).and_then(Value::as_str) == Some("revoked");
    revoked("state") || revoked("status")
}

/// A member's role went to or from the owner's: the ownership was handed
/// on (nothing else changes the owner's role).
fn ownership_moved(kind: &str, before: Option<&Value>, after: Option<&Value>) -> bool {
    fn role(record: Option<&Value>) -> Option<&str> {
        record.and_then(|r| r.get("role")).and_then(Value::as_str)
    }
    let (was, is) = (role(before), role(after));
    kind == "member"
        && was.is_some()
        && is.is_some()
        && was != is
        && (was == Some("owner") || is == Some("owner"))
}

/// The record has both times and was never updated after its creation.
/// Unlike `is_new`, a record without times is not taken for new.
fn created_unchanged(after: Option<&Value>) -> bool {
    let time = |field: &str| after.and_then(|a| a.get(field)).and_then(Value::as_i64);
    matches!((time("createdAt"), time("updatedAt")), (Some(created), Some(updated)) if created == updated)
}

/// Who caused an event, as the history names them.
pub(super) struct Who {
    kind: &'static str,
    id: Option<String>,
    name: Option<String>,
    user_agent: Option<String>,
}

impl Who {
    /// Looks up who the actor is, before the write begins: their name and
    /// browser are read from what is committed, in one query on the read
    /// pool, so the stream's one writer does not wait for them. A user the
    /// write itself creates is not there yet; `record_event` reads them
    /// inside the transaction then.
    pub(super) async fn resolve(db: &Db, actor: &Actor) -> AppResult<Who> {
        let Actor::User {
            user_id,
            session_id,
        } = actor
        else {
            return Ok(Who::unnamed(actor));
        };
        let found: Option<(String, Option<String>)> = sqlx::query_as(
            "SELECT u.name, (SELECT s.user_agent FROM sessions s WHERE s.public_id = $2) \
             FROM users u WHERE u.id = $1",
        )
        .bind(user_id)
        .bind(session_id)
        .fetch_optional(&db.pool)
        .await?;
        let (name, user_agent) = found.map_or((None, None), |(name, agent)| (Some(name), agent));
        Ok(Who::found(actor, name, user_agent))
    }

    /// The actor with the name and browser a read found for them. A
    /// browser counts only with the user's name: a user not found is
    /// unnamed, and read again inside the write.
    pub(super) fn found(actor: &Actor, name: Option<String>, user_agent: Option<String>) -> Who {
        let mut who = Who::unnamed(actor);
        if name.is_some() {
            who.name = name;
            who.user_agent = user_agent;
        }
        who
    }

    fn unnamed(actor: &Actor) -> Who {
        let (kind, id) = match actor {
            Actor::User { user_id, .. } => ("user", Some(user_id.clone())),
            Actor::ApiToken { token_id } => ("api_token", Some(token_id.clone())),
            Actor::Scheduler => ("scheduler", None),
            Actor::Import { import_id } => ("import", Some(import_id.clone())),
            Actor::Payer { page_id } => ("payer", Some(page_id.clone())),
            Actor::WebhookDelivery { endpoint_id } => ("webhooks", Some(endpoint_id.clone())),
            Actor::Account { user_id } => ("user", Some(user_id.clone())),
        };
        Who {
            kind,
            id,
            name: None,
            user_agent: None,
        }
    }

    /// A user not found before the write (created by it) is read inside it.
    async fn completed(mut self, tx: &mut Tx, actor: &Actor) -> AppResult<Who> {
        if let Actor::User {
            user_id,
            session_id,
        } = actor
            && self.name.is_none()
        {
            self.name = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
                .bind(user_id)
                .fetch_optional(&mut **tx)
                .await?;
            self.user_agent =
                sqlx::query_scalar("SELECT user_agent FROM sessions WHERE public_id = $1")
                    .bind(session_id)
                    .fetch_optional(&mut **tx)
                    .await?;
        }
        Ok(self)
    }
}

/// The record as the history last saw it, for the next entry's "before".
async fn last_seen(tx: &mut Tx, key: &StreamKey, kind: &str, id: &str) -> AppResult<Option<Value>> {
    let after: Option<Option<String>> = sqlx::query_scalar(
        "SELECT after_json FROM history_entries WHERE merchant_id = $1 AND mode = $2 \
         AND record_kind = $3 AND record_id = $4 ORDER BY seq DESC LIMIT 1",
    )
    .bind(&key.merchant_id)
    .bind(key.mode.as_str())
    .bind(kind)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(after
        .flatten()
        .and_then(|text| serde_json::from_str(&text).ok()))
}

/// Records one history row per record an event changed and returns the
/// changes that announce them to the merchant's tabs. Called only by
/// `stream::write`, inside the event's transaction; the rows join the
/// write's batch.
///
/// `first_stamped` names the versioned records no event had written before
/// this one (`versions::stamp`): one of them this event created has no
/// earlier row to read its "before" from.
pub(super) async fn record_event(
    tx: &mut Tx,
    batch: &mut Batch,
    (key, seq): (&StreamKey, u64),
    (cause, who): (&Cause, Who),
    changes: &[Change],
    first_stamped: &HashSet<String>,
) -> AppResult<Vec<Change>> {
    let touched: Vec<(Touched, Option<Section>)> = changes
        .iter()
        .filter_map(|c| touched(c).map(|t| (t, change_section(c))))
        .collect();
    if touched.is_empty() {
        return Ok(Vec::new());
    }
    let who = who.completed(tx, &cause.actor).await?;
    // "When" is on the stream's clock, as the records it describes are.
    let now = super::clocks::stream_now_ms(&mut **tx, &key.merchant_id, key.mode).await?;
    let mut added = Vec::with_capacity(touched.len());
    // A record changed twice by one event: its second row's "before" is
    // its first row's "after", still in the batch.
    let mut seen_here: HashMap<(String, String), Option<Value>> = HashMap::new();
    for (record, section) in touched {
        let before = match &record.id {
            Some(_) if record.before.is_some() => record.before.clone(),
            Some(id) => match seen_here.get(&(record.kind.clone(), id.clone())) {
                Some(after) => after.clone(),
                // Created by this event: a record older than the versions
                // (or written in bulk) may still be at version 0, but its
                // update moved `updatedAt` past `createdAt`.
                None if first_stamped.contains(id) && created_unchanged(record.after.as_ref()) => {
                    None
                }
                None => last_seen(tx, key, &record.kind, id).await?,
            },
            None => None,
        };
        if let Some(id) = &record.id {
            seen_here.insert((record.kind.clone(), id.clone()), record.after.clone());
        }
        let action = if record.id.is_none() {
            HistoryAction::BulkChanged
        } else if record.removed {
            HistoryAction::Removed
        } else if ownership_moved(&record.kind, before.as_ref(), record.after.as_ref()) {
            HistoryAction::OwnershipTransferred
        } else if before.is_none() && is_new(record.after.as_ref()) {
            HistoryAction::Created
        } else if revoked(record.after.as_ref()) && !revoked(before.as_ref()) {
            HistoryAction::Revoked
        } else {
            HistoryAction::Updated
        };
        let entry = HistoryEntry {
            id: new_id("hst"),
            at: now,
            actor_kind: from_wire_name(who.kind).unwrap_or(HistoryActorKind::Unrecorded),
            actor_id: who.id.clone(),
            actor_name: who.name.clone(),
            address: cause.address.clone(),
            user_agent: who.user_agent.clone(),
            // With no earlier row (a record written in bulk) what changed
            // is unknown: no field is named rather than every one.
            fields: if before.is_some() || action == HistoryAction::Created {
                changed_fields(before.as_ref(), record.after.as_ref())
            } else {
                Vec::new()
            },
            record_name: record_name(&record.kind, before.as_ref(), record.after.as_ref()),
            record_kind: record.kind,
            record_id: record.id,
            action,
            section,
        };
        batch.push(insert(
            &entry,
            Some((key, seq)),
            None,
            cause.command_id.as_deref(),
            (before.as_ref(), record.after.as_ref()),
        ));
        added.push(Change::HistoryEntryAdded {
            entry: Box::new(entry),
        });
    }
    Ok(added)
}

fn insert(
    entry: &HistoryEntry,
    stream: Option<(&StreamKey, u64)>,
    user_id: Option<&str>,
    command_id: Option<&str>,
    (before, after): (Option<&Value>, Option<&Value>),
) -> Sql {
    let text = |value: Option<&str>| Bind::OptText(value.map(str::to_string));
    Sql::statement(
        "INSERT INTO history_entries (id, merchant_id, mode, seq, user_id, actor_kind, actor_id, \
         actor_name, command_id, address, user_agent, section, record_kind, record_id, action, \
         fields, before_json, after_json, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
        vec![
            Bind::Text(entry.id.clone()),
            text(stream.map(|(k, _)| k.merchant_id.as_str())),
            text(stream.map(|(k, _)| k.mode.as_str())),
            Bind::OptInt(stream.map(|(_, seq)| seq as i64)),
            text(user_id),
            Bind::Text(wire_name(&entry.actor_kind)),
            text(entry.actor_id.as_deref()),
            text(entry.actor_name.as_deref()),
            text(command_id),
            text(entry.address.as_deref()),
            text(entry.user_agent.as_deref()),
            Bind::OptText(entry.section.map(|s| wire_name(&s))),
            Bind::Text(entry.record_kind.clone()),
            text(entry.record_id.as_deref()),
            Bind::Text(entry.action.as_str().into()),
            Bind::Text(entry.fields.join(" ")),
            Bind::OptText(before.map(Value::to_string)),
            Bind::OptText(after.map(Value::to_string)),
            Bind::Int(entry.at),
        ],
    )
}

/// Where and how a user's account was used.
pub struct AccountEvent<'a> {
    pub user_id: &'a str,
    pub action: HistoryAction,
    pub address: Option<&'a str>,
    pub user_agent: Option<&'a str>,
}

/// Records a sign-in, failed sign-in or two-factor change of a user's
/// account, in the caller's transaction, and returns the entry for the
/// caller to announce once it is committed (`domain::history::announce_account`).
pub async fn record_account(tx: &mut Tx, event: &AccountEvent<'_>) -> AppResult<HistoryEntry> {
    let name: Option<String> = sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
        .bind(event.user_id)
        .fetch_optional(&mut **tx)
        .await?;
    let entry = HistoryEntry {
        id: new_id("hst"),
        at: now_ms(),
        actor_kind: HistoryActorKind::User,
        actor_id: Some(event.user_id.to_string()),
        actor_name: name,
        address: event.address.map(|a| truncate(a, 64)),
        user_agent: event.user_agent.map(|a| truncate(a, 256)),
        record_kind: Kind::Account.as_str().into(),
        record_id: Some(event.user_id.to_string()),
        record_name: None,
        action: event.action,
        fields: Vec::new(),
        section: Some(Section::Team),
    };
    (&mut **tx)
        .execute(insert(&entry, None, Some(event.user_id), None, (None, None)).query())
        .await?;
    Ok(entry)
}

fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_fields_that_differ_are_named_and_quiet_ones_never() {
        let before = serde_json::json!({"name": "A", "email": "a@x", "updatedAt": 1});
        let after = serde_json::json!({"name": "B", "email": "a@x", "updatedAt": 2});
        assert_eq!(changed_fields(Some(&before), Some(&after)), vec!["name"]);
        let created = changed_fields(None, Some(&after));
        // Every field of a new record, in the order JSON objects keep (by name).
        assert_eq!(created, vec!["email", "name"]);
    }

    #[test]
    fn a_record_first_seen_after_bulk_writes_is_updated_not_created() {
        assert!(is_new(Some(
            &serde_json::json!({"createdAt": 5, "updatedAt": 5})
        )));
        assert!(!is_new(Some(
            &serde_json::json!({"createdAt": 5, "updatedAt": 9})
        )));
        assert!(is_new(Some(&serde_json::json!({"today": "2026-03-02"}))));
    }

    #[test]
    fn only_a_record_with_equal_times_counts_as_created_unread() {
        let created = serde_json::json!({"createdAt": 5, "updatedAt": 5});
        assert!(created_unchanged(Some(&created)));
        let updated = serde_json::json!({"createdAt": 5, "updatedAt": 9});
        assert!(!created_unchanged(Some(&updated)));
        // A record without times (a pay page) may have earlier rows: read them.
        assert!(!created_unchanged(Some(
            &serde_json::json!({"slug": "gym"})
        )));
        assert!(!created_unchanged(None));
    }

    #[test]
    fn records_are_named_as_a_merchant_knows_them() {
        let token =
            serde_json::json!({"id": "tok_1", "name": "Shop server", "prefix": "pdk_test_ab"});
        assert_eq!(
            record_name("api_token", None, Some(&token)).as_deref(),
            Some("Shop server")
        );
        let endpoint =
            serde_json::json!({"id": "whe_1", "url": "https://shop.example.co.za/hooks"});
        // A removed endpoint is named as it was.
        assert_eq!(
            record_name("webhook_endpoint", Some(&endpoint), None).as_deref(),
            Some("https://shop.example.co.za/hooks")
        );
        // Each kind is named by its own field, in the record's wire spelling.
        let payment = serde_json::json!({"id": "pay_1", "customerName": "Sipho Dlamini"});
        assert_eq!(
            record_name("payment", None, Some(&payment)).as_deref(),
            Some("Sipho Dlamini")
        );
        let import = serde_json::json!({"id": "imp_1", "fileName": "march.xlsx"});
        assert_eq!(
            record_name("import", None, Some(&import)).as_deref(),
            Some("march.xlsx")
        );
        // A blank name is no name, and one-per-stream settings have none.
        let member = serde_json::json!({"userId": "usr_1", "name": "  "});
        assert_eq!(record_name("member", None, Some(&member)), None);
        let settings = serde_json::json!({"name": "Shop"});
        assert_eq!(record_name("business_info", None, Some(&settings)), None);
    }

    #[test]
    fn a_removed_endpoint_keeps_what_it_was() {
        let endpoint = protocol::WebhookEndpoint {
            id: "whe_1".into(),
            url: "https://shop.example.co.za/hooks".into(),
            description: String::new(),
            event_types: vec!["payment.created".into()],
            enabled: true,
            disabled_reason: None,
            previous_secret_until: None,
            created_at: 5,
            updated_at: 5,
        };
        let removed = touched(&Change::WebhookEndpointRemoved {
            endpoint: Box::new(endpoint),
        })
        .unwrap_or_else(|| unreachable!());
        assert!(removed.removed);
        assert_eq!(removed.id.as_deref(), Some("whe_1"));
        assert_eq!(removed.after, None);
        assert_eq!(
            removed.before.as_ref().and_then(|b| b.get("url")),
            Some(&serde_json::json!("https://shop.example.co.za/hooks"))
        );
    }

    #[test]
    fn only_a_role_to_or_from_the_owners_is_a_transfer() {
        let role = |r: &str| serde_json::json!({"userId": "usr_1", "role": r});
        let (owner, admin, viewer) = (role("owner"), role("admin"), role("viewer"));
        assert!(ownership_moved("member", Some(&admin), Some(&owner)));
        assert!(ownership_moved("member", Some(&owner), Some(&admin)));
        assert!(!ownership_moved("member", Some(&viewer), Some(&admin)));
        assert!(!ownership_moved("member", None, Some(&owner)), "a join");
        assert!(!ownership_moved("invite", Some(&admin), Some(&owner)));
    }

    #[test]
    fn every_record_change_names_its_record_and_history_entries_none() {
        let policy = Change::TwoFactorPolicyUpdated { required: true };
        let t = touched(&policy).unwrap_or_else(|| unreachable!());
        assert_eq!(t.kind, "two_factor_policy");
        let bulk = touched(&Change::Invalidate {
            kind: EntityKind::Payment,
        })
        .unwrap_or_else(|| unreachable!());
        assert_eq!((bulk.kind.as_str(), bulk.id), ("payment", None));
    }
}
