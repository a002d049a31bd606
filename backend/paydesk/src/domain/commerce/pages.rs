//! Pay pages, merchant side: the rules of a page and the commands that
//! create, edit, switch and brand it.

use protocol::{
    AmountMode, Change, ErrorCode, FieldError, PAY_PAGE_LOGO_MAX_BYTES, PayPage, PayPageInput,
    PaymentKind, PaymentMethod, ReplyBody,
};
use time::Date;

use super::super::{Effect, Scope, checked_id, collection_rules as rule, rules};
use crate::domain::conflicts;
use crate::domain::scope::stream_today;
use crate::error::{AppError, AppResult};
use crate::ids::new_id;
use crate::store::pay_pages as store;
use crate::store::sql::PageRequest;
use crate::store::{Db, Tx};

const TITLE_MAX: usize = 80;
const DESCRIPTION_MAX: usize = 500;
const REFERENCE_MAX: usize = 30;
const URL_MAX: usize = 500;

/// The methods a page of `kind` may offer: money now for once-off pages; a
/// card kept on file, or a DebiCheck mandate the payer signs on the signing
/// steps, for recurring ones.
pub fn methods_for(kind: PaymentKind) -> &'static [PaymentMethod] {
    match kind {
        PaymentKind::Once => &[PaymentMethod::Card, PaymentMethod::InstantEft],
        PaymentKind::Recurring => &[PaymentMethod::Card, PaymentMethod::Debicheck],
    }
}

fn colour(value: &str) -> Result<(), ErrorCode> {
    let hex = value.strip_prefix('#').unwrap_or("");
    if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err(ErrorCode::InvalidColour)
    }
}

/// An absolute https address: the payer is sent there after paying, so it
/// is judged as the payer's browser will read it.
fn success_url(value: &str) -> Result<(), ErrorCode> {
    if value.chars().count() > URL_MAX {
        return Err(ErrorCode::TooLong);
    }
    match crate::domain::web_addresses::https_address(value) {
        Some(_) => Ok(()),
        None => Err(ErrorCode::InvalidUrl),
    }
}

