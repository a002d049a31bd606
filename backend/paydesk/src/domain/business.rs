//! The merchant's business details and its two-factor policy; both change
//! through the merchant's stream, so every open tab sees them live.

use protocol::{BusinessInfo, Change, ErrorCode, FieldError, ReplyBody};

use super::{Effect, Scope};
use super::{conflicts, rules};
use crate::error::{AppError, AppResult};
use crate::store::business as store;
use crate::store::{Db, Tx};

fn trimmed(info: &BusinessInfo) -> BusinessInfo {
    BusinessInfo {
        legal_name: info.legal_name.trim().into(),
        trading_name: info.trading_name.trim().into(),
        registration_number: registration_number_written(info.registration_number.trim()),
        vat_number: info.vat_number.trim().into(),
        industry: info.industry.trim().into(),
        physical_address: info.physical_address.trim().into(),
        contact_person: info.contact_person.trim().into(),
        support_email: info.support_email.trim().to_lowercase(),
        support_phone: rules::normalise_cellphone(&info.support_phone),
        statement_name: info.statement_name.trim().to_uppercase(),
        version: info.version,
    }
}

/// South African VAT numbers: ten digits starting with 4.
fn vat_number(value: &str) -> Result<(), ErrorCode> {
    if value.len() == 10 && value.starts_with('4') && value.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(ErrorCode::InvalidVatNumber)
    }
}

/// A company registration number as CIPC writes it, `YYYY/NNNNNN/NN`; the
/// twelve digits typed without their slashes (or with spaces) get them.
fn registration_number_written(value: &str) -> String {
    let digits: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() == 12 && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("{}/{}/{}", &digits[..4], &digits[4..10], &digits[10..])
    } else {
        value.to_string()
    }
}

/// `YYYY/NNNNNN/NN`, the year of registration first.
fn registration_number(value: &str) -> Result<(), ErrorCode> {
    let parts: Vec<&str> = value.split('/').collect();
    let digits =
        |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
    let shaped = matches!(parts.as_slice(), [year, number, kind]
        if digits(year, 4) && digits(number, 6) && digits(kind, 2));
    let year_plausible = parts[0]
        .parse::<u16>()
        .is_ok_and(|y| (1800..=2999).contains(&y));
    if shaped && year_plausible {
        Ok(())
    } else {
        Err(ErrorCode::InvalidRegistrationNumber)
    }
}

/// Bank statements carry at most ten letters, digits and spaces.
fn statement_name(value: &str) -> Result<(), ErrorCode> {
    rules::required(value, 10)?;
    if value.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ') {
        Ok(())
    } else {
        Err(ErrorCode::InvalidCharacters)
    }
}

pub fn validate_business_info(info: &BusinessInfo) -> Result<BusinessInfo, AppError> {
    let info = trimmed(info);
    let optional = |value: &str, check: &dyn Fn(&str) -> Result<(), ErrorCode>| {
        if value.is_empty() {
            Ok(())
        } else {
            check(value)
        }
    };
    let checks: [(&str, Result<(), ErrorCode>); 10] = [
        ("legalName", rules::name(&info.legal_name, 128)),
        (
            "tradingName",
            optional(&info.trading_name, &|v| rules::name(v, 128)),
        ),
        (
            "registrationNumber",
            optional(&info.registration_number, &registration_number),
        ),
        ("vatNumber", optional(&info.vat_number, &vat_number)),
        ("industry", rules::at_most(&info.industry, 64)),
        (
            "physicalAddress",
            rules::at_most(&info.physical_address, 256),
        ),
        (
            "contactPerson",
            optional(&info.contact_person, &|v| rules::name(v, 64)),
        ),
        ("supportEmail", optional(&info.support_email, &rules::email)),
        (
            "supportPhone",
            optional(&info.support_phone, &rules::cellphone),
        ),
        ("statementName", statement_name(&info.statement_name)),
    ];
    let errors: Vec<FieldError> = checks
        .into_iter()
        .filter_map(|(field, result)| {
            result.err().map(|code| FieldError {
                field: field.into(),
                code,
            })
        })
        .collect();
    if errors.is_empty() {
        Ok(info)
    } else {
        Err(AppError::Invalid(errors))
    }
}

pub async fn update_business_info(
    tx: &mut Tx,
    scope: &Scope,
    info: &BusinessInfo,
    base_version: Option<u64>,
) -> AppResult<Effect> {
    let mut info = validate_business_info(info)?;
    if let Some(base) = base_version {
        refuse_if_moved_on(tx, scope, base, &info).await?;
    }
    // The write is guarded by the base too: the other mode's stream may
    // have saved between the check and here, in a transaction of its own.
    match store::update_business_info(tx, &scope.merchant_id, &info, base_version).await? {
        Some(version) => info.version = version,
        None => {
            refuse_if_moved_on(tx, scope, base_version.unwrap_or_default(), &info).await?;
            return Err(AppError::Code(ErrorCode::EditConflict));
        }
    }
    Ok(Effect {
        changes: vec![Change::BusinessInfoUpdated {
            info: Box::new(info),
        }],
        id: Some(scope.merchant_id.clone()),
    })
}

/// The details are shared by test and live mode, so their version is a
/// counter of saves (bumped by every one) rather than a stream seq: the two
/// modes' seqs are unrelated and could go backwards across a mode switch.
/// No event is found by that counter, so the fields named are those where
/// the details now differ from what is being saved.
async fn refuse_if_moved_on(
    tx: &mut Tx,
    scope: &Scope,
    base: u64,
    saving: &BusinessInfo,
) -> AppResult<()> {
    let current = store::business_info_in_tx(tx, &scope.merchant_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    conflicts::refuse_if_moved_on(
        base,
        conflicts::Saving {
            version: current.version,
            current: &current,
            then: None,
            input: saving,
            fields: conflicts::BUSINESS_INFO_FIELDS,
        },
    )
}

pub async fn require_two_factor(tx: &mut Tx, scope: &Scope, required: bool) -> AppResult<Effect> {
    store::set_require_two_factor(tx, &scope.merchant_id, required).await?;
    Ok(Effect {
        changes: vec![Change::TwoFactorPolicyUpdated { required }],
        id: Some(scope.merchant_id.clone()),
    })
}

pub async fn get_business_info(db: &Db, scope: &Scope) -> AppResult<ReplyBody> {
    let (info, two_factor_required) = store::find_business_info(db, &scope.merchant_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::BusinessInfo {
        info: Box::new(info),
        two_factor_required,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registration_and_vat_numbers_have_their_shapes() {
        assert_eq!(
            registration_number_written("2015 123456 07"),
            "2015/123456/07"
        );
        assert_eq!(
            registration_number_written("201512345607"),
            "2015/123456/07"
        );
        assert_eq!(registration_number("2015/123456/07"), Ok(()));
        for bad in [
            "abc",
            "2015/12345/07",
            "15/123456/07",
            "2015-123456-07",
            "0999/123456/07",
        ] {
            assert_eq!(
                registration_number(&registration_number_written(bad)),
                Err(ErrorCode::InvalidRegistrationNumber),
                "{bad}"
            );
        }
        assert_eq!(vat_number("4123456789"), Ok(()));
        for bad in ["12", "5123456789", "412345678A"] {
            assert_eq!(vat_number(bad), Err(ErrorCode::InvalidVatNumber), "{bad}");
        }
    }
}
