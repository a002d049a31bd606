//! Who of the team is online, one entry per tab. Pure state: the merchant
//! actor does the I/O.

use std::collections::BTreeMap;

use protocol::PresenceMember;

#[derive(Default)]
pub struct PresenceBoard {
    members: BTreeMap<String, PresenceMember>,
}

impl PresenceBoard {
    pub fn join(&mut self, session_id: &str, user_id: &str, name: &str) {
        self.members.insert(
            session_id.to_string(),
            PresenceMember {
                session_id: session_id.into(),
                user_id: user_id.into(),
                name: name.into(),
                viewing: None,
            },
        );
    }

    /// Returns whether anything changed.
    pub fn leave(&mut self, session_id: &str) -> bool {
        self.members.remove(session_id).is_some()
    }

    /// Returns whether anything changed.
    pub fn set_viewing(&mut self, session_id: &str, viewing: Option<String>) -> bool {
        match self.members.get_mut(session_id) {
            Some(member) if member.viewing != viewing => {
                member.viewing = viewing;
                true
            }
            _ => false,
        }
    }

    pub fn snapshot(&self) -> Vec<PresenceMember> {
        self.members.values().cloned().collect()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_join_view_and_leave() {
        let mut board = PresenceBoard::default();
        board.join("s1", "u1", "Thandi");
        board.join("s2", "u2", "Pieter");
        assert!(board.set_viewing("s1", Some("/customers/cus_1".into())));
        assert!(
            !board.set_viewing("s1", Some("/customers/cus_1".into())),
            "same record again is no change"
        );
        assert!(!board.set_viewing("nobody", None));
        let snapshot = board.snapshot();
        assert_eq!(snapshot.len(), 2);
        assert_eq!(snapshot[0].viewing.as_deref(), Some("/customers/cus_1"));
        assert!(board.leave("s1"));
        assert!(!board.leave("s1"));
        assert!(board.leave("s2"));
        assert!(board.is_empty());
    }
}