fn optional(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Trims every field, checks every rule, and reports all bad fields at once.
/// Fields that do not apply to the page's kind or amount mode are dropped.
pub fn validate_page(input: &PayPageInput, today: Date) -> Result<PayPageInput, AppError> {
    let fixed = input.amount_mode == AmountMode::Fixed;
    let recurring = input.kind == PaymentKind::Recurring;
    let allowed = methods_for(input.kind);
    let clean = PayPageInput {
        title: input.title.trim().to_string(),
        description: input.description.trim().to_string(),
        amount_mode: input.amount_mode,
        amount_cents: input.amount_cents.filter(|_| fixed),
        min_cents: input.min_cents.filter(|_| !fixed),
        max_cents: input.max_cents.filter(|_| !fixed),
        kind: input.kind,
        interval: input.interval.filter(|_| recurring),
        // Kept in the product's order, once each.
        methods: PaymentMethod::ALL
            .into_iter()
            .filter(|m| input.methods.contains(m))
            .collect(),
        expires_on: optional(&input.expires_on),
        max_uses: input.max_uses,
        reference: input.reference.trim().to_string(),
        success_url: optional(&input.success_url),
        colour: input.colour.trim().to_lowercase(),
    };
    let mut errors = Vec::new();
    let mut check = |field: &str, result: Result<(), ErrorCode>| {
        if let Err(code) = result {
            errors.push(FieldError {
                field: field.into(),
                code,
            });
        }
    };
    check("title", rules::required(&clean.title, TITLE_MAX));
    check(
        "description",
        rules::at_most(&clean.description, DESCRIPTION_MAX),
    );
    if fixed {
        check(
            "amountCents",
            clean
                .amount_cents
                .map_or(Err(ErrorCode::Required), rule::amount),
        );
    } else {
        check(
            "minCents",
            clean
                .min_cents
                .map_or(Err(ErrorCode::Required), rule::amount),
        );
        check(
            "maxCents",
            clean
                .max_cents
                .map_or(Err(ErrorCode::Required), rule::amount),
        );
        if let (Some(min), Some(max)) = (clean.min_cents, clean.max_cents)
            && min > max
        {
            check("maxCents", Err(ErrorCode::MinimumAboveMaximum));
        }
    }
    if recurring && clean.interval.is_none() {
        check("interval", Err(ErrorCode::IntervalRequired));
    }
    if clean.methods.is_empty() {
        check("methods", Err(ErrorCode::Required));
    } else if input.methods.iter().any(|m| !allowed.contains(m))
        // A mandate's terms are fixed: DebiCheck needs the page's own amount.
        || (input.methods.contains(&PaymentMethod::Debicheck)
            && input.amount_mode != AmountMode::Fixed)
    {
        check("methods", Err(ErrorCode::MethodNotForPage));
    }
    if let Some(expires_on) = &clean.expires_on {
        check(
            "expiresOn",
            rule::future_date(Some(expires_on), today).map(|_| ()),
        );
    }
    if clean.max_uses == Some(0) {
        check("maxUses", Err(ErrorCode::InvalidNumber));
    }
    check(
        "reference",
        rule::reference(&clean.reference, REFERENCE_MAX),
    );
    if let Some(url) = &clean.success_url {
        check("successUrl", success_url(url));
    }
    check("colour", colour(&clean.colour));
    if errors.is_empty() {
        Ok(clean)
    } else {
        Err(AppError::Invalid(errors))
    }
}

fn apply_input(page: &mut PayPage, input: PayPageInput) {
    page.title = input.title;
    page.description = input.description;
    page.amount_mode = input.amount_mode;
    page.amount_cents = input.amount_cents;
    page.min_cents = input.min_cents;
    page.max_cents = input.max_cents;
    page.kind = input.kind;
    page.interval = input.interval;
    page.methods = input.methods;
    page.expires_on = input.expires_on;
    page.max_uses = input.max_uses;
    page.reference = input.reference;
    page.success_url = input.success_url;
    page.colour = input.colour;
}

fn upserted(page: PayPage) -> Effect {
    let id = page.id.clone();
    super::checkout::forget_public_page(&id);
    Effect {
        changes: vec![Change::PayPageUpserted {
            page: Box::new(page),
        }],
        id: Some(id),
    }
}

pub async fn create_page(tx: &mut Tx, scope: &Scope, input: &PayPageInput) -> AppResult<Effect> {
    let today = stream_today(tx, scope).await?;
    let clean = validate_page(input, today)?;
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let mut page = PayPage {
        id: new_id("ppg"),
        mode: scope.mode,
        title: String::new(),
        description: String::new(),
        amount_mode: clean.amount_mode,
        amount_cents: None,
        min_cents: None,
        max_cents: None,
        kind: clean.kind,
        interval: None,
        methods: Vec::new(),
        expires_on: None,
        max_uses: None,
        uses: 0,
        reference: String::new(),
        success_url: None,
        colour: String::new(),
        logo_version: None,
        active: true,
        version: 0,
        created_at: now,
        updated_at: now,
    };
    apply_input(&mut page, clean);
    store::insert_page(tx, &scope.merchant_id, &page).await?;
    Ok(upserted(page))
}

async fn load(tx: &mut Tx, scope: &Scope, page_id: &str) -> AppResult<PayPage> {
    store::find_page(
        &mut **tx,
        &scope.merchant_id,
        scope.mode,
        checked_id(page_id)?,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))
}

pub async fn update_page(
    tx: &mut Tx,
    scope: &Scope,
    page_id: &str,
    input: &PayPageInput,
    base_version: Option<u64>,
) -> AppResult<Effect> {
    let mut page = load(tx, scope, page_id).await?;
    let today = stream_today(tx, scope).await?;
    let clean = validate_page(input, today)?;
    if let Some(base) = base_version {
        let then = conflicts::recorded_at(tx, scope, base, |change| match change {
            Change::PayPageUpserted { page: then } if then.id == page.id => Some(*then),
            _ => None,
        })
        .await?;
        conflicts::refuse_if_moved_on(
            base,
            conflicts::Saving {
                version: page.version,
                current: &page,
                then,
                input,
                fields: conflicts::PAY_PAGE_FIELDS,
            },
        )?;
    }
    apply_input(&mut page, clean);
    page.updated_at = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    store::update_page(tx, &scope.merchant_id, &page).await?;
    Ok(upserted(page))
}

