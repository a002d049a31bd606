//! Answers are compressed when the client accepts it, and only then; the
//! socket upgrade passes untouched even when the browser offers compression.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Read;

use common::{Database, TestApp};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

async fn fetch(app: &TestApp, path: &str, accept_encoding: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(app.url(path));
    if let Some(encoding) = accept_encoding {
        request = request.header("Accept-Encoding", encoding);
    }
    request.send().await.unwrap()
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .unwrap();
    text
}

async fn the_app_and_its_assets_are_compressed_when_accepted(db: Database) {
    let app = TestApp::start(db).await;
    for path in ["/assets/app.js", "/customers"] {
        let plain = fetch(&app, path, None).await;
        assert!(plain.headers().get("content-encoding").is_none(), "{path}");
        let plain = plain.text().await.unwrap();

        let gzipped = fetch(&app, path, Some("gzip")).await;
        assert_eq!(gzipped.status(), 200, "{path}");
        assert_eq!(gzipped.headers()["content-encoding"], "gzip", "{path}");
        let vary = gzipped.headers()["vary"].to_str().unwrap().to_lowercase();
        assert!(vary.contains("accept-encoding"), "{path}: {vary}");
        let body = gunzip(&gzipped.bytes().await.unwrap());
        // The app page carries a fresh CSRF token each time: compare up to it.
        let stable = plain.split("<meta name=\"csrf-token\"").next().unwrap();
        assert!(body.starts_with(stable), "{path}");

        let brotli = fetch(&app, path, Some("br")).await;
        assert_eq!(brotli.headers()["content-encoding"], "br", "{path}");
    }
}

async fn the_socket_opens_for_a_browser_that_offers_compression(db: Database) {
    let app = TestApp::start(db).await;
    let browser = app.merchant("owner@example.com").await;
    let mut request = app
        .url("/ws")
        .replacen("http://", "ws://", 1)
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("origin", app.origin().parse().unwrap());
    headers.insert("cookie", browser.cookie_header().parse().unwrap());
    headers.insert("accept-encoding", "gzip, deflate, br".parse().unwrap());
    let (_stream, response) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert_eq!(response.status(), 101);
    assert!(response.headers().get("content-encoding").is_none());
}

on_both_databases!(
    the_app_and_its_assets_are_compressed_when_accepted,
    the_socket_opens_for_a_browser_that_offers_compression,
);
