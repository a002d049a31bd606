//! The baseline for the pay page benchmark (docs/benchmarks.md, "Pay page"):
//! a bare actix-web server, the same actix-web and the same worker count as
//! the backend (actix's default, one per core), with one handler that
//! answers every GET with a small static HTML page. `loadtest/pay-bench.sh`
//! runs wrk against it and against `/pay/{id}` side by side.

use actix_web::{App, HttpResponse, HttpServer, web};
use clap::Parser;

const PAGE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>Pay</title></head><body><main><h1>Yoga class</h1>\
<p>One drop-in class at the Karoo studio.</p><p>R 150.00</p></main></body></html>\n";

#[derive(Parser, Debug)]
#[command(about = "A bare actix-web handler returning a small static page")]
struct Args {
    /// Port to listen on, on 127.0.0.1 only.
    #[arg(long, default_value_t = 18092)]
    port: u16,
}

async fn page() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(PAGE)
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let args = Args::parse();
    HttpServer::new(|| App::new().default_service(web::get().to(page)))
        // As the backend: no Nagle delay, default workers (one per core).
        .tcp_nodelay(true)
        .bind(("127.0.0.1", args.port))?
        .run()
        .await
}
