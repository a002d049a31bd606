//! One run: sign up the merchants, open the sockets, send the mutations at the
//! target rate, wait for the stragglers, close, and hand back the figures.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures_util::{StreamExt, stream};
use protocol::{ClientFrame, Command, CustomerInput};
use tokio::sync::Notify;
use tokio::task::JoinHandle;
use tokio::time::sleep_until;

use crate::error::Fallible;
use crate::link::{self, Link, Seat, Shared};
use crate::recorder::{Recorder, Sent};
use crate::report::{Report, Resilience, StoppedBy, Summary};
use crate::signup::{self, Merchant};
use crate::socket;
use crate::target::Target;

/// Sign-ups at once: each costs an argon2 hash on the server, so a few suffice.
const SIGNUPS_AT_ONCE: usize = 4;
/// Upgrades at once: enough to open thousands quickly without a connect storm.
const OPENS_AT_ONCE: usize = 32;
/// How long to wait after the last mutation for its replies and deltas.
const DRAIN: Duration = Duration::from_secs(5);
const DRAIN_POLL: Duration = Duration::from_millis(10);
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Debug, Clone)]
pub struct Plan {
    pub run: String,
    pub merchants: usize,
    pub sockets: usize,
    pub mutations: u64,
    pub rate: f64,
    pub duration: Duration,
    /// The target is a bare fan-out server (`bare_tokio`, `bare_actix`): no
    /// sign-up; each merchant is named by its cookie.
    pub bare: bool,
    /// Reopen sockets the server closes, resuming, and resend unanswered
    /// commands under their ids (`--reconnect`).
    pub reconnect: bool,
}

/// A window on a run in progress, for a caller that acts on it meanwhile
/// (a test stopping a node once commands flow), and a way to end its
/// sending phase early.
#[derive(Default)]
pub struct Probe {
    recorder: OnceLock<Arc<Mutex<Recorder>>>,
    stopped: AtomicBool,
    stop: Notify,
}

impl Probe {
    /// Commands committed so far.
    pub fn commits(&self) -> u64 {
        self.recorder.get().map_or(0, |r| lock(r).commits)
    }

    /// Sockets reopened so far after the server closed them.
    pub fn reconnects(&self) -> u64 {
        self.recorder
            .get()
            .map_or(0, |r| lock(r).resumed.reconnects)
    }

    /// Sockets lost so far: closed by the server and not reopened (without
    /// reconnect, every close).
    pub fn sockets_lost(&self) -> u64 {
        self.recorder.get().map_or(0, |r| lock(r).sockets_lost)
    }

    /// Ends the sending phase; the run then waits for replies and deltas
    /// as after its last mutation.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        self.stop.notify_one();
    }

    async fn stopped(&self) {
        while !self.stopped.load(Ordering::SeqCst) {
            self.stop.notified().await;
        }
    }
}

/// Socket `i` belongs to merchant `i % merchants`.
pub fn merchant_of(socket: usize, merchants: usize) -> usize {
    socket % merchants.max(1)
}

/// Socket `i` connects to node `(i / merchants) % nodes`, so that each
/// merchant's sockets are spread over every node.
pub fn node_of(socket: usize, merchants: usize, nodes: usize) -> usize {
    (socket / merchants.max(1)) % nodes.max(1)
}

pub fn sockets_per_merchant(sockets: usize, merchants: usize) -> Vec<usize> {
    let mut counts = vec![0; merchants];
    for socket in 0..sockets {
        if let Some(count) = counts.get_mut(merchant_of(socket, merchants)) {
            *count += 1;
        }
    }
    counts
}

/// A valid customer that no other mutation of the run uses.
pub fn customer(n: u64) -> CustomerInput {
    CustomerInput {
        name: format!("Load Customer {n}"),
        email: format!("c{n}@example.co.za"),
        ..CustomerInput::default()
    }
}

