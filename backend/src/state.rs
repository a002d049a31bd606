//! The server's shared state, handed to every HTTP handler and socket.
//! Built by `app::build_state`.

use std::sync::Arc;

use actix_web::web;
use paydesk::auth::csrf::CsrfKey;
use paydesk::auth::keys::Keys;
use paydesk::auth::throttle::Throttle;
use paydesk::domain::clock::BusinessClock;
use paydesk::store::Db;
use tokio::sync::Semaphore;

use crate::config::Config;
use crate::http::api::guards::ApiGuards;
use crate::jobs::JobGuard;
use crate::jobs::imports::ImportQueue;
use crate::live::registry::MerchantRegistry;
use crate::live::sockets::SocketRegistry;
use crate::live::uploads::Uploads;

pub struct AppState {
    pub config: Config,
    pub db: Db,
    pub csrf: CsrfKey,
    /// Derived from the server key: seal two-factor secrets, key backup codes.
    pub keys: Keys,
    pub throttle: Throttle,
    pub merchants: Arc<MerchantRegistry>,
    pub sockets: Arc<SocketRegistry>,
    /// Permits for a socket's opening look-ups (`Config::socket_openings_at_once`).
    pub openings: Arc<Semaphore>,
    /// Spreadsheets uploaded and checked, not yet confirmed.
    pub uploads: Uploads,
    /// Confirmed imports waiting for the import job.
    pub imports: ImportQueue,
    /// The machine API's per-token rate limits and running writes.
    pub api: ApiGuards,
    /// The calendar every stream's business dates come from.
    pub clock: BusinessClock,
    /// Background jobs (mail delivery; on PostgreSQL the delta relay); they
    /// stop when the state is dropped.
    pub(crate) _jobs: Vec<JobGuard>,
}

pub type State = web::Data<AppState>;

impl AppState {
    /// The web app's build id (`build-id.txt` beside the app), sent in
    /// `Welcome`. Read each time, so a web build deployed under a running
    /// server makes older tabs reload when they reconnect.
    pub fn build_id(&self) -> String {
        std::fs::read_to_string(self.config.web_dir.join("build-id.txt"))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "dev".into())
    }

    /// The built `index.html`, read each time for the same reason (it is small
    /// and the OS caches it).
    pub fn index_html(&self) -> Option<String> {
        std::fs::read_to_string(self.config.web_dir.join("index.html")).ok()
    }
}
