//! Serves the built web app: assets as files, the product's routes as
//! `index.html` (history fallback), and a real 404 for everything else.

use actix_web::http::StatusCode;
use actix_web::http::header::{AcceptEncoding, Encoding, Header};
use actix_web::{HttpRequest, HttpResponse};

use super::cookies;
use crate::state::State;
use paydesk::domain::app_routes::route_at;

/// Whether the app has a page at `path` (a trailing `/` is forgiven); the
/// table is the app's own (`paydesk::domain::app_routes`).
pub fn is_app_route(path: &str) -> bool {
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    route_at(path).is_some()
}

pub async fn serve(state: State, req: HttpRequest) -> HttpResponse {
    let path = req.path();
    if req.method() != actix_web::http::Method::GET && req.method() != actix_web::http::Method::HEAD
    {
        return HttpResponse::MethodNotAllowed().finish();
    }
    if path != "/"
        && !is_app_route(path)
        && let Some(file) = static_file(&state, &req, path)
    {
        return file;
    }
    let status = if is_app_route(path) {
        StatusCode::OK
    } else {
        StatusCode::NOT_FOUND
    };
    app_page(&state, &req, status)
}

/// `index.html` with the CSRF token in a meta tag; the app then sends it in a header.
fn app_page(state: &State, req: &HttpRequest, status: StatusCode) -> HttpResponse {
    let Some(index) = state.index_html() else {
        return HttpResponse::build(status)
            .content_type("text/plain; charset=utf-8")
            .body("The web app is not built. Run `npm --prefix web run build`, then restart the server.");
    };
    let (token, set_cookies) = cookies::csrf_token(state, req);
    let meta = format!("<meta name=\"csrf-token\" content=\"{token}\">");
    let html = index.replacen("</head>", &format!("{meta}</head>"), 1);
    let mut response = HttpResponse::build(status);
    response
        .content_type("text/html; charset=utf-8")
        .insert_header(("Cache-Control", "no-cache"));
    for cookie in set_cookies {
        response.cookie(cookie);
    }
    response.body(html)
}

/// A file under the web folder; never one outside it. The build writes a
/// Brotli and a gzip copy beside each asset, compressed harder than the server
/// would on the fly; the client gets the best one it accepts.
fn static_file(state: &State, req: &HttpRequest, path: &str) -> Option<HttpResponse> {
    let relative = path.trim_start_matches('/');
    if relative.is_empty()
        || relative
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == ".." || part.starts_with('.'))
    {
        return None;
    }
    let full = state.config.web_dir.join(relative);
    if !full.is_file() {
        return None;
    }
    let (bytes, encoding) =
        precompressed(req, &full).or_else(|| Some((std::fs::read(&full).ok()?, None)))?;
    let content_type = match full
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    // Hashed asset names never change content, so they may be cached for good.
    let cache = if relative.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = HttpResponse::Ok();
    response
        .content_type(content_type)
        .insert_header(("Cache-Control", cache))
        .insert_header(("Vary", "Accept-Encoding"));
    if let Some(encoding) = encoding {
        // An answer that already has an encoding is left alone by the compressing middleware.
        response.insert_header(("Content-Encoding", encoding));
    }
    Some(response.body(bytes))
}

/// The `.br` or `.gz` copy of `full` the client prefers, when the build made one.
fn precompressed(
    req: &HttpRequest,
    full: &std::path::Path,
) -> Option<(Vec<u8>, Option<&'static str>)> {
    let accepted = AcceptEncoding::parse(req).ok()?;
    let offered = [Encoding::brotli(), Encoding::gzip(), Encoding::identity()];
    let (suffix, name) = match accepted.negotiate(offered.iter())? {
        e if e == Encoding::brotli() => ("br", "br"),
        e if e == Encoding::gzip() => ("gz", "gzip"),
        _ => return None,
    };
    let mut copy = full.as_os_str().to_owned();
    copy.push(".");
    copy.push(suffix);
    let bytes = std::fs::read(copy).ok()?;
    Some((bytes, Some(name)))
}

#[cfg(test)]
mod tests {
    use super::is_app_route;

    #[test]
    fn product_routes_match_and_others_do_not() {
        for path in [
            "/",
            "/home",
            "/customers",
            "/customers/cus_123",
            "/payments/one-time/imports/imp_1",
            "/auth/reset/abc-DEF_1",
            "/customers/",
        ] {
            assert!(is_app_route(path), "{path}");
        }
        for path in [
            "/nope",
            "/customers/a/b",
            "/customers/bad%20id",
            "/customers/..",
            "/assets/x.js",
            "/pay/x",
        ] {
            assert!(!is_app_route(path), "{path}");
        }
    }
}