pub async fn set_active(
    tx: &mut Tx,
    scope: &Scope,
    page_id: &str,
    active: bool,
) -> AppResult<Effect> {
    let mut page = load(tx, scope, page_id).await?;
    page.active = active;
    page.updated_at = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    store::update_page(tx, &scope.merchant_id, &page).await?;
    Ok(upserted(page))
}

/// The image types a pay page serves, known by their first bytes (never by
/// what the browser claimed): SVG is refused, as it can carry script.
fn image_type(data: &[u8]) -> Option<&'static str> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if data.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if data.len() >= 12 && &data[..4] == b"RIFF" && &data[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

pub async fn set_logo(tx: &mut Tx, scope: &Scope, page_id: &str, data: &[u8]) -> AppResult<Effect> {
    let mut page = load(tx, scope, page_id).await?;
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let logo = if data.is_empty() {
        None
    } else {
        if data.len() > PAY_PAGE_LOGO_MAX_BYTES {
            return Err(AppError::field("logo", ErrorCode::ImageTooLarge));
        }
        let content_type =
            image_type(data).ok_or(AppError::field("logo", ErrorCode::InvalidImage))?;
        Some((data, content_type))
    };
    store::set_logo(tx, &scope.merchant_id, scope.mode, &page.id, logo, now).await?;
    page.logo_version = logo.map(|_| now);
    page.updated_at = now;
    Ok(upserted(page))
}

pub async fn list_pages(
    db: &Db,
    scope: &Scope,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let page = PageRequest::new(Default::default(), cursor, limit)?;
    let items = store::list_pages(db, &scope.merchant_id, scope.mode, &page).await?;
    let (items, next_cursor) = page.finish(items, |p| (p.created_at, 0, p.id.as_str()));
    Ok(ReplyBody::PayPageList { items, next_cursor })
}

pub async fn get_page(db: &Db, scope: &Scope, page_id: &str) -> AppResult<ReplyBody> {
    let page = store::find_page(
        &db.pool,
        &scope.merchant_id,
        scope.mode,
        checked_id(page_id)?,
    )
    .await?
    .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::PayPage {
        page: Box::new(page),
    })
}

#[cfg(test)]
mod tests {
    use protocol::PageInterval;
    use time::macros::date;

    use super::*;

    fn input() -> PayPageInput {
        PayPageInput {
            title: " Yoga class ".into(),
            description: String::new(),
            amount_mode: AmountMode::Fixed,
            amount_cents: Some(15_000),
            min_cents: Some(1),
            max_cents: None,
            kind: PaymentKind::Once,
            interval: Some(PageInterval::Monthly),
            methods: vec![PaymentMethod::InstantEft, PaymentMethod::Card],
            expires_on: Some(" ".into()),
            max_uses: None,
            reference: "YOGA-1".into(),
            success_url: None,
            colour: "#1A73E8".into(),
        }
    }