/// The plan's merchants, signed up on the first node (named only, for a
/// bare server).
pub async fn sign_up_all(targets: &[Target], plan: &Plan) -> Fallible<Vec<Merchant>> {
    let first = targets.first().ok_or("no --url given")?;
    let started = Instant::now();
    let merchants: Vec<Merchant> = if plan.bare {
        (0..plan.merchants)
            .map(|i| signup::bare_merchant(&plan.run, i))
            .collect()
    } else {
        stream::iter(0..plan.merchants)
            .map(|i| signup::sign_up(first, &plan.run, i))
            .buffered(SIGNUPS_AT_ONCE)
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect::<Fallible<_>>()?
    };
    eprintln!(
        "signed up {} merchant(s) in {:.1} s",
        merchants.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(merchants)
}

/// Opens socket `i` of the plan, as its merchant's owner, on its node.
async fn open_one(
    targets: &[Target],
    merchants: &[Merchant],
    i: usize,
) -> Fallible<socket::Opened> {
    let owner = &merchants[merchant_of(i, merchants.len())];
    let target = &targets[node_of(i, merchants.len(), targets.len())];
    socket::open(target, &owner.cookie, None)
        .await
        .map_err(|err| format!("socket {i} of {} on {}: {err}", owner.email, target.origin).into())
}

/// Opens the plan's sockets for `merchants`, spread over all nodes, none
/// read until all are open (the join storm, `storm.rs`).
pub async fn open_sockets(
    targets: &[Target],
    plan: &Plan,
    merchants: &[Merchant],
) -> Fallible<Vec<socket::Opened>> {
    let opening = Instant::now();
    let opened = stream::iter(0..plan.sockets)
        .map(|i| open_one(targets, merchants, i))
        .buffered(OPENS_AT_ONCE)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    report_opened(opened.len(), opening);
    Ok(opened)
}

fn report_opened(sockets: usize, opening: Instant) {
    eprintln!(
        "opened {sockets} socket(s) in {:.1} s",
        opening.elapsed().as_secs_f64()
    );
}

/// Opens the plan's sockets for `merchants`, spread over all nodes, each
/// read from the moment it is welcomed, as a browser tab is. What the
/// server sends while the others open (presence) is read as it comes, so
/// it does not wait unread to slow the run's first seconds: that backlog
/// is the join storm's to measure, not the run's.
async fn open_reading(
    targets: &[Target],
    plan: &Plan,
    merchants: &[Merchant],
    shared: &Shared,
) -> Fallible<(Vec<Arc<Link>>, Vec<JoinHandle<()>>)> {
    let opening = Instant::now();
    let mut links = Vec::with_capacity(plan.sockets);
    let mut readers = Vec::with_capacity(plan.sockets);
    let mut opened = stream::iter(0..plan.sockets)
        .map(|i| async move { (i, open_one(targets, merchants, i).await) })
        .buffered(OPENS_AT_ONCE);
    while let Some((i, socket)) = opened.next().await {
        let socket = match socket {
            Ok(socket) => socket,
            Err(err) => {
                readers.iter().for_each(JoinHandle::abort);
                return Err(err);
            }
        };
        let seat = Seat {
            socket: i,
            merchant: merchant_of(i, plan.merchants),
            node: node_of(i, plan.merchants, targets.len()),
            cookie: socket.cookie,
            epoch: socket.epoch,
            last: socket.seq,
        };
        let link = Arc::new(Link::new(socket.writer, plan.reconnect));
        readers.push(tokio::spawn(link::keep(
            link.clone(),
            socket.reader,
            seat,
            shared.clone(),
        )));
        links.push(link);
    }
    report_opened(links.len(), opening);
    Ok((links, readers))
}

/// Runs the plan against `targets` (one or more nodes sharing a database):
/// sign-ups go to the first, sockets are spread over all.
pub async fn run(targets: &[Target], plan: &Plan) -> Fallible<Report> {
    run_with(targets, plan, &Probe::default()).await
}

/// [`run`], watched through `probe`.
pub async fn run_with(targets: &[Target], plan: &Plan, probe: &Probe) -> Fallible<Report> {
    let merchants = sign_up_all(targets, plan).await?;
    let recorder = Arc::new(Mutex::new(Recorder::new(sockets_per_merchant(
        plan.sockets,
        plan.merchants,
    ))?));
    let _ = probe.recorder.set(recorder.clone());
    let shared = Shared {
        targets: targets.into(),
        recorder: recorder.clone(),
        closing: Arc::new(AtomicBool::new(false)),
        reconnect: plan.reconnect,
    };
    let (links, readers) = open_reading(targets, plan, &merchants, &shared).await?;

    let (stopped_by, sending) = send_mutations(plan, &links, &recorder, probe).await;
    eprintln!(
        "sent; waiting up to {} s for replies and deltas",
        DRAIN.as_secs()
    );
    let drain_until = Instant::now() + DRAIN;
    while Instant::now() < drain_until && !lock(&recorder).settled() {
        tokio::time::sleep(DRAIN_POLL).await;
    }

    shared.closing.store(true, Ordering::SeqCst);
    // A socket still away (reconnecting) at the end did not come back.
    let mut away = 0;
    if plan.reconnect {
        for link in &links {
            away += u64::from(!link.connected().await);
        }
    }
    let close_all = futures_util::future::join_all(links.iter().map(|l| l.close()));
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, close_all).await;
    for reader in readers {
        reader.abort();
    }

    let mut recorder = lock(&recorder);
    recorder.sockets_lost += away;
    recorder.close();
    let seconds = sending.as_secs_f64();
    let resilience = plan.reconnect.then(|| Resilience::of(&recorder));
    Ok(Report {
        urls: targets.iter().map(|t| t.origin.clone()).collect(),
        run: plan.run.clone(),
        sockets: plan.sockets,
        sockets_lost: recorder.sockets_lost,
        merchants: plan.merchants,
        mutations_sent: recorder.sent,
        committed: recorder.commits,
        failures: recorder.failures,
        failure_codes: recorder.failure_codes.clone(),
        stopped_by,
        target_rate: plan.rate,
        achieved_rate: if seconds > 0.0 {
            recorder.sent as f64 / seconds
        } else {
            0.0
        },
        sending_seconds: seconds,
        round_trip_us: Summary::of(&recorder.round_trip),
        delta_us: Summary::of(&recorder.delta),
        deltas_expected: recorder.deltas_expected,
        deltas_received: recorder.deltas_received,
        deltas_out_of_order: recorder.deltas_out_of_order,
        reconnect: resilience,
    })
}

