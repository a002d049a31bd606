//! Background work. Each job runs on a thread with its own runtime, so its
//! database connections live and die there, and stops with the server.

pub mod imports;
pub mod mail;
pub mod retention;
pub mod scheduler;
pub mod webhooks;

use std::future::Future;

/// Stops its job when dropped (with the server's state).
pub struct JobGuard {
    _stop: tokio::sync::oneshot::Sender<()>,
}

pub fn spawn_job<F, Fut>(name: &str, job: F) -> JobGuard
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = ()>,
{
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread_name = name.to_string();
    let spawned = std::thread::Builder::new()
        .name(thread_name.clone())
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime.block_on(async move {
                    tokio::select! {
                        () = job() => {}
                        _ = stopped => {}
                    }
                }),
                Err(err) => tracing::error!(error = %err, job = %thread_name, "job has no runtime"),
            }
        });
    if let Err(err) = spawned {
        tracing::error!(error = %err, job = %name, "cannot start job");
    }
    JobGuard { _stop: stop }
}
