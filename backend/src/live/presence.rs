//! Who of the team is online. Pure state: the merchant actor does the I/O.
//!
//! Each tab's entry (`Tab`) lives with the merchant actor's other state for
//! the tab; what tabs are sent is one entry per person (`view`), so a
//! person with many tabs (or a restart reconnecting thousands of them) is
//! one entry, and what changes between two views (`diff`) is all that goes
//! out after a tab's first snapshot.

use std::collections::BTreeMap;
use std::sync::Arc;

use paydesk::domain::permissions::Permissions;
use paydesk::domain::screen_paths;
use protocol::PresenceMember;

/// At most this many people are listed (the first by user id): the frames
/// stay small whatever the size of the team.
pub const PEOPLE_LIMIT: usize = 100;
/// At most this many paths per person and list (viewing, editing).
pub const PATHS_LIMIT: usize = 8;

/// What one open tab shows, held in the merchant actor's entry for the
/// tab: leaving the stream removes both at once. The user id is the one
/// the session actor holds, shared; strings are boxed, not `String`s: a
/// restart brings back every tab at once, and this is held per tab.
pub struct Tab {
    user_id: Arc<str>,
    name: Box<str>,
    viewing: Option<Box<str>>,
    editing: Option<Box<str>>,
}

impl Tab {
    pub fn new(user_id: impl Into<Arc<str>>, name: &str) -> Tab {
        Tab {
            user_id: user_id.into(),
            name: name.into(),
            viewing: None,
            editing: None,
        }
    }

    pub fn user_id(&self) -> &str {
        &self.user_id
    }

    /// Sets what the tab shows and which form it has open. Returns whether
    /// anything changed.
    pub fn set(&mut self, viewing: Option<String>, editing: Option<String>) -> bool {
        if self.viewing.as_deref() == viewing.as_deref()
            && self.editing.as_deref() == editing.as_deref()
        {
            return false;
        }
        self.viewing = viewing.map(String::into_boxed_str);
        self.editing = editing.map(String::into_boxed_str);
        true
    }
}

/// What changed between two views.
#[derive(Debug, Default, PartialEq)]
pub struct PresenceDiff {
    pub joined: Vec<PresenceMember>,
    pub moved: Vec<PresenceMember>,
    pub left: Vec<String>,
}

impl PresenceDiff {
    pub fn is_empty(&self) -> bool {
        self.joined.is_empty() && self.moved.is_empty() && self.left.is_empty()
    }
}

/// The people online, by user id.
pub type PresenceView = BTreeMap<String, PresenceMember>;

/// One entry per person with a tab among `tabs`, the first `PEOPLE_LIMIT`
/// by user id. The order of the tabs makes no difference.
pub fn view<'a>(tabs: impl IntoIterator<Item = &'a Tab>) -> PresenceView {
    let mut people = PresenceView::new();
    for tab in tabs {
        if !people.contains_key(&*tab.user_id) && people.len() >= PEOPLE_LIMIT {
            // Only a smaller user id could still enter: keep the order.
            let Some(last) = people.keys().next_back().cloned() else {
                continue;
            };
            if *tab.user_id > *last {
                continue;
            }
            people.remove(&last);
        }
        let person = people
            .entry(tab.user_id.to_string())
            .or_insert_with(|| PresenceMember {
                user_id: tab.user_id.to_string(),
                name: tab.name.to_string(),
                viewing: Vec::new(),
                editing: Vec::new(),
            });
        if let Some(path) = &tab.viewing {
            person.viewing.push(path.to_string());
        }
        if let Some(path) = &tab.editing {
            person.editing.push(path.to_string());
        }
    }
    for person in people.values_mut() {
        tidy_paths(person);
    }
    people
}

/// `view` as a member with `permissions` is told it: everyone online, each
/// with only the screens that member's role opens (`screen_paths`).
pub fn as_seen(view: &PresenceView, permissions: &Permissions) -> PresenceView {
    let shown = |paths: &[String]| -> Vec<String> {
        paths
            .iter()
            .filter(|path| screen_paths::shown_to(path, permissions))
            .cloned()
            .collect()
    };
    view.iter()
        .map(|(user_id, person)| {
            let seen = PresenceMember {
                user_id: person.user_id.clone(),
                name: person.name.clone(),
                viewing: shown(&person.viewing),
                editing: shown(&person.editing),
            };
            (user_id.clone(), seen)
        })
        .collect()
}