    fn codes(input: &PayPageInput) -> Vec<(String, ErrorCode)> {
        match validate_page(input, date!(2026 - 03 - 02)) {
            Ok(_) => Vec::new(),
            Err(AppError::Invalid(errors)) => {
                errors.into_iter().map(|e| (e.field, e.code)).collect()
            }
            Err(other) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn a_good_page_is_cleaned() {
        let Ok(clean) = validate_page(&input(), date!(2026 - 03 - 02)) else {
            panic!("the page is valid");
        };
        assert_eq!(clean.title, "Yoga class");
        assert_eq!(clean.colour, "#1a73e8");
        assert_eq!(
            clean.methods,
            vec![PaymentMethod::Card, PaymentMethod::InstantEft]
        );
        // Fields that do not apply are dropped.
        assert_eq!(
            (clean.min_cents, clean.interval, clean.expires_on),
            (None, None, None)
        );
    }

    #[test]
    fn each_rule_names_its_field() {
        type Case = (fn(&mut PayPageInput), &'static str, ErrorCode);
        let cases: Vec<Case> = vec![
            (|i| i.title = " ".into(), "title", ErrorCode::Required),
            (|i| i.title = "x".repeat(81), "title", ErrorCode::TooLong),
            (
                |i| i.description = "x".repeat(501),
                "description",
                ErrorCode::TooLong,
            ),
            (
                |i| i.amount_cents = None,
                "amountCents",
                ErrorCode::Required,
            ),
            (
                |i| i.amount_cents = Some(0),
                "amountCents",
                ErrorCode::InvalidAmount,
            ),
            (
                |i| {
                    i.amount_mode = AmountMode::PayerChosen;
                    i.min_cents = Some(500);
                    i.max_cents = Some(499);
                },
                "maxCents",
                ErrorCode::MinimumAboveMaximum,
            ),
            (
                |i| {
                    i.amount_mode = AmountMode::PayerChosen;
                    i.min_cents = None;
                    i.max_cents = Some(499);
                },
                "minCents",
                ErrorCode::Required,
            ),
            (
                |i| {
                    i.kind = PaymentKind::Recurring;
                    i.interval = None;
                    i.methods = vec![PaymentMethod::Card];
                },
                "interval",
                ErrorCode::IntervalRequired,
            ),
            (
                |i| {
                    i.kind = PaymentKind::Recurring;
                    i.methods = vec![PaymentMethod::InstantEft, PaymentMethod::Debicheck];
                },
                "methods",
                ErrorCode::MethodNotForPage,
            ),
            (
                |i| i.methods = vec![PaymentMethod::Debicheck],
                "methods",
                ErrorCode::MethodNotForPage,
            ),
            (|i| i.methods = Vec::new(), "methods", ErrorCode::Required),
            (
                |i| i.expires_on = Some("2026-03-01".into()),
                "expiresOn",
                ErrorCode::DateInPast,
            ),
            (
                |i| i.expires_on = Some("2026-02-30".into()),
                "expiresOn",
                ErrorCode::InvalidDate,
            ),
            (
                |i| i.max_uses = Some(0),
                "maxUses",
                ErrorCode::InvalidNumber,
            ),
            (
                |i| i.reference = String::new(),
                "reference",
                ErrorCode::Required,
            ),
            (
                |i| i.reference = "x".repeat(31),
                "reference",
                ErrorCode::TooLong,
            ),
            (
                |i| i.reference = "a b".into(),
                "reference",
                ErrorCode::InvalidCharacters,
            ),
            (
                |i| i.success_url = Some("http://shop.example".into()),
                "successUrl",
                ErrorCode::InvalidUrl,
            ),
            (
                |i| i.success_url = Some("javascript:alert(1)".into()),
                "successUrl",
                ErrorCode::InvalidUrl,
            ),
            (
                |i| i.success_url = Some("https://shop.example/\t/x".into()),
                "successUrl",
                ErrorCode::InvalidUrl,
            ),
            (
                |i| i.colour = "blue".into(),
                "colour",
                ErrorCode::InvalidColour,
            ),
            (
                |i| i.colour = "#12345".into(),
                "colour",
                ErrorCode::InvalidColour,
            ),
        ];
        for (change, field, code) in cases {
            let mut bad = input();
            change(&mut bad);
            assert_eq!(
                codes(&bad),
                vec![(field.to_string(), code)],
                "{field} {code:?}"
            );
        }
        let mut edge = input();
        edge.expires_on = Some("2026-03-02".into());
        edge.max_uses = Some(1);
        edge.reference = "x".repeat(30);
        edge.title = "x".repeat(80);
        edge.success_url = Some("https://shop.example/thanks?o=1".into());
        assert_eq!(codes(&edge), Vec::new());
    }

    #[test]
    fn logos_are_known_by_their_bytes() {
        assert_eq!(image_type(b"\x89PNG\r\n\x1a\nrest"), Some("image/png"));
        assert_eq!(image_type(&[0xff, 0xd8, 0xff, 0xe0]), Some("image/jpeg"));
        assert_eq!(image_type(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(image_type(b"<svg onload=alert(1)>"), None);
        assert_eq!(image_type(b""), None);
    }
}
