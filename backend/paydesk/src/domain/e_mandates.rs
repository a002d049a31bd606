//! Electronic mandate requests, merchant side: the merchant asks a payer to
//! sign a DebiCheck or Registered Mandate themselves. The request's link is
//! mailed from the outbox in the same transaction as the event that makes
//! (or resends) it, so a mail never goes out for a request that was not kept.

use protocol::{
    Change, EMandateRequest, EMandateRequestInput, EMandateState, ErrorCode, FieldError, Interval,
    Language, PaymentMethod, ReplyBody, SortOrder,
};
use time::{Date, Duration};

use super::calendar::{iso_date, long_date, parse_iso_date};
use super::lifecycle::e_mandate_request::{self as requests, RequestEvent};
use super::mail::{escape, text, words};
use super::scope::stream_today;
use super::{Effect, Scope, checked_id, collection_rules as rule, rules};
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, new_secret};
use crate::store::customers::find_customer_in_tx;
use crate::store::e_mandates::{self as store, StoredRequest};
use crate::store::mail::{OutgoingMail, enqueue};
use crate::store::sql::PageRequest;
use crate::store::{Db, Tx, clocks};

/// A link works for this many days after it is (re)sent: long enough for a
/// payer who reads mail weekly, short enough that stale terms are not signed.
pub const LINK_DAYS: i64 = 14;

/// The methods a payer can sign through a link: DebiCheck (authenticated
/// with the payer's bank) and Registered Mandate (the payer's consent here).
pub fn is_e_mandate_method(method: PaymentMethod) -> bool {
    matches!(
        method,
        PaymentMethod::Debicheck | PaymentMethod::RegisteredMandate
    )
}

/// What a request's state is on `today`: an open request past its last day
/// is expired, without a write (nothing else changes when a day passes).
pub fn state_on(request: &EMandateRequest, today: Date) -> EMandateState {
    let past = parse_iso_date(&request.expires_on).is_some_and(|last| last < today);
    if request.state.is_open() && past {
        EMandateState::Expired
    } else {
        request.state
    }
}

fn field(errors: &mut Vec<FieldError>, name: &str, result: Result<(), ErrorCode>) {
    if let Err(code) = result {
        errors.push(FieldError {
            field: name.into(),
            code,
        });
    }
}

/// The payer as the request names them: the customer's details, or those typed.
struct Payer {
    customer_id: Option<String>,
    name: String,
    email: String,
    cellphone: String,
}

async fn payer_of(
    tx: &mut Tx,
    scope: &Scope,
    input: &EMandateRequestInput,
    errors: &mut Vec<FieldError>,
) -> AppResult<Payer> {
    if let Some(id) = input.customer_id.as_deref().filter(|id| !id.is_empty()) {
        let customer = find_customer_in_tx(tx, &scope.merchant_id, scope.mode, checked_id(id)?)
            .await?
            .filter(|c| !c.archived)
            .ok_or(AppError::Code(ErrorCode::NotFound))?;
        // The mail needs an address even when the customer was saved without one.
        field(errors, "email", rules::email(&customer.email));
        return Ok(Payer {
            customer_id: Some(customer.id),
            name: customer.name,
            email: customer.email,
            cellphone: customer.cellphone,
        });
    }
    let payer = Payer {
        customer_id: None,
        name: input.name.trim().to_string(),
        email: input.email.trim().to_lowercase(),
        cellphone: rules::normalise_cellphone(&input.cellphone),
    };
    field(errors, "name", rules::name(&payer.name, 128));
    field(errors, "email", rules::email(&payer.email));
    if !payer.cellphone.is_empty() {
        field(errors, "cellphone", rules::cellphone(&payer.cellphone));
    }
    Ok(payer)
}

/// Checks every term and reports all bad fields at once.
fn check_terms(input: &EMandateRequestInput, today: Date, errors: &mut Vec<FieldError>) {
    if !is_e_mandate_method(input.method) {
        field(errors, "method", Err(ErrorCode::MethodNotForEMandate));
    }
    field(errors, "amountCents", rule::amount(input.amount_cents));
    if let Some(max) = input.max_cents {
        field(
            errors,
            "maxCents",
            rule::maximum_collection(
                max,
                input.amount_cents,
                input.method == PaymentMethod::Debicheck,
            ),
        );
    }
    field(
        errors,
        "startDate",
        first_collection(&input.start_date, today).map(|_| ()),
    );
}

