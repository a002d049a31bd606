//! Which payment methods a merchant offers, and the defaults a new DebiCheck
//! mandate starts from.

use protocol::{
    ApprovalWindow, Change, ErrorCode, FieldError, PaymentMethod, PaymentMethodSettings, ReplyBody,
};

use super::{Effect, Scope, collection_rules as rule, conflicts};
use crate::error::{AppError, AppResult};
use crate::store::payment_methods as store;
use crate::store::{Db, Tx};

/// Every method on; DebiCheck asks in real time, tracks for the full 10 days
/// and moves collections off non-business days to the day before.
pub fn default_settings() -> PaymentMethodSettings {
    PaymentMethodSettings {
        enabled: PaymentMethod::ALL.to_vec(),
        debicheck_approval_window: ApprovalWindow::Tt1RealTime,
        debicheck_allow_tracking: true,
        debicheck_tracking_days: 10,
        debicheck_allow_date_adjustment: true,
        debicheck_abbreviated_name: String::new(),
        version: 0,
    }
}

pub async fn settings_in_tx(tx: &mut Tx, scope: &Scope) -> AppResult<PaymentMethodSettings> {
    Ok(
        store::read_settings(&mut **tx, &scope.merchant_id, scope.mode)
            .await?
            .unwrap_or_else(default_settings),
    )
}

pub async fn get_settings(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let settings = store::read_settings(&db.pool, &scope.merchant_id, scope.mode)
        .await?
        .unwrap_or_else(default_settings);
    Ok(ReplyBody::PaymentMethodSettings {
        settings: Box::new(settings),
    })
}

pub async fn update_settings(
    tx: &mut Tx,
    scope: &Scope,
    settings: &PaymentMethodSettings,
    base_version: Option<u64>,
) -> AppResult<Effect> {
    if let Some(base) = base_version {
        let current = settings_in_tx(tx, scope).await?;
        let then = conflicts::recorded_at(tx, scope, base, |change| match change {
            Change::PaymentMethodSettingsUpdated { settings } => Some(*settings),
            _ => None,
        })
        .await?;
        conflicts::refuse_if_moved_on(
            base,
            conflicts::Saving {
                version: current.version,
                current: &current,
                then,
                input: settings,
                fields: conflicts::PAYMENT_METHOD_FIELDS,
            },
        )?;
    }
    let mut clean = settings.clone();
    clean.debicheck_abbreviated_name = settings.debicheck_abbreviated_name.trim().to_string();
    // Keep the list in the product's order, once each.
    clean.enabled = PaymentMethod::ALL
        .into_iter()
        .filter(|m| settings.enabled.contains(m))
        .collect();
    let mut errors = Vec::new();
    if let Err(code) = rule::tracking_days(clean.debicheck_tracking_days) {
        errors.push(FieldError {
            field: "debicheckTrackingDays".into(),
            code,
        });
    }
    if let Err(code) = rule::abbreviated_name(&clean.debicheck_abbreviated_name) {
        errors.push(FieldError {
            field: "debicheckAbbreviatedName".into(),
            code,
        });
    }
    if !errors.is_empty() {
        return Err(AppError::Invalid(errors));
    }
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    store::write_settings(tx, &scope.merchant_id, scope.mode, &clean, now).await?;
    Ok(Effect {
        changes: vec![Change::PaymentMethodSettingsUpdated {
            settings: Box::new(clean),
        }],
        id: None,
    })
}

/// Refuses a method the merchant switched off.
pub fn ensure_enabled(settings: &PaymentMethodSettings, method: PaymentMethod) -> AppResult<()> {
    if settings.enabled.contains(&method) {
        Ok(())
    } else {
        Err(AppError::field(
            "mandate.method",
            ErrorCode::MethodNotEnabled,
        ))
    }
}
