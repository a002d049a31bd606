//! Which part of the product a screen's path shows. A tab tells the team
//! where it is (`/customers/cus_…`); each member is told only of the screens
//! their own role could open, so a member limited to payments does not learn
//! which payouts, tokens or team pages the owner has open.
//!
//! The table follows the web app's routes (`web/src/app/routes.json`): a path
//! that matches none of them is not a screen, and is told to no one.

use super::permissions::{Access, Permissions, Section};

/// What a member needs to be told someone is on a screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenNeeds {
    /// Every member opens it (home, their own profile).
    Anyone,
    /// Read access to this section.
    Reads(Section),
}

/// The signed-in screens: `:id` stands for one segment (a record's id).
const SCREENS: &[(&str, ScreenNeeds)] = {
    use ScreenNeeds::{Anyone, Reads};
    use Section as S;
    &[
        ("/", Anyone),
        ("/home", Anyone),
        ("/account/profile", Anyone),
        ("/insights", Reads(S::Insights)),
        ("/download/summary", Reads(S::Exports)),
        ("/cards", Reads(S::Customers)),
        ("/customers", Reads(S::Customers)),
        ("/customers/:id", Reads(S::Customers)),
        ("/mandates", Reads(S::Mandates)),
        ("/mandates/:id", Reads(S::Mandates)),
        ("/payments/e-mandates", Reads(S::Mandates)),
        ("/payments/one-time", Reads(S::Payments)),
        ("/payments/one-time/:id", Reads(S::Payments)),
        ("/payments/recurring", Reads(S::Payments)),
        ("/payments/recurring/:id", Reads(S::Payments)),
        ("/payments/one-time/imports/:id", Reads(S::Imports)),
        ("/payments/recurring/imports/:id", Reads(S::Imports)),
        ("/payments/transactions", Reads(S::Transactions)),
        ("/payments/transactions/:id", Reads(S::Transactions)),
        ("/payments/pages", Reads(S::PayPages)),
        ("/commerce/orders", Reads(S::Orders)),
        ("/account/business-info", Reads(S::Settings)),
        ("/settings/payment-methods", Reads(S::Settings)),
        ("/account/payouts", Reads(S::Payouts)),
        ("/account/teams", Reads(S::Team)),
        ("/account/teams/:id", Reads(S::Team)),
        ("/account/history", Reads(S::History)),
        ("/account/history/:id", Reads(S::History)),
        ("/developers/integrations", Reads(S::Developers)),
        ("/developers/tokens", Reads(S::Developers)),
        ("/developers/webhooks", Reads(S::Developers)),
        ("/developers/webhooks/:id", Reads(S::Developers)),
    ]
};

/// What `path` needs, or `None` when it is no signed-in screen.
pub fn screen_needs(path: &str) -> Option<ScreenNeeds> {
    SCREENS
        .iter()
        .find(|(pattern, _)| matches(pattern, path))
        .map(|(_, needs)| *needs)
}

/// Whether a member with `permissions` may be told someone is on `path`.
pub fn shown_to(path: &str, permissions: &Permissions) -> bool {
    match screen_needs(path) {
        Some(ScreenNeeds::Anyone) => true,
        Some(ScreenNeeds::Reads(section)) => permissions.allows(section, Access::Read),
        None => false,
    }
}

fn matches(pattern: &str, path: &str) -> bool {
    let mut wanted = pattern.split('/');
    let mut given = path.split('/');
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return true,
            (Some(":id"), Some(segment)) if is_id(segment) => {}
            (Some(want), Some(segment)) if want == segment => {}
            _ => return false,
        }
    }
}

/// A record's id as the app puts it in a path (`cus_01H…`): letters,
/// digits, `_` and `-`.
fn is_id(segment: &str) -> bool {
    !segment.is_empty()
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::domain::permissions::{Role, preset};

    #[test]
    fn screens_are_matched_segment_by_segment() {
        assert_eq!(screen_needs("/"), Some(ScreenNeeds::Anyone));
        assert_eq!(
            screen_needs("/customers/cus_01HX-2"),
            Some(ScreenNeeds::Reads(Section::Customers))
        );
        assert_eq!(
            screen_needs("/payments/one-time/imports/imp_1"),
            Some(ScreenNeeds::Reads(Section::Imports))
        );
        for not_a_screen in [
            "",
            "/customers/",
            "/customers/cus_1/extra",
            "/customers/<b>",
            "/nowhere",
            "customers",
            "/auth/login",
        ] {
            assert_eq!(screen_needs(not_a_screen), None, "{not_a_screen:?}");
        }
    }

    /// The table follows the app's routes: every signed-in screen is in it,
    /// and nothing else is.
    #[test]
    fn every_signed_in_route_of_the_app_is_a_screen() {
        let routes: Vec<serde_json::Value> =
            serde_json::from_str(include_str!("../../../../web/src/app/routes.json")).unwrap();
        let signed_in: Vec<&str> = routes
            .iter()
            .filter(|route| route["access"] == "protected")
            .map(|route| route["path"].as_str().unwrap())
            .collect();
        let table: Vec<&str> = SCREENS.iter().map(|(pattern, _)| *pattern).collect();
        for path in &signed_in {
            assert!(table.contains(path), "{path} is missing from SCREENS");
        }
        for pattern in &table {
            assert!(
                signed_in.contains(pattern),
                "{pattern} is no route of the app"
            );
        }
    }

    #[test]
    fn a_member_is_told_only_of_screens_their_role_opens() {
        let owner = preset(Role::Owner).unwrap();
        let viewer = preset(Role::Viewer).unwrap();
        let none = Permissions::all(Access::None);
        for path in [
            "/account/payouts",
            "/developers/tokens",
            "/account/teams/tm_1",
        ] {
            assert!(shown_to(path, &owner), "{path}");
        }
        assert!(shown_to("/", &none), "home is everyone's");
        assert!(shown_to("/account/profile", &none));
        assert!(!shown_to("/customers/cus_1", &none));
        assert!(
            !shown_to("/nowhere", &owner),
            "not a screen: told to no one"
        );
        let payments_only = none.with(Section::Payments, Access::Read);
        assert!(shown_to("/payments/recurring/pay_1", &payments_only));
        assert!(!shown_to("/account/payouts", &payments_only));
        assert!(!shown_to("/developers/webhooks/we_1", &payments_only));
        // Whatever a preset reads, it is told of.
        assert_eq!(
            shown_to("/insights", &viewer),
            viewer.allows(Section::Insights, Access::Read)
        );
    }
}
