//! The server's log lines, kept in memory, for tests of what is logged (a
//! security event) and what never is (a secret). One subscriber serves the
//! whole test binary; tests run side by side, so each looks for lines
//! naming its own ids or tokens.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

#[derive(Clone, Default)]
pub struct Logs(Arc<Mutex<Vec<u8>>>);

impl Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Logs {
    type Writer = Logs;

    fn make_writer(&'a self) -> Logs {
        self.clone()
    }
}

static LOGS: OnceLock<Logs> = OnceLock::new();

/// Starts keeping the log (once per test binary), as the server's own
/// subscriber would print it, `log` records included.
pub fn capture() -> &'static Logs {
    LOGS.get_or_init(|| {
        let logs = Logs::default();
        tracing_subscriber::fmt()
            .with_writer(logs.clone())
            .with_ansi(false)
            .with_env_filter("info,sqlx=warn")
            .try_init()
            .expect("the test binary's only log subscriber");
        logs
    })
}

impl Logs {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }

    /// The first line holding every one of `parts`, waiting for it up to
    /// five seconds (some lines are written after the answer has gone).
    pub async fn line_with(&self, parts: &[&str]) -> String {
        for _ in 0..50 {
            if let Some(line) = self
                .text()
                .lines()
                .find(|line| parts.iter().all(|part| line.contains(part)))
            {
                return line.to_string();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no log line with {parts:?} in:\n{}", self.text());
    }
}
