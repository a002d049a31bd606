//! Error messages for places the web app's translations do not reach: the
//! command line and the downloadable sheet of invalid rows. The words are
//! the app's own, from `locales/<language>.json` (`errors.<code>`).

use protocol::{ErrorCode, Language};

use crate::domain::locale::words;

/// The message of `code`, or the code itself when no words were written.
pub fn message(code: ErrorCode, language: Language) -> String {
    let key = crate::store::sql::wire_name(&code);
    words(language)["errors"][key.as_str()]
        .as_str()
        .map_or(key.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_code_of_the_import_has_words_in_both_languages() {
        let codes = [
            ErrorCode::ImportMissingColumn,
            ErrorCode::InvalidChoice,
            ErrorCode::InvalidSpreadsheetDate,
            ErrorCode::Required,
        ];
        for code in codes {
            for language in [Language::En, Language::Afr] {
                let text = message(code, language);
                assert_ne!(
                    text,
                    crate::store::sql::wire_name(&code),
                    "{code:?} {language:?}"
                );
            }
        }
    }
}