/// What a tab that had `before` must apply to have `after`.
pub fn diff(before: &PresenceView, after: &PresenceView) -> PresenceDiff {
    let mut changes = PresenceDiff::default();
    for (user_id, person) in after {
        match before.get(user_id) {
            None => changes.joined.push(person.clone()),
            Some(old) if old != person => changes.moved.push(person.clone()),
            Some(_) => {}
        }
    }
    for user_id in before.keys() {
        if !after.contains_key(user_id) {
            changes.left.push(user_id.clone());
        }
    }
    changes
}

/// A person's paths in a stable order, each editing path once, at most
/// `PATHS_LIMIT` of each: the same person gathered from several tabs (or
/// nodes) always reads the same.
pub fn tidy_paths(person: &mut PresenceMember) {
    person.viewing.sort();
    person.viewing.truncate(PATHS_LIMIT);
    person.editing.sort();
    person.editing.dedup();
    person.editing.truncate(PATHS_LIMIT);
}

#[cfg(test)]
mod tests {
    use super::*;
    use paydesk::domain::permissions::{Access, Section};

    fn tabs(list: &[(&str, &str)]) -> Vec<Tab> {
        list.iter()
            .map(|(user, name)| Tab::new(*user, name))
            .collect()
    }

    #[test]
    fn tabs_are_viewed_as_people() {
        let mut tabs = tabs(&[("u1", "Thandi"), ("u2", "Pieter"), ("u1", "Thandi")]);
        assert!(tabs[0].set(Some("/customers/cus_1".into()), None));
        assert!(
            !tabs[0].set(Some("/customers/cus_1".into()), None),
            "same record again is no change"
        );
        assert!(tabs[2].set(
            Some("/customers/cus_1".into()),
            Some("/customers/cus_1".into())
        ));
        let people = view(&tabs);
        assert_eq!(people.len(), 2, "one entry per person");
        assert_eq!(people["u1"].viewing, vec!["/customers/cus_1"; 2]);
        assert_eq!(people["u1"].editing, vec!["/customers/cus_1"]);
        assert_eq!(people["u2"].name, "Pieter");
        assert!(view(&[]).is_empty());
    }

    #[test]
    fn the_diff_names_who_joined_moved_and_left() {
        let mut tabs = tabs(&[("u1", "Thandi"), ("u2", "Pieter")]);
        let before = view(&tabs);
        tabs.remove(1);
        tabs.push(Tab::new("u3", "Lerato"));
        tabs[0].set(Some("/payments".into()), None);
        let after = view(&tabs);
        let changes = diff(&before, &after);
        assert_eq!(changes.joined.len(), 1);
        assert_eq!(changes.joined[0].user_id, "u3");
        assert_eq!(changes.moved.len(), 1);
        assert_eq!(changes.moved[0].viewing, vec!["/payments"]);
        assert_eq!(changes.left, vec!["u2"]);
        assert!(diff(&after, &after).is_empty());
    }

    #[test]
    fn each_role_sees_everyone_online_on_its_own_screens() {
        let mut tabs = tabs(&[("u1", "Thandi"), ("u1", "Thandi"), ("u2", "Pieter")]);
        tabs[0].set(Some("/account/payouts".into()), None);
        tabs[1].set(
            Some("/customers/cus_1".into()),
            Some("/customers/cus_1".into()),
        );
        let people = view(&tabs);
        let customers_only = Permissions::all(Access::None).with(Section::Customers, Access::Read);
        let seen = as_seen(&people, &customers_only);
        assert_eq!(seen.len(), 2, "everyone online is listed");
        assert_eq!(seen["u1"].viewing, vec!["/customers/cus_1"]);
        assert_eq!(seen["u1"].editing, vec!["/customers/cus_1"]);
        assert_eq!(as_seen(&people, &Permissions::all(Access::Write)), people);
    }

    #[test]
    fn the_view_is_capped_at_the_first_people_by_id() {
        let tabs: Vec<Tab> = (0..PEOPLE_LIMIT + 20)
            .rev()
            .map(|i| Tab::new(format!("u{i:04}"), "Someone"))
            .collect();
        let people = view(&tabs);
        assert_eq!(people.len(), PEOPLE_LIMIT);
        assert!(people.contains_key("u0000"));
        assert!(!people.contains_key(&format!("u{:04}", PEOPLE_LIMIT)));
    }
}