/// The first collection date's rule, for the merchant's request and for a
/// payer who may choose their own: it lies after today, since a mandate
/// signed today cannot be collected on today.
pub fn first_collection(value: &str, today: Date) -> Result<Date, ErrorCode> {
    match rule::future_date(Some(value), today)? {
        date if date == today => Err(ErrorCode::DateInPast),
        date => Ok(date),
    }
}

pub async fn request_e_mandate(
    tx: &mut Tx,
    scope: &Scope,
    input: &EMandateRequestInput,
) -> AppResult<Effect> {
    let today = stream_today(tx, scope).await?;
    let mut errors = Vec::new();
    let payer = payer_of(tx, scope, input, &mut errors).await?;
    check_terms(input, today, &mut errors);
    if !errors.is_empty() {
        return Err(AppError::Invalid(errors));
    }
    let now = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    let mut changeable = input.payer_may_change.clone();
    changeable.dedup();
    let token = new_secret();
    let request = EMandateRequest {
        id: new_id("emr"),
        mode: scope.mode,
        customer_id: payer.customer_id,
        name: payer.name,
        email: payer.email,
        cellphone: payer.cellphone,
        language: input.language,
        method: input.method,
        amount_cents: input.amount_cents,
        max_cents: input.max_cents,
        interval: input.interval,
        start_date: input.start_date.trim().to_string(),
        payer_may_change: changeable,
        state: EMandateState::Sent,
        link: store::link_path(&token),
        expires_on: iso_date(today + Duration::days(LINK_DAYS)),
        sends: 1,
        mandate_id: None,
        created_at: now,
        updated_at: now,
    };
    let stored = StoredRequest {
        merchant_id: scope.merchant_id.clone(),
        token,
        request,
    };
    store::insert_request(tx, &scope.merchant_id, &stored).await?;
    mail_link(tx, scope, &stored.request).await?;
    Ok(upserted(stored.request))
}

async fn open_request(tx: &mut Tx, scope: &Scope, id: &str) -> AppResult<EMandateRequest> {
    let stored = store::find_request(&mut **tx, &scope.merchant_id, scope.mode, checked_id(id)?)
        .await?
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    let today = stream_today(tx, scope).await?;
    let mut request = stored.request;
    request.state = state_on(&request, today);
    Ok(request)
}

/// Mails the link again. An expired request gets a fresh last day, since
/// the merchant is asking again; a completed, declined or withdrawn one is
/// closed.
pub async fn resend(tx: &mut Tx, scope: &Scope, id: &str) -> AppResult<Effect> {
    let mut request = open_request(tx, scope, id).await?;
    request.state = requests::apply(request.state, RequestEvent::Resend).map_err(AppError::Code)?;
    let today = stream_today(tx, scope).await?;
    request.expires_on = iso_date(today + Duration::days(LINK_DAYS));
    request.sends = request.sends.saturating_add(1);
    request.updated_at = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    store::update_request(tx, &scope.merchant_id, &request).await?;
    mail_link(tx, scope, &request).await?;
    Ok(upserted(request))
}

pub async fn cancel(tx: &mut Tx, scope: &Scope, id: &str) -> AppResult<Effect> {
    let mut request = open_request(tx, scope, id).await?;
    request.state = requests::apply(request.state, RequestEvent::Cancel).map_err(AppError::Code)?;
    request.updated_at = crate::domain::scope::stream_now_ms(&mut **tx, scope).await?;
    store::update_request(tx, &scope.merchant_id, &request).await?;
    Ok(upserted(request))
}

fn upserted(request: EMandateRequest) -> Effect {
    Effect {
        id: Some(request.id.clone()),
        changes: vec![Change::EMandateRequestUpserted {
            request: Box::new(request),
        }],
    }
}

