//! The live layer: one merchant actor per merchant stream (merchant and mode)
//! owns its writes and fans deltas out; one session actor per socket.

pub mod budget;
mod commit;
pub mod cross_node;
mod deltas;
pub mod frame_limit;
pub mod merchant;
pub mod messages;
pub mod presence;
#[cfg(test)]
mod recording;
pub mod registry;
pub mod relay;
pub mod scheduler;
pub mod session;
pub mod sockets;
mod team_steps;
pub mod uploads;
