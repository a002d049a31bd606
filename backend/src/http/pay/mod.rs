//! The public pay page, `/pay/{id}`: server-rendered, complete without
//! JavaScript, one small HTML response per step (the stylesheet is inline).
//! Forms post back here and are answered with a page or a redirect
//! (post/redirect/get), so a reload never sends a payment again.

pub mod card_update;
pub mod mandate;
mod views;
pub(crate) mod words;

use actix_web::cookie::Cookie;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use protocol::{AmountMode, ErrorCode, Mode, PageInterval, PaymentKind, PaymentMethod};
use serde::Deserialize;

use self::views::{Chrome, DoneView, MethodTab, NoticeView, PageView, StepView};
use self::words::{Words, language_of};
use super::cookies;
use crate::security_log::{self, Client, Sent, Working};
use crate::state::State;
use paydesk::domain::commerce::checkout::{
    self, Attempt, AttemptStatus, KeptAnswers, PageState, PayForm, PublicPage, StepAnswer,
    Submitted,
};
use paydesk::domain::commerce::receipt::rands;
use paydesk::domain::imports::lookups::BANKS;
use paydesk::domain::web_addresses::https_address;
use paydesk::error::{AppError, AppResult};
use paydesk::ids::{is_well_formed_id, new_secret};
use paydesk::store::pay_pages;
use paydesk::store::sql::wire_name;
use paydesk::store::stream::Written;

/// No script, no frames, no other origins: the page needs none of them.
/// Its forms go to this server, or at most to the origin of the success
/// address the merchant set for the page; never to any other site.
fn content_security_policy(form_origin: Option<&str>) -> String {
    let success = form_origin.map(|o| format!(" {o}")).unwrap_or_default();
    format!(
        "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; \
         form-action 'self'{success}; frame-ancestors 'none'; base-uri 'none'"
    )
}

/// The page's success address, as the payer's browser will read it; an
/// address that no longer passes the check is not used at all.
fn success_address(page: Option<&protocol::PayPage>) -> Option<url::Url> {
    page?.success_url.as_deref().and_then(https_address)
}

#[derive(Deserialize)]
pub struct PageQuery {
    method: Option<String>,
    lang: Option<String>,
}

