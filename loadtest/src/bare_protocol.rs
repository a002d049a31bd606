//! What the two bare fan-out servers (`bare_tokio`, `bare_actix`) share: the
//! few frames the load generator needs, built from the product's own wire
//! types so that a bare delta is the same size as the product's. No database,
//! no sessions, no permissions: the ceiling of the socket and fan-out layer.
//!
//! Included by path from each bin (`#[path = "../../bare_protocol.rs"]`).

use protocol::{
    ClientFrame, Command, Customer, MerchantView, Mode, ReplyBody, Role, ServerFrame, UserView,
};

/// The cookie the load generator sends with `--bare`: `session-token=bare-<merchant>`.
pub fn merchant_of_cookie(cookie: &str) -> Option<String> {
    cookie
        .split(';')
        .map(str::trim)
        .find_map(|pair| pair.strip_prefix("session-token="))
        .filter(|value| value.starts_with("bare-"))
        .map(str::to_string)
}

/// What a client frame asks of a bare server.
pub enum Asked {
    /// `Hello`: answer `Welcome` at the merchant's current `seq`.
    Hello,
    /// A command: commit it as the next `seq`, reply, fan the delta out.
    Command { id: String, command: Box<Command> },
    /// Anything else is ignored.
    Other,
}

pub fn read(bytes: &[u8]) -> Asked {
    match protocol::decode::<ClientFrame>(bytes) {
        Ok(ClientFrame::Hello { .. }) => Asked::Hello,
        Ok(ClientFrame::Command { id, command }) => Asked::Command {
            id,
            command: Box::new(command),
        },
        _ => Asked::Other,
    }
}

pub fn welcome(merchant: &str, seq: u64) -> Vec<u8> {
    let view = MerchantView {
        id: merchant.to_string(),
        name: merchant.to_string(),
        role: Role::Owner,
        role_name: None,
        permissions: protocol::Permissions::all(protocol::Access::Write),
    };
    encode(&ServerFrame::Welcome {
        epoch: "bare".into(),
        seq,
        build: "bare".into(),
        user: UserView {
            id: merchant.to_string(),
            name: "Load Tester".into(),
            email: format!("{merchant}@example.co.za"),
        },
        merchant: view.clone(),
        mode: Mode::Test,
        merchants: vec![view],
    })
}

pub fn committed(id: String, seq: u64) -> Vec<u8> {
    encode(&ServerFrame::Reply {
        id,
        ok: Some(ReplyBody::Committed {
            seq,
            id: Some(format!("cus_bare{seq}")),
        }),
        error: None,
    })
}

/// The delta the product would send for the command: the customer as stored.
pub fn delta(seq: u64, command: Command) -> Vec<u8> {
    let changes = match command {
        Command::CreateCustomer { input } => vec![protocol::Change::CustomerUpserted {
            customer: Box::new(Customer {
                id: format!("cus_bare{seq}"),
                mode: Mode::Test,
                name: input.name,
                email: input.email,
                cellphone: input.cellphone,
                id_type: input.id_type,
                id_number: input.id_number,
                address_line1: input.address_line1,
                address_line2: input.address_line2,
                city: input.city,
                postal_code: input.postal_code,
                reference: input.reference,
                archived: false,
                created_at: 1_764_000_000_000,
                updated_at: 1_764_000_000_000,
                version: seq,
            }),
        }],
        _ => Vec::new(),
    };
    encode(&ServerFrame::Delta { seq, changes })
}

fn encode(frame: &ServerFrame) -> Vec<u8> {
    // Every frame here is built from plain values; encoding them cannot fail.
    protocol::encode(frame).unwrap_or_default()
}
