//! The frames of the socket: what a tab sends and what the server sends back.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::{
    Change, Command, MerchantView, Mode, PresenceMember, Query, ReplyBody, UserView, WireError,
};

/// Where a client left off: the stream's epoch and the last delta it applied.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Resume {
    pub epoch: String,
    #[ts(type = "number")]
    pub seq: u64,
}

/// Frames a browser tab sends.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum ClientFrame {
    /// First frame on a socket; sent again to switch merchant or mode without a reload.
    Hello {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        resume: Option<Resume>,
        /// The web app's build id; the server answers with its own.
        build: String,
        /// Which of the user's merchants to open; the first one when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        merchant_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        mode: Option<Mode>,
    },
    /// A mutation. `id` is made by the client; a retry with the same id runs once.
    Command {
        id: String,
        command: Command,
    },
    /// A read. Answered by a `Reply` with the same id.
    Query {
        id: String,
        query: Query,
    },
    /// Which screen this tab shows now (a path), or none, and the record
    /// whose form it has open (the record's path), if any.
    Presence {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        viewing: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        editing: Option<String>,
    },
    Ping {},
}

/// Frames the server sends.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", rename_all_fields = "camelCase")]
pub enum ServerFrame {
    /// Answer to `Hello`: who and where the socket is, and the stream position
    /// from which deltas follow.
    Welcome {
        epoch: String,
        #[ts(type = "number")]
        seq: u64,
        build: String,
        user: UserView,
        merchant: MerchantView,
        mode: Mode,
        /// Every merchant the user belongs to, for the merchant switch.
        merchants: Vec<MerchantView>,
    },
    /// Changes committed under `seq`; `seq` rises by exactly one per delta.
    Delta {
        #[ts(type = "number")]
        seq: u64,
        changes: Vec<Change>,
    },
    /// Answer to a `Command` or `Query`: exactly one of `ok` and `error`.
    Reply {
        id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ok: Option<ReplyBody>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        error: Option<WireError>,
    },
    /// Everyone of the merchant online now, one entry per person: sent once
    /// to a tab that joins. Afterwards the tab gets only `PresenceChanged`.
    Presence {
        members: Vec<PresenceMember>,
    },
    /// What changed in who is online since the last presence frame,
    /// coalesced over a short window: people who came online (`joined`),
    /// whose screens or forms changed (`moved`, the whole new entry), and
    /// who went (`left`, by user id).
    PresenceChanged {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<PresenceMember>>")]
        joined: Vec<PresenceMember>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<PresenceMember>>")]
        moved: Vec<PresenceMember>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<String>>")]
        left: Vec<String>,
    },
    Pong {},
    /// The member's role on this merchant changed while the socket was open.
    Access {
        merchant: MerchantView,
    },
    /// The missed deltas cannot be replayed: refetch what is shown, then
    /// carry on from this position.
    Resync {
        epoch: String,
        #[ts(type = "number")]
        seq: u64,
    },
}
