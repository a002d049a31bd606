//! Where passwords are hashed: one thread per core, each with its own argon2
//! memory (19 MiB) allocated once and reused. A burst of sign-ins used to
//! hash on as many blocking threads as requests arrived, each allocating and
//! freeing 19 MiB that the allocator then kept per thread: a thousand
//! sign-ins left the process at gigabytes. Now memory is bounded by the
//! thread count, and more hashes at once than cores would not finish sooner.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use argon2::Block;

use crate::error::{AppError, AppResult};

type Job = Box<dyn FnOnce(&mut Vec<Block>) + Send>;

/// The queue every hashing thread takes from: one queue, first come first
/// served, so a burst delays each request by its place in line and starves
/// none. The sign-in and sign-up throttles run before anything is queued.
fn queue() -> &'static Mutex<Sender<Job>> {
    static QUEUE: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (sender, receiver) = channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..capacity() {
            let receiver = Arc::clone(&receiver);
            let spawned = std::thread::Builder::new()
                .name(format!("password-hash-{index}"))
                .spawn(move || work(&receiver));
            if let Err(err) = spawned {
                tracing::error!(error = %err, "cannot start a password hashing thread");
            }
        }
        Mutex::new(sender)
    })
}

fn work(receiver: &Mutex<Receiver<Job>>) {
    let mut memory = Vec::new();
    loop {
        // The lock is held only to take the next job, not while it runs.
        let next = receiver
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        let Ok(job) = next else {
            return;
        };
        let _running = Running::start();
        // A job that panicked must not take its thread (and a core's share
        // of the pool) with it; its caller is told the hash failed.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut memory)));
        if ran.is_err() {
            tracing::error!("a password hash panicked");
        }
    }
}

/// Threads in the pool: one per core.
pub fn capacity() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

static RUNNING: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The most hashes that ran at once since the process started.
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

/// Counts a running hash until it ends.
struct Running;

impl Running {
    fn start() -> Running {
        let running = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
        PEAK.fetch_max(running, Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs `work` on a hashing thread, with that thread's argon2 memory, when
/// its turn comes. A caller that stops waiting does not take the job back:
/// it runs and its answer is dropped.
pub async fn run<T: Send + 'static>(
    work: impl FnOnce(&mut Vec<Block>) -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    let (answer, answered) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move |memory| {
        let _ = answer.send(work(memory));
    });
    queue()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send(job)
        .map_err(|_| AppError::Internal("the password hashing threads have stopped".into()))?;
    answered
        .await
        .map_err(|_| AppError::Internal("a password hashing thread stopped mid-hash".into()))?
}
