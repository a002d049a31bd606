//! Who of the team is online. Pure state: the merchant actor does the I/O.
//!
//! The board holds one entry per tab; what tabs are sent is one entry per
//! person (`view`), so a person with many tabs (or a restart reconnecting
//! thousands of them) is one entry, and what changes between two views
//! (`diff`) is all that goes out after a tab's first snapshot.

use std::collections::BTreeMap;
use std::sync::Arc;

use protocol::PresenceMember;

/// At most this many people are listed (the first by user id): the frames
/// stay small whatever the size of the team.
pub const PEOPLE_LIMIT: usize = 100;
/// At most this many paths per person and list (viewing, editing).
pub const PATHS_LIMIT: usize = 8;

/// One open tab. Ids are shared with the merchant actor's member entry and
/// strings are boxed, not `String`s: a restart brings back every tab at
/// once, and this is held per tab.
struct Tab {
    user_id: Arc<str>,
    name: Box<str>,
    viewing: Option<Box<str>>,
    editing: Option<Box<str>>,
}

#[derive(Default)]
pub struct PresenceBoard {
    tabs: BTreeMap<Arc<str>, Tab>,
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

impl PresenceBoard {
    pub fn join(
        &mut self,
        session_id: impl Into<Arc<str>>,
        user_id: impl Into<Arc<str>>,
        name: &str,
    ) {
        self.tabs.insert(
            session_id.into(),
            Tab {
                user_id: user_id.into(),
                name: name.into(),
                viewing: None,
                editing: None,
            },
        );
    }

    /// Returns whether anything changed.
    pub fn leave(&mut self, session_id: &str) -> bool {
        self.tabs.remove(session_id).is_some()
    }

    /// Sets what the tab shows and which form it has open. Returns whether
    /// anything changed.
    pub fn set(
        &mut self,
        session_id: &str,
        viewing: Option<String>,
        editing: Option<String>,
    ) -> bool {
        match self.tabs.get_mut(session_id) {
            Some(tab)
                if tab.viewing.as_deref() != viewing.as_deref()
                    || tab.editing.as_deref() != editing.as_deref() =>
            {
                tab.viewing = viewing.map(String::into_boxed_str);
                tab.editing = editing.map(String::into_boxed_str);
                true
            }
            _ => false,
        }
    }

    /// One entry per person, the first `PEOPLE_LIMIT` by user id.
    pub fn view(&self) -> PresenceView {
        let mut people = PresenceView::new();
        for tab in self.tabs.values() {
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

    pub fn is_empty(&self) -> bool {
        self.tabs.is_empty()
    }
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

    #[test]
    fn tabs_join_view_and_leave_as_people() {
        let mut board = PresenceBoard::default();
        board.join("s1", "u1", "Thandi");
        board.join("s2", "u2", "Pieter");
        board.join("s3", "u1", "Thandi");
        assert!(board.set("s1", Some("/customers/cus_1".into()), None));
        assert!(
            !board.set("s1", Some("/customers/cus_1".into()), None),
            "same record again is no change"
        );
        assert!(board.set(
            "s3",
            Some("/customers/cus_1".into()),
            Some("/customers/cus_1".into())
        ));
        assert!(!board.set("nobody", None, None));
        let view = board.view();
        assert_eq!(view.len(), 2, "one entry per person");
        assert_eq!(view["u1"].viewing, vec!["/customers/cus_1"; 2]);
        assert_eq!(view["u1"].editing, vec!["/customers/cus_1"]);
        assert!(board.leave("s1"));
        assert!(!board.leave("s1"));
        assert!(board.leave("s2"));
        assert!(board.leave("s3"));
        assert!(board.is_empty());
    }

    #[test]
    fn the_diff_names_who_joined_moved_and_left() {
        let mut board = PresenceBoard::default();
        board.join("s1", "u1", "Thandi");
        board.join("s2", "u2", "Pieter");
        let before = board.view();
        board.leave("s2");
        board.join("s3", "u3", "Lerato");
        board.set("s1", Some("/payments".into()), None);
        let after = board.view();
        let changes = diff(&before, &after);
        assert_eq!(changes.joined.len(), 1);
        assert_eq!(changes.joined[0].user_id, "u3");
        assert_eq!(changes.moved.len(), 1);
        assert_eq!(changes.moved[0].viewing, vec!["/payments"]);
        assert_eq!(changes.left, vec!["u2"]);
        assert!(diff(&after, &after).is_empty());
    }

    #[test]
    fn the_view_is_capped_at_the_first_people_by_id() {
        let mut board = PresenceBoard::default();
        for i in (0..PEOPLE_LIMIT + 20).rev() {
            board.join(format!("s{i}"), format!("u{i:04}"), "Someone");
        }
        let view = board.view();
        assert_eq!(view.len(), PEOPLE_LIMIT);
        assert!(view.contains_key("u0000"));
        assert!(!view.contains_key(&format!("u{:04}", PEOPLE_LIMIT)));
    }
}
