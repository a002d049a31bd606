//! The one search box: a few records of each kind the member may read whose
//! name, reference, e-mail address, ID number or account number holds the
//! text, in the socket's business and mode.

use protocol::{ErrorCode, ReplyBody, SEARCH_MAX_CHARS, SEARCH_MIN_CHARS, SearchGroup, SearchKind};

use super::Scope;
use super::permissions::{Access, Permissions, Section};
use crate::error::{AppError, AppResult};
use crate::store::{Db, search as store};

/// A few of each kind: the box points the way to a record, the lists page
/// through the rest.
const HITS_PER_KIND: u32 = 5;

/// The section whose readers may see records of `kind`: the one that opens
/// the record's screen.
pub fn section_of(kind: SearchKind) -> Section {
    match kind {
        SearchKind::Customer => Section::Customers,
        SearchKind::Payment => Section::Payments,
        SearchKind::Mandate => Section::Mandates,
        SearchKind::Transaction => Section::Transactions,
        SearchKind::Order => Section::Orders,
        SearchKind::Payout => Section::Payouts,
    }
}

/// The kinds a member with `permissions` is searched for, in the order the
/// groups are shown.
pub fn searched_kinds(permissions: &Permissions) -> Vec<SearchKind> {
    SearchKind::ALL
        .into_iter()
        .filter(|kind| permissions.allows(section_of(*kind), Access::Read))
        .collect()
}

/// The text to search for, trimmed; `None` when too short to search (the
/// box says so itself), `too_long` past the limit.
fn searched_text(text: &str) -> AppResult<Option<&str>> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars > SEARCH_MAX_CHARS {
        return Err(AppError::field("text", ErrorCode::TooLong));
    }
    Ok((chars >= SEARCH_MIN_CHARS).then_some(text))
}

pub async fn search(db: &Db, scope: &Scope, text: &str) -> AppResult<ReplyBody> {
    let Some(text) = searched_text(text)? else {
        return Ok(ReplyBody::SearchResults { groups: Vec::new() });
    };
    let mut groups = Vec::new();
    // One kind after another: six short reads on the pool, and a slow
    // search holds one connection rather than six.
    for kind in searched_kinds(&scope.permissions) {
        let hits = store::find(
            db,
            &scope.merchant_id,
            scope.mode,
            kind,
            text,
            HITS_PER_KIND,
        )
        .await?;
        if !hits.is_empty() {
            groups.push(SearchGroup { kind, hits });
        }
    }
    Ok(ReplyBody::SearchResults { groups })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::domain::permissions::{Role, preset};

    #[test]
    fn a_role_is_searched_only_for_what_it_reads() {
        let finance = preset(Role::Finance).unwrap();
        assert_eq!(
            searched_kinds(&finance),
            [
                SearchKind::Transaction,
                SearchKind::Order,
                SearchKind::Payout
            ]
        );
        let support = preset(Role::Support).unwrap();
        assert_eq!(
            searched_kinds(&support),
            [SearchKind::Customer, SearchKind::Payment]
        );
        let owner = preset(Role::Owner).unwrap();
        assert_eq!(searched_kinds(&owner), SearchKind::ALL);
        assert!(searched_kinds(&Permissions::all(Access::None)).is_empty());
    }

    #[test]
    fn text_is_trimmed_and_bounded() {
        assert_eq!(searched_text("  nkosi \n").unwrap(), Some("nkosi"));
        assert_eq!(searched_text(" a ").unwrap(), None);
        assert_eq!(searched_text("").unwrap(), None);
        let long = "é".repeat(SEARCH_MAX_CHARS);
        assert_eq!(searched_text(&long).unwrap(), Some(long.as_str()));
        assert!(searched_text(&format!("{long}x")).is_err());
    }
}
