//! Setup for the pay page benchmark (docs/benchmarks.md, "Pay page"):
//! against a running server, signs up a merchant, opens the socket in test
//! mode and creates a fixed-amount card and instant EFT pay page with the
//! input of `backend/tests/pay_page.rs`, then prints `page_id=...` for
//! `loadtest/pay-bench.sh` to point wrk at.

#[allow(dead_code)]
#[path = "../../error.rs"]
mod error;
#[allow(dead_code)]
#[path = "../../signup.rs"]
mod signup;
#[allow(dead_code)]
#[path = "../../target.rs"]
mod target;

use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use protocol::{
    AmountMode, ClientFrame, Command, Mode, PayPageInput, PaymentKind, PaymentMethod, ReplyBody,
    ServerFrame,
};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

use crate::error::Fallible;
use crate::signup::sign_up;
use crate::target::Target;

/// Why a reply may take this long: the server shares two cores with a build.
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Parser, Debug)]
#[command(about = "Pay page benchmark setup: a merchant and one test-mode pay page")]
struct Args {
    #[arg(long, default_value = "http://127.0.0.1:18091")]
    url: String,
}

fn page_input() -> PayPageInput {
    PayPageInput {
        title: "Yoga class".into(),
        description: "One drop-in class at the Karoo studio.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind: PaymentKind::Once,
        interval: None,
        methods: vec![PaymentMethod::Card, PaymentMethod::InstantEft],
        expires_on: None,
        max_uses: None,
        reference: "YOGA-1".into(),
        success_url: None,
        colour: "#1e3a8a".into(),
    }
}

async fn create_page(target: &Target) -> Fallible<String> {
    let run = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis().to_string())
        .unwrap_or_default();
    let merchant = sign_up(target, &format!("pay-{run}"), 0).await?;
    let mut request = target.socket_url.as_str().into_client_request()?;
    let headers = request.headers_mut();
    headers.insert("origin", HeaderValue::from_str(&target.origin)?);
    headers.insert("cookie", HeaderValue::from_str(&merchant.cookie)?);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(request, None, true).await?;
    let frames = [
        ClientFrame::Hello {
            resume: None,
            build: "pay-bench".into(),
            merchant_id: None,
            mode: Some(Mode::Test),
        },
        ClientFrame::Command {
            id: "pay-bench-page".into(),
            command: Command::CreatePayPage {
                input: Box::new(page_input()),
            },
        },
    ];
    for frame in &frames {
        socket
            .send(Message::Binary(protocol::encode(frame)?.into()))
            .await?;
    }
    loop {
        let message = tokio::time::timeout(REPLY_TIMEOUT, socket.next())
            .await
            .map_err(|_| "no reply to CreatePayPage")?
            .ok_or("the socket closed before the reply")??;
        let Message::Binary(bytes) = message else {
            continue;
        };
        if let ServerFrame::Reply { id, ok, error } = protocol::decode::<ServerFrame>(&bytes)?
            && id == "pay-bench-page"
        {
            let _ = socket.close(None).await;
            return match (ok, error) {
                (Some(ReplyBody::Committed { id: Some(page), .. }), _) => Ok(page),
                (_, error) => Err(format!("CreatePayPage refused: {error:?}").into()),
            };
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = Args::parse();
    let result = async {
        let target = Target::parse(&args.url)?;
        create_page(&target).await
    }
    .await;
    match result {
        Ok(page) => {
            println!("page_id={page}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("pay_bench: {err}");
            ExitCode::FAILURE
        }
    }
}
