//! A merchant's business details and its two-factor policy.

use protocol::BusinessInfo;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Db, Tx};
use crate::error::AppResult;

const SELECT: &str = "SELECT legal_name, trading_name, registration_number, vat_number, industry, physical_address, \
     contact_person, support_email, support_phone, statement_name, require_two_factor, business_info_version \
     FROM merchants WHERE id = $1";

pub async fn find_business_info(
    db: &Db,
    merchant_id: &str,
) -> AppResult<Option<(BusinessInfo, bool)>> {
    let row = sqlx::query(SELECT)
        .bind(merchant_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|r| (info_from(&r), r.get::<i64, _>("require_two_factor") == 1)))
}

/// Whether the merchant requires two-factor sign-in of its members (no
/// merchant: no).
pub async fn requires_two_factor(db: &Db, merchant_id: &str) -> AppResult<bool> {
    let row = sqlx::query("SELECT require_two_factor FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.is_some_and(|r| r.get::<i64, _>("require_two_factor") == 1))
}

/// The details as this transaction sees them, for a version-checked save.
pub async fn business_info_in_tx(
    tx: &mut Tx,
    merchant_id: &str,
) -> AppResult<Option<BusinessInfo>> {
    let row = sqlx::query(SELECT)
        .bind(merchant_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(row.as_ref().map(info_from))
}

fn info_from(r: &AnyRow) -> BusinessInfo {
    BusinessInfo {
        legal_name: r.get("legal_name"),
        trading_name: r.get("trading_name"),
        registration_number: r.get("registration_number"),
        vat_number: r.get("vat_number"),
        industry: r.get("industry"),
        physical_address: r.get("physical_address"),
        contact_person: r.get("contact_person"),
        support_email: r.get("support_email"),
        support_phone: r.get("support_phone"),
        statement_name: r.get("statement_name"),
        version: r.get::<i64, _>("business_info_version").max(0) as u64,
    }
}

pub async fn update_business_info(
    tx: &mut Tx,
    merchant_id: &str,
    info: &BusinessInfo,
    base_version: Option<u64>,
) -> AppResult<Option<u64>> {
    // Every save bumps the counter; with a base, only a row still at that
    // version is written (none returned: someone saved in between).
    let base = base_version
        .and_then(|v| i64::try_from(v).ok())
        .unwrap_or(-1);
    let row = sqlx::query(
        "UPDATE merchants SET legal_name = $2, trading_name = $3, registration_number = $4, vat_number = $5, industry = $6, \
         physical_address = $7, contact_person = $8, support_email = $9, support_phone = $10, statement_name = $11, \
         business_info_version = business_info_version + 1 \
         WHERE id = $1 AND ($12 < 0 OR business_info_version = $12) RETURNING business_info_version",
    )
    .bind(merchant_id)
    .bind(&info.legal_name)
    .bind(&info.trading_name)
    .bind(&info.registration_number)
    .bind(&info.vat_number)
    .bind(&info.industry)
    .bind(&info.physical_address)
    .bind(&info.contact_person)
    .bind(&info.support_email)
    .bind(&info.support_phone)
    .bind(&info.statement_name)
    .bind(base)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map(|r| r.get::<i64, _>("business_info_version").max(0) as u64))
}

pub async fn set_require_two_factor(
    tx: &mut Tx,
    merchant_id: &str,
    required: bool,
) -> AppResult<()> {
    sqlx::query("UPDATE merchants SET require_two_factor = $2 WHERE id = $1")
        .bind(merchant_id)
        .bind(i64::from(required))
        .execute(&mut **tx)
        .await?;
    Ok(())
}
