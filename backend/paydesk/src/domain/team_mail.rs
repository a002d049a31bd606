//! What a member hears of a change to their standing on a team: a new
//! role, being removed, the ownership handed to them or by them. Each mail
//! is queued in the change's own transaction (the durable outbox), in the
//! recipient's own language; its words are in `locales/mail`.

use protocol::{Language, Member, Role};

use super::Scope;
use super::mail::{compose_action, mail_time, text, words};
use crate::error::AppResult;
use crate::store::{Tx, mail, users};

/// A change of someone's standing on the team, with who they were before
/// and are after.
pub enum Standing<'a> {
    RoleChanged {
        before: &'a Member,
        after: &'a Member,
    },
    Removed {
        before: &'a Member,
    },
    /// The ownership handed on: to the new owner, by the owner until now.
    Transferred {
        to: (&'a Member, &'a Member),
        by: (&'a Member, &'a Member),
    },
}

/// A member's role as a mail names it: a preset's name, or the custom
/// role's own.
fn role_name(words: &serde_json::Value, member: &Member) -> String {
    match (member.role, member.role_name.as_deref()) {
        (Role::Custom, Some(name)) if !name.trim().is_empty() => name.to_string(),
        (role, _) => text(words, &["team_roles", role.as_str()], &[]),
    }
}

/// Queues one mail about `person` (`before` → `after`) under `key`, to them.
async fn queue(
    tx: &mut Tx,
    key: &str,
    person: (&Member, Option<&Member>),
    vars: &[(&str, &str)],
    link: &str,
) -> AppResult<()> {
    let (before, after) = person;
    let Some(recipient) = users::find_recipient(tx, &before.user_id).await? else {
        return Ok(());
    };
    let language = recipient.language;
    let words = words(language);
    let before_role = role_name(&words, before);
    let after_role = after.map(|a| role_name(&words, a)).unwrap_or_default();
    let mut all: Vec<(&str, &str)> = vec![
        ("name", recipient.name.as_str()),
        ("before", before_role.as_str()),
        ("after", after_role.as_str()),
    ];
    all.extend_from_slice(vars);
    let message = compose_action(key, language, &recipient.email, &all, link);
    mail::enqueue(tx, &message).await
}

/// Mails everyone whose standing changed, each in their own language.
pub async fn mail_standing(
    tx: &mut Tx,
    scope: &Scope,
    merchant: &str,
    standing: Standing<'_>,
    now: i64,
) -> AppResult<()> {
    let actor = users::find_recipient(tx, &scope.user_id)
        .await?
        .map(|r| r.name)
        .unwrap_or_default();
    let when = mail_time(now);
    let origin = scope.origin.trim_end_matches('/');
    let team = format!("{origin}/account/teams");
    let common = [
        ("actor", actor.as_str()),
        ("merchant", merchant),
        ("when", when.as_str()),
    ];
    match standing {
        Standing::RoleChanged { before, after } => {
            queue(
                tx,
                "team_role_changed",
                (before, Some(after)),
                &common,
                &team,
            )
            .await
        }
        Standing::Removed { before } => {
            let home = format!("{origin}/");
            queue(tx, "team_removed", (before, None), &common, &home).await
        }
        Standing::Transferred { to, by } => {
            // Each side names the other's role in the recipient's words.
            let to_words = language_of(tx, to.0).await?;
            let actor_after = role_name(&words(to_words), by.1);
            let mut vars = common.to_vec();
            vars.push(("actor_after", actor_after.as_str()));
            queue(
                tx,
                "team_ownership_received",
                (to.0, Some(to.1)),
                &vars,
                &team,
            )
            .await?;
            let by_words = language_of(tx, by.0).await?;
            let new_owner_before = role_name(&words(by_words), to.0);
            let mut vars = common.to_vec();
            vars.push(("new_owner", to.1.name.as_str()));
            vars.push(("new_owner_before", new_owner_before.as_str()));
            queue(
                tx,
                "team_ownership_handed_on",
                (by.0, Some(by.1)),
                &vars,
                &team,
            )
            .await
        }
    }
}

async fn language_of(tx: &mut Tx, member: &Member) -> AppResult<Language> {
    Ok(users::find_recipient(tx, &member.user_id)
        .await?
        .map_or(Language::En, |r| r.language))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn member(role: Role, role_name: Option<&str>) -> Member {
        Member {
            user_id: "usr_1".into(),
            name: "Thandi".into(),
            email: "t@example.co.za".into(),
            role,
            role_name: role_name.map(str::to_string),
            role_id: None,
            permissions: protocol::Permissions::all(protocol::Access::None),
            two_factor: false,
            joined_at: 0,
            last_active_at: None,
        }
    }

    #[test]
    fn every_team_mail_reads_whole_in_both_languages() {
        for language in [Language::En, Language::Afr] {
            let words = words(language);
            for role in Role::PRESETS {
                assert!(
                    !role_name(&words, &member(role, None)).is_empty(),
                    "{role:?}"
                );
            }
            assert_eq!(
                role_name(&words, &member(Role::Custom, Some("Night shift"))),
                "Night shift"
            );
            let vars = [
                ("name", "Thandi"),
                ("before", "Admin"),
                ("after", "Owner"),
                ("actor", "Olivia"),
                ("actor_after", "Admin"),
                ("merchant", "Karoo Gym"),
                ("when", "2026-03-02 14:05:09 SAST"),
                ("new_owner", "Thandi"),
                ("new_owner_before", "Admin"),
            ];
            for key in [
                "team_role_changed",
                "team_removed",
                "team_ownership_received",
                "team_ownership_handed_on",
            ] {
                let mail =
                    compose_action(key, language, "t@example.co.za", &vars, "https://x.test/t");
                for part in [&mail.subject, &mail.text, &mail.html] {
                    assert!(!part.contains('{'), "{key} {language:?}: {part}");
                }
                assert!(mail.text.contains("Karoo Gym"), "{key}");
                assert!(mail.html.contains("https://x.test/t"), "{key}");
            }
        }
    }
}
