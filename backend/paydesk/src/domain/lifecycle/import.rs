//! A confirmed import: committing in batches, then completed. Batches are
//! claimed by one node at a time (a lease) and each is written over the
//! cursor it was read at, so a batch another node already wrote is refused.

use protocol::ImportStatus;

use super::TransitionError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImportEvent {
    /// One batch of rows written; the cursor moves on.
    WriteBatch,
    /// The last row is written.
    Finish,
}

impl ImportEvent {
    pub const ALL: [ImportEvent; 2] = [ImportEvent::WriteBatch, ImportEvent::Finish];
}

pub const ALL_STATUSES: [ImportStatus; 2] = [ImportStatus::Committing, ImportStatus::Completed];

pub fn transition(
    status: ImportStatus,
    event: ImportEvent,
) -> Result<ImportStatus, TransitionError<ImportStatus, ImportEvent>> {
    use ImportEvent as E;
    use ImportStatus as S;
    match (status, event) {
        (S::Committing, E::WriteBatch) => Ok(S::Committing),
        (S::Committing, E::Finish) => Ok(S::Completed),
        _ => Err(TransitionError {
            from: status,
            event,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lifecycle::check_concurrent_pairs;

    #[test]
    fn first_to_commit_wins_from_every_state() {
        check_concurrent_pairs(
            ALL_STATUSES,
            &ImportEvent::ALL,
            |s| s == ImportStatus::Completed,
            transition,
        );
    }
}
