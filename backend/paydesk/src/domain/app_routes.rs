//! The web app's route table (`web/src/app/routes.json`), read once from the
//! file the app itself is built with, so the server and the app never
//! disagree about which pages exist. The server serves the app at these
//! paths (and a real 404 elsewhere), keeps the secret part of `:token` paths
//! out of its access log, and tells presence only of signed-in screens.

use std::sync::LazyLock;

use serde::Deserialize;

use super::permissions::Section;
use crate::ids::is_well_formed_id;

/// Who a route's page is for.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum RouteAccess {
    /// Signed-in members: the screens presence tells of.
    Protected,
    /// Signed-out visitors (sign-in, sign-up).
    Guest,
    /// Anyone with the link (an invite, a backup-code page).
    Open,
}

/// One route of the app.
#[derive(Deserialize, Debug)]
pub struct AppRoute {
    /// `/customers/:id`: a `:name` segment stands for one well-formed id or token.
    pub path: String,
    pub access: RouteAccess,
    /// What a member must read to open the screen; none: every member may.
    #[serde(default)]
    pub section: Option<Section>,
}

/// A table that cannot be read is empty: no page is served and no screen is
/// told to anyone, which every test of the app would show at once; a unit
/// test below reads it.
static ROUTES: LazyLock<Vec<AppRoute>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../../web/src/app/routes.json")).unwrap_or_default()
});

pub fn app_routes() -> &'static [AppRoute] {
    &ROUTES
}

/// The start of every app route whose last segment is a secret (`:token`):
/// what the access log must not print past.
pub fn secret_route_prefixes() -> impl Iterator<Item = &'static str> {
    ROUTES
        .iter()
        .filter_map(|route| route.path.strip_suffix(":token"))
}

/// The route `path` is on, matched segment by segment; none for a path the
/// app has no page for. A trailing `/` is another path.
pub fn route_at(path: &str) -> Option<&'static AppRoute> {
    ROUTES.iter().find(|route| matches(&route.path, path))
}

fn matches(pattern: &str, path: &str) -> bool {
    let mut wanted = pattern.split('/');
    let mut given = path.split('/');
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return true,
            (Some(want), Some(segment)) if want.starts_with(':') => {
                if !is_well_formed_id(segment) {
                    return false;
                }
            }
            (Some(want), Some(segment)) if want == segment => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_app_route_table_is_read_whole() {
        let routes: Vec<serde_json::Value> =
            serde_json::from_str(include_str!("../../../../web/src/app/routes.json")).unwrap();
        let paths: Vec<&str> = app_routes().iter().map(|r| r.path.as_str()).collect();
        let listed: Vec<&str> = routes
            .iter()
            .map(|route| route["path"].as_str().unwrap())
            .collect();
        assert_eq!(paths, listed);
        let payouts = route_at("/account/payouts").unwrap();
        assert_eq!(payouts.access, RouteAccess::Protected);
        assert_eq!(payouts.section, Some(Section::Payouts));
        let invite = route_at("/account/teams/invite/tok-1_A").unwrap();
        assert_eq!(invite.access, RouteAccess::Open);
        assert_eq!(route_at("/auth/login").unwrap().access, RouteAccess::Guest);
    }

    #[test]
    fn paths_are_matched_segment_by_segment() {
        assert_eq!(route_at("/").unwrap().path, "/");
        assert_eq!(
            route_at("/payments/one-time/imports/imp_1").unwrap().path,
            "/payments/one-time/imports/:id"
        );
        for not_a_page in [
            "",
            "customers",
            "/customers/",
            "/customers/cus_1/extra",
            "/customers/<b>",
            "/customers/bad%20id",
            "/nowhere",
            "/pay/x",
        ] {
            assert!(route_at(not_a_page).is_none(), "{not_a_page:?}");
        }
        let too_long = format!("/customers/{}", "x".repeat(65));
        assert!(route_at(&too_long).is_none());
    }
}
