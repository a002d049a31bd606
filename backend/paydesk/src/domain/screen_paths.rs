//! Which part of the product a screen's path shows. A tab tells the team
//! where it is (`/customers/cus_…`); each member is told only of the screens
//! their own role could open, so a member limited to payments does not learn
//! which payouts, tokens or team pages the owner has open.
//!
//! The screens are the signed-in routes of the web app's own table
//! (`app_routes`), each with the section a member must read to open it: a
//! path that is no signed-in screen is told to no one.

use super::app_routes::{RouteAccess, route_at};
use super::permissions::{Access, Permissions, Section};

/// What a member needs to be told someone is on a screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenNeeds {
    /// Every member opens it (home, their own profile).
    Anyone,
    /// Read access to this section.
    Reads(Section),
}

/// What `path` needs, or `None` when it is no signed-in screen.
pub fn screen_needs(path: &str) -> Option<ScreenNeeds> {
    let route = route_at(path).filter(|route| route.access == RouteAccess::Protected)?;
    Some(
        route
            .section
            .map_or(ScreenNeeds::Anyone, ScreenNeeds::Reads),
    )
}

/// Whether a member with `permissions` may be told someone is on `path`.
pub fn shown_to(path: &str, permissions: &Permissions) -> bool {
    match screen_needs(path) {
        Some(ScreenNeeds::Anyone) => true,
        Some(ScreenNeeds::Reads(section)) => permissions.allows(section, Access::Read),
        None => false,
    }
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
            "/account/teams/invite/tok_1",
        ] {
            assert_eq!(screen_needs(not_a_screen), None, "{not_a_screen:?}");
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
