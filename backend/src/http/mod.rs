//! Every HTTP route, declared in this one place. HTTP carries only
//! authentication, the pay page, the static app and the health probes; the
//! rest rides `/ws`.

pub mod access_log;
pub mod api;
mod auth;
mod body;
mod cookies;
mod health;
mod metrics;
mod pay;
mod recovery;
pub mod return_address;
mod static_app;
mod ws;

use actix_web::web;

pub fn routes(cfg: &mut web::ServiceConfig, auth_base_path: &str) {
    cfg.service(
        web::scope(auth_base_path.trim_end_matches('/'))
            .route("/csrf", web::get().to(auth::csrf))
            .route("/providers", web::get().to(auth::providers))
            .route("/session", web::get().to(auth::session))
            .route("/signin/credentials", web::post().to(auth::sign_in))
            .route("/callback/credentials", web::post().to(auth::sign_in))
            .route("/signout", web::post().to(auth::sign_out))
            .route("/signup", web::post().to(auth::sign_up))
            .route("/forgot", web::post().to(recovery::forgot))
            .route("/reset", web::post().to(recovery::reset))
            .route("/verify-email", web::post().to(recovery::verify_email))
            .default_service(web::to(auth::unknown)),
    )
    .route("/healthz", web::get().to(health::healthz))
    .route("/readyz", web::get().to(health::readyz))
    .route("/metrics", web::get().to(metrics::scrape))
    .route("/ws", web::get().to(ws::upgrade))
    .service(api::scope())
    .route("/pay/{id}", web::get().to(pay::show))
    .route("/pay/{id}", web::post().to(pay::submit))
    .route("/pay/{id}/logo", web::get().to(pay::logo))
    .route("/mandate/{token}", web::get().to(pay::mandate::show))
    .route(
        "/pay/{id}/attempts/{attempt}",
        web::get().to(pay::show_attempt),
    )
    .route("/pay/{id}/attempts/{attempt}", web::post().to(pay::answer))
    .default_service(web::to(static_app::serve));
}
