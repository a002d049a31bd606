//! Messages between session actors and merchant actors.

use actix::prelude::*;
use actix_web::web::Bytes;
use paydesk::auth::api_tokens::TokenHasher;
use paydesk::auth::sealed::SecretBox;
use paydesk::domain::permissions::Grant;
use paydesk::domain::teams::TeamTools;
use paydesk::domain::webhooks::endpoints::CheckedAddress;
use protocol::{Command, MerchantView, PresenceMember, ReplyBody, Resume, UserView, WireError};

/// A frame already encoded once, shared by every session it goes to: cloning
/// it is a reference count, so our code makes no copy of a delta per socket.
/// Below it, each socket still costs actix's mailbox an envelope, and the
/// WebSocket framing copies the bytes into the connection's write buffer
/// (as tungstenite does in the bare tokio server the load figures compare
/// against).
pub type Encoded = Bytes;

/// A socket's id. Shared, not copied, by the session actor, the node's
/// socket registry and the merchant actor's member entry: an idle socket
/// holds it once.
pub type SocketId = std::sync::Arc<str>;

/// Where a socket's frames are sent. The node's socket registry and the
/// merchant actor share one: each clone of a `Recipient` allocates a
/// sender of its own, which an idle socket would hold twice.
pub type Outbox = std::sync::Arc<Recipient<Outbound>>;

/// What a merchant actor (or the sign-out path) pushes to a session.
#[derive(Message, Clone)]
#[rtype(result = "()")]
pub enum Outbound {
    /// One live frame (a delta, presence): the common case, with no list to allocate.
    Frame(Encoded),
    /// Several frames in order (a join's welcome and catch-up).
    Frames(Vec<Encoded>),
    /// The session fell behind: close it so the client resumes from the log.
    TooSlow,
    /// Close with this WebSocket close code (e.g. 4001 after sign-out).
    Close(u16),
    /// The socket has been silent a while (the node's heartbeat): ping the
    /// client, or close if it has been silent too long.
    Heartbeat,
    /// The member's role on the socket's merchant changed: what it decides
    /// by from now on, and what the tab calls it.
    Regrant(Standing),
    /// A member's standing on `merchant_id` changed (none: removed), told
    /// to every socket of theirs on this node whatever stream it is on.
    Membership {
        merchant_id: String,
        standing: Option<Standing>,
    },
}

/// A member's role on a merchant as the tab is told it: the grant it
/// decides by, and the custom role's name (none for a preset role), so a
/// tab moved to another role names the new one, not the one it joined with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub grant: Grant,
    pub role_name: Option<String>,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Join {
    pub session_id: SocketId,
    /// The same id as `user.id`, shared with the session actor.
    pub user_id: std::sync::Arc<str>,
    pub outbox: Outbox,
    pub user: UserView,
    pub merchant: MerchantView,
    pub merchants: Vec<MerchantView>,
    pub resume: Option<Resume>,
    /// The server's build id, echoed in `Welcome`.
    pub build: String,
    /// The API token the socket signed in with, if not a person: the
    /// socket closes when the token is revoked.
    pub token_id: Option<String>,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct Leave {
    pub session_id: SocketId,
}

#[derive(Message)]
#[rtype(result = "()")]
pub struct SetPresence {
    pub session_id: SocketId,
    pub viewing: Option<String>,
    pub editing: Option<String>,
}

#[derive(Message)]
#[rtype(result = "Result<ReplyBody, WireError>")]
pub struct Execute {
    pub command_id: String,
    /// Who runs it: the member's user id, or the token's id when
    /// `token_id` is set.
    pub user_id: String,
    /// Set when an API token runs it (the machine API, or a token socket):
    /// its grant is the token's, read in the command's transaction.
    pub token_id: Option<String>,
    /// The public id of the user's signed-in session.
    pub session_id: String,
    /// The client's network address.
    pub address: Option<String>,
    /// This server's public origin, for links the command mails.
    pub origin: String,
    /// Seals the signing secrets webhook commands make.
    pub sealer: SecretBox,
    /// Hashes the secrets API token commands make.
    pub token_hasher: TokenHasher,
    /// A new webhook endpoint's address, checked before the command was
    /// queued (`CreateWebhookEndpoint` only), or why it was refused.
    pub address_check: Option<Result<CheckedAddress, WireError>>,
    /// The invite clock, the links' origin and (`TransferOwnership`) the
    /// owner's checked confirmation, for team commands.
    pub team: TeamTools,
    pub command: Command,
}

/// A session's member has a new grant: the deltas it is sent follow it.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Regranted {
    pub session_id: SocketId,
    pub grant: Grant,
}

/// Another node committed up to `seq` on this stream.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Advance {
    pub seq: u64,
}

/// Play the stream's next scheduler day (collections due, bank reports,
/// a test clock catching up).
#[derive(Message)]
#[rtype(result = "()")]
pub struct Tick;

/// The server is shutting down: stop once the work in hand is done.
#[derive(Message)]
#[rtype(result = "()")]
pub struct Stop;

/// For tests and the load generator's server-side counterpart: the members online.
#[derive(Message)]
#[rtype(result = "Vec<PresenceMember>")]
pub struct Members;
