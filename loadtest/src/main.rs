//! `loadtest`: signs up merchants, opens signed-in sockets to a backend on this
//! machine, sends customer mutations at a steady rate, and reports how long
//! commands and their deltas take.

use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Parser;
use tokio::io::{AsyncBufReadExt, BufReader};

use loadtest::run::{self, Plan};
use loadtest::storm;
use loadtest::target::Target;

const AFTER_HELP: &str = "\
Each run signs up --merchants new merchants (load-<run>-<i>@example.co.za) and spreads
--sockets sockets over them round-robin; every mutation creates one customer from one
socket, and the other sockets of the same merchant must each receive its delta.
With several --url (nodes sharing one PostgreSQL), each merchant's sockets are spread
over all nodes, so its deltas must cross from node to node.

The server throttles sign-ups per client address: 30 per 15 minutes by default. For
repeated runs start the server with a higher SIGNUP_LIMIT_PER_ADDRESS (environment) or
restart it between runs. A user may hold 20 sockets per node by default: when
--sockets / --merchants is above that, start the server with a higher
SOCKETS_PER_USER.

Only loopback URLs are accepted (127.0.0.0/8, [::1], localhost). Run this in its own
process, apart from the server: both would otherwise share one open-file limit.

Exit status: 0 when every mutation committed and every delta arrived, 3 when some did
not (the report says which), 1 when the run could not start.";

/// Load generator for the live socket: signed-in sockets, mutations, delta latency.
#[derive(Parser, Debug)]
#[command(version, about, after_help = AFTER_HELP)]
struct Args {
    /// The backend to load; must be a loopback address. Repeat it to spread the
    /// sockets over several nodes sharing one database (sign-ups go to the first).
    #[arg(long = "url", default_value = "http://127.0.0.1:8080")]
    urls: Vec<String>,

    /// Merchants to sign up (each is a separate write queue on the server).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    merchants: u64,

    /// Signed-in sockets, spread over the merchants.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    sockets: u64,

    /// Customers to create, one command each.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    mutations: u64,

    /// Target mutations per second.
    #[arg(long, default_value_t = 100.0)]
    rate: f64,

    /// Stop sending after this many seconds even if mutations remain.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    duration: u64,

    /// Print the figures as one JSON object instead of the human report.
    #[arg(long)]
    json: bool,

    /// The target is a bare fan-out server (bare_tokio, bare_actix): skip the
    /// sign-ups and name each merchant in the socket's cookie.
    #[arg(long)]
    bare: bool,

    /// A join storm instead of mutations: open every socket at once, read
    /// none until all are open, then count the presence frames and bytes
    /// each received until it has been quiet for 3 s.
    #[arg(long)]
    storm: bool,

    /// With --storm: once settled, hold every socket open and idle for this
    /// many seconds (still answering the server's pings) before closing, so
    /// the server's memory and CPU per idle socket can be read meanwhile.
    #[arg(long, default_value_t = 0, requires = "storm", value_parser = clap::value_parser!(u64).range(0..=3_600))]
    hold: u64,

    /// With --storm: sign the merchants up, then wait for a line on standard
    /// input before opening the sockets, so that the storm is the sockets
    /// alone, as in a restart (loadtest/storm-latency.sh).
    #[arg(long, requires = "storm")]
    wait_to_open: bool,

    /// When the server closes a socket (1001 in a rolling restart) or the
    /// connection drops, reconnect to the next --url with backoff, resume
    /// from the last seq seen, and send unanswered commands again under
    /// their ids. Without it a closed socket is lost.
    #[arg(long)]
    reconnect: bool,
}

/// A short id that keeps this run's e-mail addresses apart from earlier runs'.
fn run_id() -> String {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    format!("{millis:x}")
}

fn plan(args: &Args) -> Result<Plan, String> {
    if !(args.rate.is_finite() && args.rate > 0.0 && args.rate <= 100_000.0) {
        return Err(format!(
            "--rate {} must be above 0 and at most 100000",
            args.rate
        ));
    }
    if args.merchants > args.sockets {
        return Err(format!(
            "--merchants {} is more than --sockets {}: every merchant needs a socket",
            args.merchants, args.sockets
        ));
    }
    let count = |value: u64, name: &str| {
        usize::try_from(value).map_err(|_| format!("--{name} {value} is too large"))
    };
    Ok(Plan {
        run: run_id(),
        merchants: count(args.merchants, "merchants")?,
        sockets: count(args.sockets, "sockets")?,
        mutations: args.mutations,
        rate: args.rate,
        duration: Duration::from_secs(args.duration),
        bare: args.bare,
        reconnect: args.reconnect,
    })
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let checked = args
        .urls
        .iter()
        .map(|url| Target::parse(url))
        .collect::<Result<Vec<_>, _>>()
        .and_then(|targets| Ok((targets, plan(&args)?)));
    let (targets, plan) = match checked {
        Ok(found) => found,
        Err(message) => {
            eprintln!("loadtest: {message}");
            return ExitCode::from(1);
        }
    };
    if args.storm {
        let gate = async {
            if args.wait_to_open {
                // The exact line loadtest/storm-latency.sh waits for.
                eprintln!("waiting to open");
                let mut line = String::new();
                let mut stdin = BufReader::new(tokio::io::stdin());
                if let Err(err) = stdin.read_line(&mut line).await {
                    eprintln!("loadtest: standard input: {err}; opening now");
                }
            }
        };
        let hold = Duration::from_secs(args.hold);
        return match storm::storm(&targets, &plan, gate, hold).await {
            Ok(report) if args.json => match serde_json::to_string_pretty(&report) {
                Ok(json) => {
                    println!("{json}");
                    ExitCode::SUCCESS
                }
                Err(err) => {
                    eprintln!("loadtest: cannot write JSON: {err}");
                    ExitCode::from(1)
                }
            },
            Ok(report) => {
                print!("{}", report.human());
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("loadtest: {err}");
                ExitCode::from(1)
            }
        };
    }
    let report = match run::run(&targets, &plan).await {
        Ok(report) => report,
        Err(err) => {
            eprintln!("loadtest: {err}");
            return ExitCode::from(1);
        }
    };
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(json) => println!("{json}"),
            Err(err) => {
                eprintln!("loadtest: cannot write JSON: {err}");
                return ExitCode::from(1);
            }
        }
    } else {
        print!("{}", report.human());
    }
    if report.clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}