pub async fn list(
    db: &Db,
    scope: &Scope,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<ReplyBody> {
    let page = PageRequest::new(SortOrder::Newest, cursor, limit)?;
    let items = store::list_requests(db, &scope.merchant_id, scope.mode, &page).await?;
    let offset = clocks::read_clock(&db.pool, &scope.merchant_id, scope.mode)
        .await?
        .map_or(0, |c| c.offset_days);
    let today = scope.clock.today(scope.mode, offset);
    let items = items
        .into_iter()
        .map(|mut r| {
            r.state = state_on(&r, today);
            r
        })
        .collect();
    let (items, next_cursor) = page.finish(items, |r: &EMandateRequest| {
        (r.created_at, 0, r.id.as_str())
    });
    Ok(ReplyBody::EMandateRequestPage { items, next_cursor })
}

async fn mail_link(tx: &mut Tx, scope: &Scope, request: &EMandateRequest) -> AppResult<()> {
    let merchant = store::merchant_name(tx, &scope.merchant_id).await?;
    let link = format!("{}{}", scope.origin.trim_end_matches('/'), request.link);
    let mail = compose_request_mail(&merchant, request, &link);
    enqueue(tx, &mail).await
}

/// `R 1 500,00`, as payers read rands.
fn rands(cents: i64) -> String {
    super::commerce::receipt::rands(cents)
}

fn interval_key(interval: Interval) -> &'static str {
    match interval {
        Interval::Weekly => "weekly",
        Interval::Fortnightly => "fortnightly",
        Interval::Monthly => "monthly",
        Interval::Quarterly => "quarterly",
        Interval::Biannually => "biannually",
        Interval::Annually => "annually",
    }
}

/// The request mail: who asks, the terms in plain words, and the link.
pub fn compose_request_mail(merchant: &str, request: &EMandateRequest, link: &str) -> OutgoingMail {
    let language: Language = request.language;
    let words = words(language);
    let amount = rands(request.amount_cents);
    let maximum = request.max_cents.map(rands).unwrap_or_default();
    let start = long_date(&request.start_date, language);
    let last_day = long_date(&request.expires_on, language);
    let how_often = text(
        &words,
        &[
            "e_mandate_request",
            "intervals",
            interval_key(request.interval),
        ],
        &[],
    );
    let method = text(
        &words,
        &["e_mandate_request", "methods", request.method.as_str()],
        &[],
    );
    let vars = [
        ("name", request.name.as_str()),
        ("merchant", merchant),
        ("amount", amount.as_str()),
        ("maximum", maximum.as_str()),
        ("interval", how_often.as_str()),
        ("start", start.as_str()),
        ("method", method.as_str()),
        ("last_day", last_day.as_str()),
    ];
    let line = |key: &str| text(&words, &["e_mandate_request", key], &vars);
    let greeting = text(&words, &["greeting"], &vars);
    let mut terms = vec![line("terms"), line("how")];
    if request.max_cents.is_some() {
        terms.push(line("maximum"));
    }
    let paragraphs = [vec![line("intro")], terms, vec![line("until")]].concat();
    let signature = text(&words, &["signature"], &vars);
    let plain = format!(
        "{greeting}\n\n{}\n\n{link}\n\n{}\n\n{signature}\n",
        paragraphs.join("\n\n"),
        line("ignore"),
    );
    let html_paragraphs: String = paragraphs
        .iter()
        .map(|p| format!("<p>{}</p>", escape(p)))
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><body style=\"font-family:sans-serif;color:#18181b\">\
         <p>{greeting}</p>{html_paragraphs}\
         <p><a href=\"{href}\" style=\"background:#16a34a;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none\">{action}</a></p>\
         <p style=\"font-size:12px;color:#52525b\">{href}</p><p>{ignore}</p><p>{signature}</p></body></html>",
        lang = language.tag(),
        greeting = escape(&greeting),
        action = escape(&line("action")),
        ignore = escape(&line("ignore")),
        signature = escape(&signature),
        href = escape(link),
    );
    OutgoingMail {
        to: request.email.clone(),
        subject: line("subject"),
        text: plain,
        html,
    }
}
