//! `/metrics` for Prometheus, behind the bearer token of `METRICS_TOKEN`.
//! Without a configured token the path is answered as any unknown path is.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use super::static_app;
use crate::state::State;

pub async fn scrape(state: State, req: HttpRequest) -> HttpResponse {
    let Some(token) = &state.config.metrics_token else {
        return static_app::serve(state, req).await;
    };
    let presented = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or("");
    if !token.matches(presented) {
        return HttpResponse::Unauthorized()
            .insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"metrics\""))
            .finish();
    }
    match crate::metrics::render(&state).await {
        Some(text) => HttpResponse::Ok()
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .content_type("text/plain; version=0.0.4; charset=utf-8")
            .body(text),
        None => HttpResponse::ServiceUnavailable().finish(),
    }
}