#[derive(Deserialize)]
pub struct LangQuery {
    lang: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PayPost {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    attempt: String,
    #[serde(flatten)]
    form: PayForm,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepPost {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    answer: String,
}

/// One rendered page with the headers every pay page carries.
struct Reply {
    status: StatusCode,
    html: String,
    cookies: Vec<Cookie<'static>>,
    /// The origin of the page's success address, if it has one.
    form_origin: Option<String>,
}

impl Reply {
    fn of(page: Option<&protocol::PayPage>, status: StatusCode, html: String) -> Reply {
        Reply {
            status,
            html,
            cookies: Vec::new(),
            form_origin: success_address(page).map(|url| url.origin().ascii_serialization()),
        }
    }

    fn send(self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        response
            .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
            .insert_header((
                header::CONTENT_SECURITY_POLICY,
                content_security_policy(self.form_origin.as_deref()),
            ))
            // Forms carry a CSRF token and one-time attempt key.
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
            .insert_header((header::REFERRER_POLICY, "no-referrer"));
        for cookie in self.cookies {
            response.cookie(cookie);
        }
        response.body(self.html)
    }
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

fn render(template: &impl Template) -> AppResult<String> {
    template
        .render()
        .map_err(|e| AppError::Internal(format!("pay page template: {e}")))
}

/// The payer's language and, when just chosen, the cookie that keeps it.
fn language(
    state: &State,
    req: &HttpRequest,
    chosen: Option<&str>,
) -> (Words, Vec<Cookie<'static>>) {
    let (language, chosen) = language_of(req, chosen);
    let mut cookies = Vec::new();
    if chosen {
        cookies.push(crate::http::cookies::locale(state, language));
    }
    (Words::of(language), cookies)
}

/// A page that only says something: its words' keys and where "back" goes.
struct Notice<'a> {
    status: StatusCode,
    heading: &'a str,
    body: &'a str,
    back: Option<String>,
}

fn notice(
    w: Words,
    merchant: &str,
    page: Option<&protocol::PayPage>,
    here: &str,
    Notice {
        status,
        heading,
        body,
        back,
    }: Notice,
    cookies: Vec<Cookie<'static>>,
) -> AppResult<HttpResponse> {
    let vars = [("merchant", merchant)];
    let heading = w.fill(heading, &vars);
    let body = w.fill(body, &vars);
    let view = NoticeView {
        c: Chrome::new(w, heading.clone(), merchant, page, here),
        heading,
        body,
        back,
    };
    let mut reply = Reply::of(page, status, render(&view)?);
    reply.cookies = cookies;
    Ok(reply.send())
}

fn not_found(w: Words, here: &str, cookies: Vec<Cookie<'static>>) -> AppResult<HttpResponse> {
    let text = Notice {
        status: StatusCode::NOT_FOUND,
        heading: "pay.gone.notFoundTitle",
        body: "pay.gone.notFoundBody",
        back: None,
    };
    notice(w, "", None, here, text, cookies)
}

/// An expired page or one with no uses left says so plainly (410 Gone).
fn closed(
    w: Words,
    page: &PublicPage,
    here: &str,
    code: ErrorCode,
    cookies: Vec<Cookie<'static>>,
) -> AppResult<HttpResponse> {
    let (heading, body) = if code == ErrorCode::PageExpired {
        ("pay.gone.expiredTitle", "pay.gone.expiredBody")
    } else {
        ("pay.gone.usedUpTitle", "pay.gone.usedUpBody")
    };
    let text = Notice {
        status: StatusCode::GONE,
        heading,
        body,
        back: None,
    };
    notice(
        w,
        &page.merchant_name,
        Some(&page.page),
        here,
        text,
        cookies,
    )
}

fn closed_code(state: PageState) -> Option<ErrorCode> {
    match state {
        PageState::Open => None,
        PageState::Expired => Some(ErrorCode::PageExpired),
        PageState::UsedUp => Some(ErrorCode::PageUsedUp),
    }
}

/// A recurring page with a fixed amount may offer DebiCheck: the payer
/// signs a mandate on the signing steps instead of paying here.
fn offers_debicheck(page: &PublicPage) -> bool {
    let p = &page.page;
    p.kind == PaymentKind::Recurring
        && p.amount_mode == AmountMode::Fixed
        && p.amount_cents.is_some()
        && p.methods.contains(&PaymentMethod::Debicheck)
}

fn method_tabs(w: &Words, page: &PublicPage, current: PaymentMethod) -> Vec<MethodTab> {
    let mut methods = checkout::offered_methods(&page.page);
    if offers_debicheck(page) {
        methods.push(PaymentMethod::Debicheck);
    }
    methods
        .into_iter()
        .map(|m| MethodTab {
            href: format!("/pay/{}?method={}", page.page.id, m.as_str()),
            label: w.t(&format!("pay.method.{}", m.as_str())).to_string(),
            current: m == current,
        })
        .collect()
}

fn chosen_method(page: &PublicPage, asked: Option<&str>) -> Option<PaymentMethod> {
    let offered = checkout::offered_methods(&page.page);
    asked
        .and_then(PaymentMethod::parse)
        .filter(|m| offered.contains(m))
        .or_else(|| offered.first().copied())
}

/// What the form shows: the payer's answers, the problems by field, and a
/// message at the top.
struct FormState<'a> {
    method: PaymentMethod,
    values: &'a KeptAnswers,
    errors: Vec<(&'static str, String)>,
    banner: Option<String>,
    csrf: &'a str,
    attempt_key: &'a str,
}

fn render_form(w: Words, page: &PublicPage, form: FormState) -> AppResult<String> {
    let p = &page.page;
    let id = &p.id;
    let vars = [("merchant", page.merchant_name.as_str())];
    let title = format!("{} · {}", p.title, w.fill("pay.title", &vars));
    let method = form.method;
    let amount_label = p
        .amount_cents
        .filter(|_| p.amount_mode == AmountMode::Fixed)
        .map(rands);
    let amount_hint = w.fill(
        "pay.amountHint",
        &[
            ("min", &rands(p.min_cents.unwrap_or(1))),
            ("max", &p.max_cents.map(rands).unwrap_or_default()),
        ],
    );
    let recurring_note = (p.kind == PaymentKind::Recurring).then(|| {
        let interval = match p.interval {
            Some(PageInterval::Annually) => w.t("pay.annually"),
            _ => w.t("pay.monthly"),
        };
        let amount = amount_label.clone().unwrap_or_default();
        w.fill(
            "pay.recurringNote",
            &[("amount", &amount), ("interval", interval)],
        )
    });
    let pay_label = w.fill(
        "pay.pay",
        &[("amount", amount_label.as_deref().unwrap_or(""))],
    );
    let tabs = method_tabs(&w, page, method);
    let here = format!("/pay/{id}?method={}", method.as_str());
    let view = PageView {
        page_title: &p.title,
        description: &p.description,
        payer_chooses: p.amount_mode == AmountMode::PayerChosen,
        amount_label,
        amount_hint,
        recurring_note,
        tabs,
        method: method.as_str(),
        action: here.clone(),
        csrf: form.csrf,
        attempt_key: form.attempt_key,
        values: form.values,
        errors: form.errors,
        banner: form.banner,
        email_required: p.kind == PaymentKind::Recurring,
        banks: BANKS
            .entries
            .iter()
            .map(|(name, _, bank)| (wire_name(bank), *name))
            .collect(),
        pay_label: pay_label.trim().to_string(),
        test_mode: p.mode == Mode::Test,
        c: Chrome::new(w, title, &page.merchant_name, Some(p), &here),
    };
    render(&view)
}

async fn show_page(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<PageQuery>,
) -> AppResult<HttpResponse> {
    let page_id = path.into_inner();
    let here = req.uri().path().to_string();
    let (w, mut set_cookies) = language(&state, &req, query.lang.as_deref());
    let Some(page) = checkout::open_page_cached(&state.db, state.clock, &page_id).await? else {
        return not_found(w, &here, set_cookies);
    };
    if let Some(code) = closed_code(page.state) {
        return closed(w, &page, &here, code, set_cookies);
    }
    let (csrf, cookie) = cookies::csrf_token(&state, &req);
    set_cookies.extend(cookie);
    let asked_debicheck = query.method.as_deref() == Some(PaymentMethod::Debicheck.as_str());
    if offers_debicheck(&page)
        && (asked_debicheck || checkout::offered_methods(&page.page).is_empty())
    {
        let tabs = method_tabs(&w, &page, PaymentMethod::Debicheck);
        let mut reply = mandate::page_offer(w, &page, tabs, &csrf)?;
        reply.cookies = set_cookies;
        return Ok(reply.send());
    }
    let Some(method) = chosen_method(&page, query.method.as_deref()) else {
        return not_found(w, &here, set_cookies);
    };
    let values = KeptAnswers::default();
    let attempt_key = new_secret();
    let html = render_form(
        w,
        &page,
        FormState {
            method,
            values: &values,
            errors: Vec::new(),
            banner: None,
            csrf: &csrf,
            attempt_key: &attempt_key,
        },
    )?;
    let mut reply = Reply::of(Some(&page.page), StatusCode::OK, html);
    reply.cookies = set_cookies;
    Ok(reply.send())
}

/// A form that did not carry this browser's CSRF token (or a usable
/// attempt key) is refused before anything is read from it.
fn refused(w: Words, page: &PublicPage, here: &str) -> AppResult<HttpResponse> {
    let text = Notice {
        status: StatusCode::FORBIDDEN,
        heading: "pay.gone.refusedTitle",
        body: "pay.gone.refusedBody",
        back: Some(format!("/pay/{}", page.page.id)),
    };
    notice(
        w,
        &page.merchant_name,
        Some(&page.page),
        here,
        text,
        Vec::new(),
    )
}

fn usable_key(key: &str) -> bool {
    (16..=64).contains(&key.len()) && is_well_formed_id(key)
}

async fn submit_page(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    post: web::Form<PayPost>,
) -> AppResult<HttpResponse> {
    let page_id = path.into_inner();
    let here = format!("/pay/{page_id}");
    let (w, _) = language(&state, &req, None);
    let Some(page) = checkout::open_page(&state.db, state.clock, &page_id, false).await? else {
        return not_found(w, &here, Vec::new());
    };
    if let Some(code) = closed_code(page.state) {
        return closed(w, &page, &here, code, Vec::new());
    }
    let post = post.into_inner();
    if !cookies::csrf_ok(&state, &req, Some(&post.csrf_token)).await || !usable_key(&post.attempt) {
        return refused(w, &page, &here);
    }
    let Some(method) = chosen_method(&page, Some(&post.form.method)) else {
        return refused(w, &page, &here);
    };
    let language = w.language();
    let address = Some(super::client::client_address(&req));
    let submitted = checkout::submit(
        &state.db,
        &page,
        &post.form,
        &post.attempt,
        language,
        address,
    )
    .await
    .map(|written| publish(&state, &page, written));
    match submitted {
        Ok(Submitted::Attempt(attempt)) if attempt.status == AttemptStatus::Failed => {
            // Refused: the form again with the reason and the payer's
            // answers, and a new attempt key for the next try.
            let message = attempt.failure.map(|f| w.error(failure_code(f)));
            let attempt_key = new_secret();
            let html = render_form(
                w,
                &page,
                FormState {
                    method: attempt.method,
                    values: &attempt.answers,
                    errors: Vec::new(),
                    banner: message,
                    csrf: &post.csrf_token,
                    attempt_key: &attempt_key,
                },
            )?;
            Ok(Reply::of(Some(&page.page), StatusCode::PAYMENT_REQUIRED, html).send())
        }
        Ok(Submitted::Attempt(attempt)) => Ok(see_other(&format!(
            "/pay/{page_id}/attempts/{}",
            attempt.id
        ))),
        Ok(Submitted::Invalid(problems)) => {
            let values = KeptAnswers {
                method: method.as_str().to_string(),
                amount: post.form.amount.trim().to_string(),
                name: post.form.name.trim().to_string(),
                email: post.form.email.trim().to_string(),
                expiry: post.form.expiry.trim().to_string(),
                bank: post.form.bank.trim().to_string(),
                language: language.as_str().to_string(),
                pending_card: None,
            };
            let errors = problems
                .into_iter()
                .map(|(field, code)| (field, w.error(code)))
                .collect();
            let banner = Some(w.t("pay.problem").to_string());
            let html = render_form(
                w,
                &page,
                FormState {
                    method,
                    values: &values,
                    errors,
                    banner,
                    csrf: &post.csrf_token,
                    attempt_key: &post.attempt,
                },
            )?;
            Ok(Reply::of(Some(&page.page), StatusCode::UNPROCESSABLE_ENTITY, html).send())
        }
        Err(AppError::Code(code @ (ErrorCode::PageExpired | ErrorCode::PageUsedUp))) => {
            closed(w, &page, &here, code, Vec::new())
        }
        Err(AppError::Code(ErrorCode::NotFound)) => not_found(w, &here, Vec::new()),
        Err(other) => Err(other),
    }
}

fn failure_code(failure: protocol::PayFailure) -> ErrorCode {
    use protocol::PayFailure as F;
    match failure {
        F::Declined => ErrorCode::CardDeclined,
        F::InsufficientFunds => ErrorCode::InsufficientFunds,
        F::AuthenticationFailed => ErrorCode::AuthenticationFailed,
        F::CancelledByPayer => ErrorCode::PaymentCancelled,
        F::Abandoned => ErrorCode::PaymentAbandoned,
    }
}

fn attempt_page(w: Words, page: &PublicPage, attempt: &Attempt, csrf: &str) -> AppResult<Reply> {
    let p = &page.page;
    let here = format!("/pay/{}/attempts/{}", p.id, attempt.id);
    let amount = rands(attempt.amount_cents);
    let merchant = page.merchant_name.as_str();
    let html = match attempt.status {
        AttemptStatus::AwaitingThreeDs | AttemptStatus::AwaitingBank => {
            let three_ds = attempt.status == AttemptStatus::AwaitingThreeDs;
            let bank = attempt.source.clone().unwrap_or_default();
            let vars = [
                ("amount", amount.as_str()),
                ("merchant", merchant),
                ("bank", bank.as_str()),
            ];
            let (title_key, body_key, refuse_key) = if three_ds {
                (
                    "pay.step.threeDsTitle",
                    "pay.step.threeDsBody",
                    "pay.step.refuse",
                )
            } else {
                ("pay.step.bankTitle", "pay.step.bankBody", "pay.step.cancel")
            };
            let heading = w.t(title_key).to_string();
            // No bank or card network is connected: in live mode too the
            // simulated one answers, and the payer is told so plainly.
            let simulated_key = match p.mode {
                Mode::Test => "pay.step.simulated",
                Mode::Live => "pay.step.simulatedLive",
            };
            let view = StepView {
                body: w.fill(body_key, &vars),
                simulated_note: w.t(simulated_key).to_string(),
                refuse_label: w.t(refuse_key).to_string(),
                action: here.clone(),
                csrf,
                c: Chrome::new(w, heading.clone(), merchant, Some(p), &here),
                heading,
            };
            render(&view)?
        }
        AttemptStatus::Succeeded => {
            let name = attempt.answers.name.as_str();
            let heading = w.t("pay.done.paidTitle").to_string();
            let email = attempt.answers.email.as_str();
            let view = DoneView {
                body: w.fill(
                    "pay.done.paidBody",
                    &[
                        ("name", name),
                        ("merchant", merchant),
                        ("amount", amount.as_str()),
                    ],
                ),
                receipt_note: (!email.is_empty())
                    .then(|| w.fill("pay.done.receipt", &[("email", email)])),
                amount: amount.clone(),
                reference: p.reference.clone(),
                source: attempt.source.clone(),
                order_id: attempt.order_id.clone(),
                redirect: success_address(Some(p)).map(String::from),
                c: Chrome::new(w, heading.clone(), merchant, Some(p), &here),
                heading,
            };
            render(&view)?
        }
        AttemptStatus::Failed => {
            let reason = attempt
                .failure
                .map(|f| w.error(failure_code(f)))
                .unwrap_or_default();
            let heading = w.t("pay.done.failedTitle").to_string();
            let view = NoticeView {
                body: reason,
                back: Some(format!("/pay/{}?method={}", p.id, attempt.method.as_str())),
                c: Chrome::new(w, heading.clone(), merchant, Some(p), &here),
                heading,
            };
            render(&view)?
        }
    };
    Ok(Reply::of(Some(p), StatusCode::OK, html))
}

async fn show_attempt_page(
    state: State,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    query: web::Query<LangQuery>,
) -> AppResult<HttpResponse> {
    let (page_id, attempt_id) = path.into_inner();
    let here = req.uri().path().to_string();
    let (w, mut set_cookies) = language(&state, &req, query.lang.as_deref());
    // A payer who just paid the last use still sees the outcome.
    let Some(page) = checkout::open_page(&state.db, state.clock, &page_id, true).await? else {
        return not_found(w, &here, set_cookies);
    };
    let Some(attempt) = checkout::find_attempt(&state.db, &page, &attempt_id).await? else {
        note_foreign_attempt(&state, &req, &page, &attempt_id);
        return not_found(w, &here, set_cookies);
    };
    let (csrf, cookie) = cookies::csrf_token(&state, &req);
    set_cookies.extend(cookie);
    let mut reply = attempt_page(w, &page, &attempt, &csrf)?;
    reply.cookies = set_cookies;
    Ok(reply.send())
}

async fn answer_page(
    state: State,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    post: web::Form<StepPost>,
) -> AppResult<HttpResponse> {
    let (page_id, attempt_id) = path.into_inner();
    let here = req.uri().path().to_string();
    let (w, _) = language(&state, &req, None);
    let Some(page) = checkout::open_page(&state.db, state.clock, &page_id, true).await? else {
        return not_found(w, &here, Vec::new());
    };
    if !cookies::csrf_ok(&state, &req, Some(&post.csrf_token)).await {
        return refused(w, &page, &here);
    }
    let answer = if post.answer == "approve" {
        StepAnswer::Approve
    } else {
        StepAnswer::Refuse
    };
    let address = Some(super::client::client_address(&req));
    let written = checkout::answer_step(&state.db, &page, &attempt_id, answer, address).await?;
    match publish(&state, &page, written) {
        Some(_) => Ok(see_other(&here)),
        None => {
            note_foreign_attempt(&state, &req, &page, &attempt_id);
            not_found(w, &here, Vec::new())
        }
    }
}

/// An attempt id this page does not have: when it is another merchant's
/// (or the other mode's), a security log line says so. The payer's answer
/// is the same "not found" either way, given before the look is done.
fn note_foreign_attempt(state: &State, req: &HttpRequest, page: &PublicPage, attempt_id: &str) {
    let sent = Sent {
        what: format!("pay page {} attempt", page.page.id),
        ids: vec![attempt_id.to_string()],
    };
    let working = Working {
        merchant_id: page.merchant_id.clone(),
        mode: page.page.mode,
    };
    let client = Client::new(None, &super::client::client_address(req));
    let db = state.db.clone();
    actix_web::rt::spawn(async move {
        // A payer is on no team: another mode's attempt is foreign too.
        security_log::note_foreign_ids(&db, &client, &working, &sent, &[]).await;
    });
}

/// This node's tabs of the page's merchant hear of what a payer's step
/// wrote; other nodes hear through the stream's announcement.
fn publish<T>(state: &State, page: &PublicPage, written: Written<T>) -> T {
    if let Some(seq) = written.seq {
        state.merchants.advance(&checkout::stream(page), seq);
    }
    written.value
}

/// A page's logo. Its address changes with every upload, so it is cached
/// for good.
async fn logo_page(state: State, path: web::Path<String>) -> AppResult<HttpResponse> {
    let page_id = path.into_inner();
    if !is_well_formed_id(&page_id) {
        return Ok(HttpResponse::NotFound().finish());
    }
    let Some((bytes, content_type)) = pay_pages::find_logo(&state.db, &page_id).await? else {
        return Ok(HttpResponse::NotFound().finish());
    };
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_str(&content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
        ))
        .insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CONTENT_SECURITY_POLICY, "default-src 'none'"))
        .body(bytes))
}