fn lock(recorder: &Mutex<Recorder>) -> std::sync::MutexGuard<'_, Recorder> {
    recorder.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sends mutation `n` at `start + n / rate`, round-robin over the sockets,
/// until all are sent, the duration is up, or Ctrl-C.
async fn send_mutations(
    plan: &Plan,
    links: &[Arc<Link>],
    recorder: &Mutex<Recorder>,
    probe: &Probe,
) -> (StoppedBy, Duration) {
    let start = tokio::time::Instant::now();
    let deadline = start + plan.duration;
    let interrupt = tokio::signal::ctrl_c();
    tokio::pin!(interrupt);
    let sockets = links.len().max(1);
    for n in 0..plan.mutations {
        // Absolute schedule: a late send is followed at once by the next,
        // so the average rate holds even when one send stalls.
        let due = start + Duration::from_secs_f64(n as f64 / plan.rate);
        if due >= deadline {
            return (StoppedBy::Duration, start.elapsed());
        }
        tokio::select! {
            _ = sleep_until(due) => {}
            _ = &mut interrupt => return (StoppedBy::Interrupt, start.elapsed()),
            _ = probe.stopped() => return (StoppedBy::Caller, start.elapsed()),
        }
        let socket = (n as usize) % sockets;
        let id = format!("{}-{n}", plan.run);
        let frame = ClientFrame::Command {
            id: id.clone(),
            command: Command::CreateCustomer { input: customer(n) },
        };
        let message = match socket::binary(&frame) {
            Ok(message) => message,
            Err(err) => {
                eprintln!("cannot encode mutation {n}: {err}");
                continue;
            }
        };
        let Some(link) = links.get(socket) else {
            continue;
        };
        let sent = Sent {
            at: Instant::now(),
            socket,
            merchant: merchant_of(socket, plan.merchants),
        };
        lock(recorder).sending(id.clone(), sent);
        if let Err(err) = link.send(&id, message).await {
            lock(recorder).send_failed(&id, "send_failed");
            eprintln!("socket {socket}: send failed: {err}");
        }
    }
    (StoppedBy::Mutations, start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_spread_evenly_over_merchants() {
        assert_eq!(sockets_per_merchant(50, 5), vec![10; 5]);
        assert_eq!(sockets_per_merchant(7, 3), vec![3, 2, 2]);
        assert_eq!(merchant_of(7, 3), 1);
    }

    #[test]
    fn each_merchant_has_sockets_on_every_node() {
        let nodes_of_merchant_0: Vec<usize> = (0..20)
            .filter(|&i| merchant_of(i, 5) == 0)
            .map(|i| node_of(i, 5, 2))
            .collect();
        assert_eq!(nodes_of_merchant_0, vec![0, 1, 0, 1]);
        assert!((0..50).all(|i| node_of(i, 5, 1) == 0));
    }

    #[test]
    fn customers_are_unique_per_mutation() {
        let a = customer(1);
        assert_ne!(a.email, customer(2).email);
        assert_eq!(a.email, "c1@example.co.za");
        assert_eq!(a.name, "Load Customer 1");
    }
}
