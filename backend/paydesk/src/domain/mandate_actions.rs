//! The merchant's actions on a mandate. Cancelling one stops its payments,
//! so this sits above both `mandates` and `payments`.

use protocol::MandateAction;

use super::calendar::iso_date;
use super::lifecycle::mandate::MandateEvent;
use super::mandates::{apply, authentication_due, load, save};
use super::payments;
use super::scope::{Effect, Scope, checked_id, stream_today};
use crate::error::AppResult;
use crate::store::Tx;

pub async fn act_on_mandate(
    tx: &mut Tx,
    scope: &Scope,
    mandate_id: &str,
    action: MandateAction,
) -> AppResult<Effect> {
    let id = checked_id(mandate_id)?;
    let mut mandate = load(tx, scope, id).await?;
    let mut changes = Vec::new();
    match action {
        MandateAction::Suspend => apply(&mut mandate, MandateEvent::Suspend)?,
        MandateAction::Resume => apply(&mut mandate, MandateEvent::Resume)?,
        MandateAction::Cancel => {
            apply(&mut mandate, MandateEvent::Cancel)?;
            // Nothing more may be debited under a cancelled mandate.
            changes.extend(payments::stop_payments_of_mandate(tx, scope, id).await?);
        }
        MandateAction::ResendAuthentication => {
            apply(&mut mandate, MandateEvent::SendForAuthentication)?;
            let today = stream_today(tx, scope).await?;
            mandate.authentication_requests += 1;
            mandate.authentication_due =
                Some(iso_date(authentication_due(mandate.approval_window, today)));
        }
        MandateAction::Archive => apply(&mut mandate, MandateEvent::Archive)?,
        MandateAction::Restore => apply(&mut mandate, MandateEvent::Restore)?,
    }
    let mandate = save(tx, scope, &mandate).await?;
    changes.insert(
        0,
        protocol::Change::MandateUpserted {
            mandate: Box::new(mandate),
        },
    );
    Ok(Effect {
        changes,
        id: Some(id.to_string()),
    })
}