// The routes: a failure the pages cannot explain is logged and answered 500.

/// A failure the pages cannot explain: logged, and the payer told so in
/// their language.
fn internal(req: &HttpRequest, err: AppError) -> HttpResponse {
    tracing::error!(error = %err, "pay page request failed");
    let (language, _) = language_of(req, None);
    let text = Notice {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        heading: "pay.gone.errorTitle",
        body: "pay.gone.errorBody",
        back: None,
    };
    notice(Words::of(language), "", None, req.path(), text, Vec::new())
        .unwrap_or_else(|_| HttpResponse::InternalServerError().finish())
}

pub async fn show(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<PageQuery>,
) -> HttpResponse {
    show_page(state, req.clone(), path, query)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

pub async fn submit(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    post: web::Form<PayPost>,
) -> HttpResponse {
    submit_page(state, req.clone(), path, post)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

pub async fn show_attempt(
    state: State,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    query: web::Query<LangQuery>,
) -> HttpResponse {
    show_attempt_page(state, req.clone(), path, query)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

pub async fn answer(
    state: State,
    req: HttpRequest,
    path: web::Path<(String, String)>,
    post: web::Form<StepPost>,
) -> HttpResponse {
    answer_page(state, req.clone(), path, post)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

pub async fn logo(state: State, path: web::Path<String>) -> HttpResponse {
    logo_page(state, path).await.unwrap_or_else(|err| {
        tracing::error!(error = %err, "pay page logo failed");
        HttpResponse::InternalServerError().finish()
    })
}
