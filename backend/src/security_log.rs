//! Security log lines: every refused attack (a forged form, a foreign
//! socket origin, another merchant's id, a flood) leaves one line under the
//! `security` target, at warn, saying who tried (user when known, client
//! address) and what was refused. Never a secret: no tokens, no cookie
//! values, no passwords; paths go through the access log's redaction.
//!
//! Operators can route these lines apart with
//! `RUST_LOG=info,security=warn` and a filter on `target=security`.

use protocol::Mode;
use serde::Serialize;

use paydesk::store::Db;
use paydesk::store::ownership::{self, Owner};

/// Who tried: the signed-in user (when known) and the client's address.
#[derive(Clone, Debug, Default)]
pub struct Client {
    pub user_id: Option<String>,
    pub address: String,
}

impl Client {
    pub fn new(user_id: Option<&str>, address: &str) -> Client {
        Client {
            user_id: user_id.map(str::to_string),
            address: address.to_string(),
        }
    }

    fn user(&self) -> &str {
        self.user_id.as_deref().unwrap_or("-")
    }
}

/// Logs one refusal. `kind` is a stable snake_case name operators can
/// count by (`csrf`, `foreign_origin`, `foreign_merchant`, `foreign_id`,
/// `rate_limited`, ...); `detail` says what was refused and must hold no
/// secret.
pub fn refused(client: &Client, kind: &'static str, detail: &str) {
    tracing::warn!(
        target: "security",
        kind,
        user = client.user(),
        address = client.address.as_str(),
        detail,
        "refused"
    );
}

/// The merchant stream a client was working in when it used an id.
#[derive(Clone, Debug)]
pub struct Working {
    pub merchant_id: String,
    pub mode: Mode,
}

/// At most this many ids of one request are looked up: enough for any
/// command, and a crafted frame full of ids cannot turn one refusal into
/// many queries.
const MAX_IDS_CHECKED: usize = 8;

/// What a client sent, as far as the security log needs it: the kind of
/// command or query, and the ids of merchant data it carries.
#[derive(Clone, Debug, Default)]
pub struct Sent {
    pub what: String,
    pub ids: Vec<String>,
}

impl Sent {
    /// Reads a command or query whatever its shape (ids are found in any
    /// field), so a new command is covered without a line here.
    pub fn of(frame: &impl Serialize) -> Sent {
        let Ok(value) = serde_json::to_value(frame) else {
            return Sent::default();
        };
        let what = value
            .get("t")
            .and_then(|t| t.as_str())
            .unwrap_or("request")
            .to_string();
        let mut ids = Vec::new();
        collect_ids(&value, &mut ids);
        ids.truncate(MAX_IDS_CHECKED);
        Sent { what, ids }
    }
}

fn collect_ids(value: &serde_json::Value, ids: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) if ownership::names_merchant_data(s) && !ids.contains(s) => {
            ids.push(s.clone());
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_ids(v, ids)),
        serde_json::Value::Object(fields) => fields.values().for_each(|v| collect_ids(v, ids)),
        _ => {}
    }
}

/// After a client was answered "not found" for ids it sent: logs each id
/// that does exist, under another merchant or mode, unless that merchant is
/// one of `teams` (the merchants the client may work in: a person's teams, a
/// token's own merchant), whose ids are the client's own data in another
/// tab's business or mode. The answer has gone already and stays
/// `not_found` whatever this finds, so a client learns nothing from it; only
/// the log does.
pub async fn note_foreign_ids(
    db: &Db,
    client: &Client,
    working: &Working,
    sent: &Sent,
    teams: &[String],
) {
    for id in sent.ids.iter().take(MAX_IDS_CHECKED) {
        match ownership::owner_of(db, id).await {
            Ok(Some(owner)) if is_foreign(&owner, working, teams) => {
                let detail = format!(
                    "{}: {id} belongs to {} ({}), used from {} ({})",
                    sent.what,
                    owner.merchant_id,
                    owner.mode.as_str(),
                    working.merchant_id,
                    working.mode.as_str()
                );
                refused(client, "foreign_id", &detail);
            }
            Ok(_) => {}
            Err(err) => tracing::debug!(error = %err, "cannot look up whose an id is"),
        }
    }
}

fn is_foreign(owner: &Owner, working: &Working, teams: &[String]) -> bool {
    let is_working = owner.merchant_id == working.merchant_id && owner.mode == working.mode;
    !is_working && !teams.contains(&owner.merchant_id)
}

/// Whether a refusal's error means "no such thing": the answer that may
/// hide another merchant's id.
pub fn is_not_found(error: &protocol::WireError) -> bool {
    error.code == protocol::ErrorCode::NotFound
        || error
            .fields
            .iter()
            .any(|f| f.code == protocol::ErrorCode::NotFound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_of_merchants_the_client_has_no_business_with_are_foreign() {
        let working = Working {
            merchant_id: "mer_own".into(),
            mode: Mode::Live,
        };
        let owner = |merchant_id: &str, mode| Owner {
            merchant_id: merchant_id.into(),
            mode,
        };
        let teams = ["mer_own".to_string(), "mer_karoo".to_string()];
        assert!(!is_foreign(&owner("mer_own", Mode::Test), &working, &teams));
        assert!(!is_foreign(
            &owner("mer_karoo", Mode::Live),
            &working,
            &teams
        ));
        assert!(is_foreign(
            &owner("mer_rival", Mode::Live),
            &working,
            &teams
        ));
        // With no teams (a payer), the merchant's other mode is another ledger.
        assert!(is_foreign(&owner("mer_own", Mode::Test), &working, &[]));
        assert!(!is_foreign(&owner("mer_own", Mode::Live), &working, &[]));
    }
}
