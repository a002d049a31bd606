//! Every HTTP route, declared in this one place. HTTP carries only
//! authentication, the pay page, the static app and the health probes; the
//! rest rides `/ws`.

pub mod access_log;
pub mod api;
mod auth;
mod body;
mod client;
mod client_config;
mod cookies;
mod email_sign_in;
mod health;
mod invites;
mod metrics;
mod pay;
mod recovery;
pub mod return_address;
mod static_app;
mod ws;

use actix_web::{FromRequest, Handler, Responder, web};

/// Why `base` cannot be the authentication endpoints' base path, if it
/// cannot: one the web app has pages at or under (`/auth` holds the sign-in
/// page) would send auth requests into the page route, and the page route's
/// requests into the auth scope. The specification's 'Server configuration
/// error'.
pub fn auth_base_path_error(base: &str) -> Option<String> {
    let trimmed = base.trim_end_matches('/');
    let under = format!("{trimmed}/");
    let clashes = !trimmed.starts_with('/')
        || static_app::is_app_route(trimmed)
        || paydesk::domain::app_routes::app_routes()
            .iter()
            .any(|route| route.path.starts_with(&under));
    clashes.then(|| {
        format!(
            "Server configuration error: AUTH_BASE_PATH {base:?} is not a path of its own (the web app has pages there)"
        )
    })
}

pub fn routes(cfg: &mut web::ServiceConfig, auth_base_path: &str) {
    cfg.service(
        web::scope(auth_base_path.trim_end_matches('/'))
            .route("/csrf", web::get().to(auth::csrf))
            .route("/providers", web::get().to(auth::providers))
            .route("/session", web::get().to(auth::session))
            .route("/config", web::get().to(client_config::client_config))
            .route("/signin/credentials", web::post().to(auth::sign_in))
            .route("/callback/credentials", web::post().to(auth::sign_in))
            .route("/signin/email", web::post().to(email_sign_in::request))
            .route("/callback/email", web::get().to(email_sign_in::follow))
            .route("/callback/email", web::post().to(email_sign_in::finish))
            .route("/signout", web::post().to(auth::sign_out))
            .route("/signup", web::post().to(auth::sign_up))
            .route("/forgot", web::post().to(recovery::forgot))
            .route("/reset", web::post().to(recovery::reset))
            .route("/reset/check", web::post().to(recovery::check_reset))
            .route("/verify-email", web::post().to(recovery::verify_email))
            .route("/invite", web::post().to(invites::details))
            .route("/invite/accept", web::post().to(invites::accept))
            .route("/invite/signup", web::post().to(invites::sign_up))
            .default_service(web::to(auth::unknown)),
    )
    .route("/healthz", web::get().to(health::healthz))
    .route("/healthz", web::head().to(health::healthz))
    .route("/readyz", web::get().to(health::readyz))
    .route("/readyz", web::head().to(health::readyz))
    .route("/metrics", web::get().to(metrics::scrape))
    .route("/ws", web::get().to(ws::upgrade))
    .service(api::scope())
    .route("/pay/{id}", web::post().to(pay::submit))
    .route(
        "/pay/{id}/debicheck",
        web::post().to(pay::mandate::start_from_page),
    )
    .route("/mandate/{token}", web::post().to(pay::mandate::submit))
    .route(
        "/mandate/{token}/bank",
        web::post().to(pay::mandate::answer_bank),
    )
    .route("/card/{token}", web::post().to(pay::card_update::submit))
    .route("/pay/{id}/attempts/{attempt}", web::post().to(pay::answer));
    // The payer's pages answer HEAD as GET, without the body (a link
    // checker's or a chat app's preview asks so first).
    page(cfg, "/pay/{id}", pay::show);
    page(cfg, "/pay/{id}/logo", pay::logo);
    page(cfg, "/mandate/{token}", pay::mandate::show);
    page(cfg, "/mandate/{token}/bank", pay::mandate::show_bank);
    // Before `/card/{token}`: the first route that matches answers.
    page(cfg, pay::card_update::SAVED_PATH, pay::card_update::saved);
    page(cfg, "/card/{token}", pay::card_update::show);
    page(cfg, "/pay/{id}/attempts/{attempt}", pay::show_attempt);
    cfg.default_service(web::to(static_app::serve));
}

/// A page answered to GET and to HEAD (actix sends HEAD's headers only).
fn page<F, Args>(cfg: &mut web::ServiceConfig, path: &str, handler: F)
where
    F: Handler<Args> + Clone,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    cfg.route(path, web::get().to(handler.clone()))
        .route(path, web::head().to(handler));
}

#[cfg(test)]
mod tests {
    use super::auth_base_path_error;

    #[test]
    fn an_auth_base_path_must_be_a_path_of_its_own() {
        assert_eq!(auth_base_path_error("/api/auth"), None);
        assert_eq!(auth_base_path_error("/api/auth/"), None);
        // The sign-in page lives under /auth; a customer's page is /customers/:id.
        for clash in ["/auth", "/payments", "/customers/cus_1", "/", "api/auth"] {
            let error = auth_base_path_error(clash).unwrap_or_default();
            assert!(
                error.starts_with("Server configuration error"),
                "{clash}: {error}"
            );
        }
    }
}
