//! A merchant stream's payment method settings, stored whole as JSON.

use protocol::{Mode, PaymentMethodSettings};
use sqlx::Row;

use super::Tx;
use crate::error::{AppError, AppResult};

pub async fn read_settings<'e, E>(
    executor: E,
    merchant_id: &str,
    mode: Mode,
) -> AppResult<Option<PaymentMethodSettings>>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query(
        "SELECT settings, version FROM payment_method_settings WHERE merchant_id = $1 AND mode = $2",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .fetch_optional(executor)
    .await?;
    row.map(|r| {
        let mut settings: PaymentMethodSettings =
            serde_json::from_str(&r.get::<String, _>("settings"))
                .map_err(|e| AppError::Internal(format!("payment method settings: {e}")))?;
        // The column is the truth (the write path stamps it after the JSON
        // is written), whatever version the stored JSON carries.
        settings.version = r.get::<i64, _>("version").max(0) as u64;
        Ok(settings)
    })
    .transpose()
}

pub async fn write_settings(
    tx: &mut Tx,
    merchant_id: &str,
    mode: Mode,
    settings: &PaymentMethodSettings,
    now: i64,
) -> AppResult<()> {
    let json = serde_json::to_string(settings)
        .map_err(|e| AppError::Internal(format!("payment method settings: {e}")))?;
    sqlx::query(
        "INSERT INTO payment_method_settings (merchant_id, mode, settings, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (merchant_id, mode) DO UPDATE SET settings = $3, updated_at = $4",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(json)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
