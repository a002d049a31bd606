//! Answers are compressed when the client accepts it, and only then; the
//! socket upgrade passes untouched even when the browser offers compression.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

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

async fn the_build_s_compressed_copies_are_sent_as_they_are(db: Database) {
    // A web folder whose gzip copy differs from the plain file, to tell which one went out.
    let web = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(web.path().join("assets")).unwrap();
    std::fs::write(web.path().join("index.html"), "<html><head></head></html>").unwrap();
    std::fs::write(web.path().join("assets/app.js"), "console.log('plain')").unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, b"console.log('from the build')").unwrap();
    std::fs::write(web.path().join("assets/app.js.gz"), gz.finish().unwrap()).unwrap();
    let web_dir = web.path().to_path_buf();
    let app = TestApp::start_with(db, |config| config.web_dir = web_dir).await;

    let gzipped = fetch(&app, "/assets/app.js", Some("gzip;q=1, br;q=0.5")).await;
    assert_eq!(gzipped.headers()["content-encoding"], "gzip");
    assert_eq!(
        gzipped.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(
        gunzip(&gzipped.bytes().await.unwrap()),
        "console.log('from the build')"
    );

    // No Brotli copy: the server compresses the plain file itself.
    let brotli = fetch(&app, "/assets/app.js", Some("br")).await;
    assert_eq!(brotli.headers()["content-encoding"], "br");

    let plain = fetch(&app, "/assets/app.js", None).await;
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.text().await.unwrap(), "console.log('plain')");
    // An asset that is not there stays a 404 whatever the client accepts.
    assert_eq!(
        fetch(&app, "/assets/missing.js", Some("gzip"))
            .await
            .status(),
        404
    );
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
    the_build_s_compressed_copies_are_sent_as_they_are,
    the_socket_opens_for_a_browser_that_offers_compression,
);
