//! A merchant's business details and its two-factor policy.

use protocol::BusinessInfo;
use sqlx::Row;

use super::{Db, Tx};
use crate::error::AppResult;

pub async fn find_business_info(
    db: &Db,
    merchant_id: &str,
) -> AppResult<Option<(BusinessInfo, bool)>> {
    let row = sqlx::query(
        "SELECT legal_name, trading_name, registration_number, vat_number, industry, physical_address, contact_person, \
         support_email, support_phone, statement_name, require_two_factor FROM merchants WHERE id = $1",
    )
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| {
        let info = BusinessInfo {
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
        };
        (info, r.get::<i64, _>("require_two_factor") == 1)
    }))
}

pub async fn update_business_info(
    tx: &mut Tx,
    merchant_id: &str,
    info: &BusinessInfo,
) -> AppResult<()> {
    sqlx::query(
        "UPDATE merchants SET legal_name = $2, trading_name = $3, registration_number = $4, vat_number = $5, industry = $6, \
         physical_address = $7, contact_person = $8, support_email = $9, support_phone = $10, statement_name = $11 WHERE id = $1",
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
    .execute(&mut **tx)
    .await?;
    Ok(())
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
