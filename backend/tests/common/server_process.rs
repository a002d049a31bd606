//! The server binary as a child process, for the tests that kill it with
//! SIGKILL (no shutdown code runs) and start it again on the same database.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::Browser;

/// One `backend serve` child, its output in a log file in the test's folder.
pub struct ServerProcess {
    child: Child,
    pub base: String,
    log: PathBuf,
}

impl ServerProcess {
    /// Starts the binary in `dir` (where its key file and mail land, never
    /// in the checkout) on `database_url`, with `env` on top of a clean
    /// environment: nothing of the caller's (SMTP, PUBLIC_URL) leaks in.
    /// `run` numbers the log file, `server-{run}.log`.
    pub async fn start(
        dir: &Path,
        database_url: &str,
        run: usize,
        env: &[(&str, &str)],
    ) -> ServerProcess {
        let web_dir = dir.join("web");
        std::fs::create_dir_all(&web_dir).unwrap();
        std::fs::write(
            web_dir.join("index.html"),
            "<!doctype html><title>Dashboard</title>",
        )
        .unwrap();
        let log = dir.join(format!("server-{run}.log"));
        let out = std::fs::File::create(&log).unwrap();
        let err = out.try_clone().unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_backend"))
            .arg("serve")
            .current_dir(dir)
            .env_clear()
            .env("DATABASE_URL", database_url)
            .env("BIND", "127.0.0.1:0")
            .env("WEB_DIR", &web_dir)
            .env("MAIL_DIR", dir.join("mail"))
            .env("RUST_LOG", "info,sqlx=warn")
            // The suite's business date (see `suite_business_date`); a test's own wins.
            .envs(std::env::var("BUSINESS_DATE").map(|day| ("BUSINESS_DATE", day)))
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("start the server binary");
        // Owned at once: the drop kills and reaps the child on any path.
        let mut server = ServerProcess {
            child,
            base: String::new(),
            log,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = server.log_text();
            if let Some(at) = text.find("Serving the dashboard on ") {
                let rest = &text[at + "Serving the dashboard on ".len()..];
                if let Some(end) = rest.find('\n') {
                    server.base = rest[..end].trim().to_string();
                    return server;
                }
            }
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("server {run} exited with {status} before serving:\n{text}");
            }
            assert!(
                Instant::now() < deadline,
                "server {run} did not start:\n{text}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, as an orchestrator stops a node in a rolling restart; waits
    /// for the process to end and returns whether it exited cleanly.
    pub fn terminate(&mut self) -> bool {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -TERM failed");
        self.child.wait().unwrap().success()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// A browser on this server sharing `jar`: sessions live in the
    /// database, so a signed-in jar outlasts a restart.
    pub fn browser(&self, jar: &std::sync::Arc<reqwest::cookie::Jar>) -> Browser {
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Browser {
            http,
            jar: jar.clone(),
            base: self.base.clone(),
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
