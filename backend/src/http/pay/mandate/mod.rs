//! The payer's e-mandate link, `/mandate/{token}`: the first visit records
//! the request opened (the merchant's list shows it live); the payer then
//! signs in three steps (details, bank account, the terms and consent),
//! and a DebiCheck mandate waits for the payer's bank on a page that
//! refreshes itself. A recurring pay page offering DebiCheck starts a
//! signing of its own and hands the payer to these same handlers.
//! Everything works without JavaScript.

mod views;

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use protocol::{ApprovalWindow, Mode};
use serde::Deserialize;

use self::views::{SignView, WaitView};
use super::super::cookies;
use super::views::{Chrome, NoticeView, StepView};
use super::words::Words;
use super::{Reply, internal, language, not_found, render, see_other, usable_key};
use crate::state::State;
use paydesk::domain::calendar::long_date;
use paydesk::domain::commerce::checkout;
use paydesk::domain::commerce::receipt::rands;
use paydesk::domain::e_mandate_payers;
use paydesk::domain::e_mandate_signing::{
    self as signing, Answers, Consented, Signing, Stage, Step,
};
use paydesk::error::{AppError, AppResult};
use paydesk::ids::new_secret;
use paydesk::store::stream::Written;

#[derive(Deserialize)]
pub struct SignQuery {
    lang: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignPost {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    key: String,
    #[serde(default)]
    lang: String,
    #[serde(default)]
    step: String,
    #[serde(default)]
    back: String,
    #[serde(flatten)]
    answers: Answers,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BankPost {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    answer: String,
}

/// Tokens are URL-safe base64 of 32 bytes; anything else finds nothing.
fn well_formed(token: &str) -> bool {
    token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn home(token: &str) -> String {
    format!("/mandate/{token}")
}

/// The payer's language: the one chosen on the page (a link's `lang`, or
/// the form's), else the request's.
fn words_for(
    state: &State,
    req: &HttpRequest,
    signing: &Signing,
    chosen: Option<&str>,
) -> (Words, Vec<actix_web::cookie::Cookie<'static>>) {
    match chosen.filter(|c| !c.is_empty()) {
        Some(chosen) => language(state, req, Some(chosen)),
        None => (Words::of(signing.language), Vec::new()),
    }
}

/// The signing's page in the payer's language: a language other than the
/// request's travels in the address.
fn home_in(token: &str, w: &Words, signing: &Signing) -> String {
    if w.language() == signing.language {
        home(token)
    } else {
        format!("{}?lang={}", home(token), w.language().as_str())
    }
}

fn publish<T>(state: &State, signing: &Signing, written: Written<T>) -> T {
    if let Some(seq) = written.seq {
        state.merchants.advance(&signing.stream(), seq);
    }
    written.value
}

async fn find(state: &State, token: &str) -> AppResult<Option<Signing>> {
    if !well_formed(token) {
        return Ok(None);
    }
    signing::find(&state.db, state.clock, token).await
}

fn vars_of(signing: &Signing) -> Vec<(&'static str, String)> {
    vec![("merchant", signing.merchant_name.clone())]
}

fn fill(w: &Words, key: &str, vars: &[(&'static str, String)]) -> String {
    let borrowed: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    w.fill(key, &borrowed)
}

/// A page that only says where the signing stands.
fn say(
    w: Words,
    signing: &Signing,
    here: &str,
    status: StatusCode,
    (heading, body): (String, String),
) -> AppResult<Reply> {
    let view = NoticeView {
        c: Chrome::new(w, heading.clone(), &signing.merchant_name, None, here),
        heading,
        body,
        back: None,
    };
    Ok(Reply::of(None, status, render(&view)?))
}

/// The outcome pages: done, declined, unanswered, closed.
fn outcome(w: Words, signing: &Signing, here: &str, stage: Stage) -> AppResult<Reply> {
    let vars = vars_of(signing);
    let text = |k: &str| fill(&w, k, &vars);
    let (status, heading, body) = match stage {
        Stage::Completed => {
            let email = signing.kept_answers().email;
            let mut body = text("pay.mandate.doneBody");
            if !email.is_empty() {
                body.push(' ');
                body.push_str(&w.fill("pay.sign.confirmation", &[("email", &email)]));
            }
            (StatusCode::OK, text("pay.mandate.doneTitle"), body)
        }
        Stage::Declined => (
            StatusCode::OK,
            text("pay.sign.declinedTitle"),
            text("pay.sign.declinedBody"),
        ),
        Stage::NoReply => (
            StatusCode::OK,
            text("pay.sign.noReplyTitle"),
            text("pay.sign.noReplyBody"),
        ),
        _ => (
            StatusCode::GONE,
            text("pay.mandate.closedTitle"),
            text("pay.mandate.closedBody"),
        ),
    };
    say(w, signing, here, status, (heading, body))
}

/// The payer waits for their bank; the page looks again by itself.
fn waiting(w: Words, signing: &Signing, token: &str, here: &str) -> AppResult<Reply> {
    let row = signing.row.as_ref();
    let window = row
        .and_then(|r| r.approval_window)
        .unwrap_or(ApprovalWindow::Tt1RealTime);
    let key = paydesk::store::sql::wire_name(&window);
    let answers = signing.kept_answers();
    let due = row.and_then(|r| r.auth_due_on.clone()).unwrap_or_default();
    let body = w.fill(
        &format!("pay.sign.wait.{key}"),
        &[("cellphone", &answers.cellphone), ("due", &due)],
    );
    let heading = w.t("pay.sign.waitTitle").to_string();
    let view = WaitView {
        refresh_seconds: if window == ApprovalWindow::Tt1RealTime {
            5
        } else {
            30
        },
        // Test mode's simulated bank has a banking app to answer in.
        app_link: (signing.mode == Mode::Test).then(|| {
            let page = home_in(token, &w, signing);
            page.replacen(&home(token), &format!("{}/bank", home(token)), 1)
        }),
        c: Chrome::new(w, heading.clone(), &signing.merchant_name, None, here),
        heading,
        body,
    };
    Ok(Reply::of(None, StatusCode::OK, render(&view)?))
}

/// The request in one heading and one line: who asks, and the terms.
fn summary_of(w: &Words, signing: &Signing) -> (String, String) {
    let t = &signing.terms;
    let amount = rands(t.amount_cents);
    let maximum = t.max_cents.map(rands).unwrap_or_default();
    let interval = views::interval_words(w, t);
    let start = long_date(&t.start_date, w.language());
    let method = w
        .t(&format!("pay.mandate.methods.{}", t.method.as_str()))
        .to_string();
    let vars = [
        ("merchant", signing.merchant_name.as_str()),
        ("amount", amount.as_str()),
        ("maximum", maximum.as_str()),
        ("interval", interval.as_str()),
        ("start", start.as_str()),
        ("method", method.as_str()),
    ];
    let mut summary = w.fill("pay.mandate.terms", &vars);
    if t.max_cents.is_some() {
        summary.push(' ');
        summary.push_str(&w.fill("pay.mandate.maximum", &vars));
    }
    (w.fill("pay.mandate.title", &vars), summary)
}

/// One step of the form, with the payer's answers and any problems.
#[allow(clippy::too_many_arguments)]
fn step_page(
    w: Words,
    signing: &Signing,
    token: &str,
    csrf: &str,
    key: &str,
    step: Step,
    answers: &Answers,
    problems: &[(&'static str, protocol::ErrorCode)],
) -> AppResult<Reply> {
    let here = home(token);
    let vars = vars_of(signing);
    let (number, heading) = match step {
        Step::Details => (1, w.t("pay.sign.detailsTitle")),
        Step::Bank => (2, w.t("pay.sign.bankTitle")),
        Step::Consent => (3, w.t("pay.sign.consentTitle")),
    };
    let heading = heading.to_string();
    let business_refused = problems
        .iter()
        .any(|(_, code)| *code == protocol::ErrorCode::DebicheckIndividualsOnly);
    let errors: Vec<(&'static str, String)> = problems
        .iter()
        .map(|(field, code)| (*field, w.error(*code)))
        .collect();
    let (title, summary) = summary_of(&w, signing);
    let view = SignView {
        title,
        summary,
        step: step.as_str(),
        step_label: w.fill("pay.sign.stepOf", &[("n", &number.to_string())]),
        action: here.clone(),
        csrf,
        key,
        a: answers,
        hidden: views::hidden_answers(answers, step),
        fields: match step {
            Step::Details => views::details_fields(&w, answers),
            Step::Bank => views::bank_fields(&w, answers),
            Step::Consent => Vec::new(),
        },
        choices: if step == Step::Consent {
            views::choice_fields(&w, signing, answers)
        } else {
            Vec::new()
        },
        banner: (!errors.is_empty()).then(|| w.t("pay.problem").to_string()),
        errors,
        business_note: business_refused.then(|| fill(&w, "pay.sign.businessNote", &vars)),
        banks: if step == Step::Bank {
            views::banks()
        } else {
            Vec::new()
        },
        types: views::account_types(&w),
        terms: if step == Step::Consent {
            views::terms_list(&w, signing, answers)
        } else {
            Vec::new()
        },
        consent_label: fill(&w, "pay.sign.consent", &vars),
        submit_label: w
            .t(if step == Step::Consent {
                "pay.sign.sign"
            } else {
                "pay.sign.next"
            })
            .to_string(),
        back_step: match step {
            Step::Details => None,
            Step::Bank => Some("details"),
            Step::Consent => Some("bank"),
        },
        test_mode: signing.mode == Mode::Test,
        c: Chrome::new(w, heading.clone(), &signing.merchant_name, None, &here),
        heading,
    };
    let status = if problems.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    Ok(Reply::of(None, status, render(&view)?))
}

pub async fn show(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<SignQuery>,
) -> HttpResponse {
    show_signing(state, req.clone(), path.into_inner(), query.into_inner())
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

async fn show_signing(
    state: State,
    req: HttpRequest,
    token: String,
    query: SignQuery,
) -> AppResult<HttpResponse> {
    let here = req.path().to_string();
    let address = Some(super::super::client::client_address(&req));
    // A HEAD (a link preview, a checker) is no payer opening the link.
    let opening = req.method() != actix_web::http::Method::HEAD;
    if opening
        && well_formed(&token)
        && let Some(opened) =
            e_mandate_payers::open(&state.db, state.clock, &token, address.clone()).await?
        && let Some(seq) = opened.seq
    {
        state.merchants.advance(&opened.value.stream(), seq);
    }
    let Some(mut found) = find(&state, &token).await? else {
        let (w, cookies) = language(&state, &req, query.lang.as_deref());
        return not_found(w, &here, cookies);
    };
    let (w, mut cookies) = words_for(&state, &req, &found, query.lang.as_deref());
    let mut stage = found.stage();
    if stage == Stage::Authenticating {
        let closed = signing::close_if_unanswered(&state.db, state.clock, &found, address).await?;
        stage = publish(&state, &found, closed);
        if stage != Stage::Authenticating {
            found = find(&state, &token).await?.unwrap_or(found);
        }
    }
    let mut reply = match stage {
        Stage::Form => {
            let (csrf, cookie) = cookies::csrf_token(&state, &req);
            cookies.extend(cookie);
            let answers = found.prefill();
            step_page(
                w,
                &found,
                &token,
                &csrf,
                &new_secret(),
                Step::Details,
                &answers,
                &[],
            )?
        }
        Stage::Authenticating => waiting(w, &found, &token, &here)?,
        other => outcome(w, &found, &here, other)?,
    };
    reply.cookies = cookies;
    Ok(reply.send())
}

/// A form without this browser's CSRF token (or a usable key) is refused
/// before anything in it is read.
fn refused(w: Words, signing: &Signing, token: &str) -> AppResult<HttpResponse> {
    let heading = w.t("pay.gone.refusedTitle").to_string();
    let body = w.t("pay.gone.refusedBody").to_string();
    let mut reply = say(
        w,
        signing,
        &home(token),
        StatusCode::FORBIDDEN,
        (heading, body),
    )?;
    reply.cookies = Vec::new();
    Ok(reply.send())
}

pub async fn submit(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    post: web::Form<SignPost>,
) -> HttpResponse {
    submit_step(state, req.clone(), path.into_inner(), post.into_inner())
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

async fn submit_step(
    state: State,
    req: HttpRequest,
    token: String,
    post: SignPost,
) -> AppResult<HttpResponse> {
    let here = home(&token);
    let Some(found) = find(&state, &token).await? else {
        let (w, _) = language(&state, &req, None);
        return not_found(w, &here, Vec::new());
    };
    let (w, _) = words_for(&state, &req, &found, Some(&post.lang));
    if !cookies::csrf_ok(&state, &req, Some(&post.csrf_token)).await || !usable_key(&post.key) {
        return refused(w, &found, &token);
    }
    let here = home_in(&token, &w, &found);
    if found.stage() != Stage::Form {
        return Ok(see_other(&here));
    }
    let method = found.terms.method;
    let answers = &post.answers;
    let csrf = post.csrf_token.as_str();
    if let Some(back) = Step::parse(&post.back) {
        let page = step_page(w, &found, &token, csrf, &post.key, back, answers, &[])?;
        return Ok(page.send());
    }
    let step = Step::parse(&post.step).unwrap_or(Step::Details);
    if step != Step::Consent {
        let (show, problems) = match signing::form::check_upto(answers, method, step) {
            Err(shown) => shown,
            Ok(_) => (step.next(), Vec::new()),
        };
        let page = step_page(w, &found, &token, csrf, &post.key, show, answers, &problems)?;
        return Ok(page.send());
    }
    let address = Some(super::super::client::client_address(&req));
    let consented =
        signing::consent(&state.db, state.clock, &found, answers, &post.key, address).await;
    match consented.map(|written| publish(&state, &found, written)) {
        Ok(Consented::Invalid(show, problems)) => {
            let page = step_page(w, &found, &token, csrf, &post.key, show, answers, &problems)?;
            Ok(page.send())
        }
        Ok(Consented::Stage(_)) => Ok(see_other(&here)),
        // Withdrawn or expired while the payer typed: the page says so.
        Err(AppError::Code(protocol::ErrorCode::EMandateClosed)) => Ok(see_other(&here)),
        // A term changed that the page never offered to change.
        Err(AppError::Code(protocol::ErrorCode::ActionNotAllowed)) => refused(w, &found, &token),
        Err(other) => Err(other),
    }
}

/// The simulated banking app of test mode: the payer approves or declines
/// the bank's DebiCheck request, and the account's magic number decides
/// what the bank then says.
pub async fn show_bank(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<SignQuery>,
) -> HttpResponse {
    show_bank_step(state, req.clone(), path.into_inner(), query.into_inner())
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

async fn show_bank_step(
    state: State,
    req: HttpRequest,
    token: String,
    query: SignQuery,
) -> AppResult<HttpResponse> {
    let here = req.path().to_string();
    let Some(found) = find(&state, &token).await? else {
        let (w, cookies) = language(&state, &req, query.lang.as_deref());
        return not_found(w, &here, cookies);
    };
    if found.stage() != Stage::Authenticating || found.mode != Mode::Test {
        return Ok(see_other(&home(&token)));
    }
    let (w, mut cookies) = words_for(&state, &req, &found, query.lang.as_deref());
    let (csrf, cookie) = cookies::csrf_token(&state, &req);
    cookies.extend(cookie);
    let answers = found.kept_answers();
    let t = &found.terms;
    let interval = views::interval_words(&w, t);
    let amount = rands(t.amount_cents);
    let maximum = rands(t.max_cents.unwrap_or(t.amount_cents));
    let account = views::account_words(&answers);
    let body = w.fill(
        "pay.sign.appBody",
        &[
            ("merchant", found.merchant_name.as_str()),
            ("amount", &amount),
            ("interval", &interval),
            ("maximum", &maximum),
            ("account", &account),
        ],
    );
    let heading = w.t("pay.sign.appTitle").to_string();
    let action = home_in(&token, &w, &found).replacen(&home(&token), &here, 1);
    let view = StepView {
        body,
        // Only test mode's signings reach the simulated banking app.
        simulated_note: w.t("pay.step.simulated").to_string(),
        refuse_label: w.t("pay.step.refuse").to_string(),
        action,
        csrf: &csrf,
        c: Chrome::new(w, heading.clone(), &found.merchant_name, None, &here),
        heading,
    };
    let mut reply = Reply::of(None, StatusCode::OK, render(&view)?);
    reply.cookies = cookies;
    Ok(reply.send())
}

pub async fn answer_bank(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<SignQuery>,
    post: web::Form<BankPost>,
) -> HttpResponse {
    let lang = query.into_inner().lang;
    answer_bank_step(
        state,
        req.clone(),
        path.into_inner(),
        lang,
        post.into_inner(),
    )
    .await
    .unwrap_or_else(|err| internal(&req, err))
}

async fn answer_bank_step(
    state: State,
    req: HttpRequest,
    token: String,
    lang: Option<String>,
    post: BankPost,
) -> AppResult<HttpResponse> {
    let Some(found) = find(&state, &token).await? else {
        let (w, _) = language(&state, &req, None);
        return not_found(w, &home(&token), Vec::new());
    };
    let (w, _) = words_for(&state, &req, &found, lang.as_deref());
    let here = home_in(&token, &w, &found);
    if !cookies::csrf_ok(&state, &req, Some(&post.csrf_token)).await {
        return refused(w, &found, &token);
    }
    if found.mode == Mode::Test {
        let address = Some(super::super::client::client_address(&req));
        let approve = post.answer == "approve";
        let written =
            signing::answer_bank(&state.db, state.clock, &found, approve, address).await?;
        publish(&state, &found, written);
    }
    Ok(see_other(&here))
}

/// A recurring pay page's DebiCheck tab: the terms, and a button that
/// starts the signing.
pub(super) fn page_offer(
    w: Words,
    page: &checkout::PublicPage,
    tabs: Vec<super::views::MethodTab>,
    csrf: &str,
) -> AppResult<Reply> {
    let p = &page.page;
    let here = format!("/pay/{}?method=debicheck", p.id);
    let amount = rands(p.amount_cents.unwrap_or_default());
    let interval = match p.interval {
        Some(protocol::PageInterval::Annually) => w.t("pay.mandate.intervals.annually"),
        _ => w.t("pay.mandate.intervals.monthly"),
    };
    let body = w.fill(
        "pay.sign.fromPage",
        &[("amount", &amount), ("interval", interval)],
    );
    let title = format!(
        "{} · {}",
        p.title,
        w.fill("pay.title", &[("merchant", &page.merchant_name)])
    );
    let view = views::OfferView {
        page_title: &p.title,
        description: &p.description,
        amount,
        tabs,
        body,
        action: format!("/pay/{}/debicheck", p.id),
        csrf,
        test_mode: p.mode == Mode::Test,
        c: Chrome::new(w, title, &page.merchant_name, Some(p), &here),
    };
    Ok(Reply::of(Some(p), StatusCode::OK, render(&view)?))
}

/// A recurring pay page's DebiCheck: a signing starts with the page's terms
/// and the payer continues on the signing steps.
pub async fn start_from_page(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    post: web::Form<BankPost>,
) -> HttpResponse {
    start_page_signing(state, req.clone(), path.into_inner(), post.into_inner())
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

async fn start_page_signing(
    state: State,
    req: HttpRequest,
    page_id: String,
    post: BankPost,
) -> AppResult<HttpResponse> {
    let here = format!("/pay/{page_id}");
    let (w, _) = language(&state, &req, None);
    let Some(page) = checkout::open_page(&state.db, state.clock, &page_id, false).await? else {
        return not_found(w, &here, Vec::new());
    };
    if !super::offers_debicheck(&page) || super::closed_code(page.state).is_some() {
        return Ok(see_other(&here));
    }
    if !cookies::csrf_ok(&state, &req, Some(&post.csrf_token)).await {
        return super::refused(w, &page, &here);
    }
    let address = Some(super::super::client::client_address(&req));
    let written = signing::start_from_page(&state.db, &page, w.language(), address).await?;
    if let Some(seq) = written.seq {
        state.merchants.advance(&checkout::stream(&page), seq);
    }
    Ok(see_other(&home(&written.value)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Language;

    #[test]
    fn every_interval_and_method_has_words_in_both_languages() {
        for language in [Language::En, Language::Afr] {
            let w = Words::of(language);
            for key in [
                "pay.mandate.intervals.weekly",
                "pay.mandate.intervals.fortnightly",
                "pay.mandate.intervals.monthly",
                "pay.mandate.intervals.quarterly",
                "pay.mandate.intervals.biannually",
                "pay.mandate.intervals.annually",
                "pay.mandate.methods.debicheck",
                "pay.mandate.methods.registered_mandate",
            ] {
                assert_ne!(w.t(key), key, "{key} in {language:?}");
            }
        }
    }
}
