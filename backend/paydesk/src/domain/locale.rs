//! The app's own words, from `locales/<language>.json`, for what the server
//! writes in a person's language where the web app's translations do not
//! reach: files to download, the command line's messages.

use std::sync::OnceLock;

use protocol::Language;
use serde_json::Value;

const EN: &str = include_str!("../../../../locales/en.json");
const AFR: &str = include_str!("../../../../locales/afr.json");

/// The whole locale file of a language, read once.
pub fn words(language: Language) -> &'static Value {
    static EN_WORDS: OnceLock<Value> = OnceLock::new();
    static AFR_WORDS: OnceLock<Value> = OnceLock::new();
    let (cell, source) = match language {
        Language::En => (&EN_WORDS, EN),
        Language::Afr => (&AFR_WORDS, AFR),
    };
    cell.get_or_init(|| serde_json::from_str(source).unwrap_or(Value::Null))
}

/// The text at `path` (`["accountHistory", "action", "created"]`), or none
/// when the language has no text there: a missing key or a group of words.
pub fn text(language: Language, path: &[&str]) -> Option<&'static str> {
    path.iter()
        .try_fold(words(language), |node, part| node.get(part))
        .and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_found_by_path_and_groups_are_not_texts() {
        let path = ["accountHistory", "action", "created"];
        assert_eq!(text(Language::En, &path), Some("Created"));
        assert_eq!(text(Language::Afr, &path), Some("Geskep"));
        assert_eq!(text(Language::En, &["accountHistory", "action"]), None);
        assert_eq!(
            text(Language::En, &["accountHistory", "nothing.here"]),
            None
        );
    }
}
