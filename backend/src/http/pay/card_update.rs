//! The payer's update-card page, `/card/{token}`: the link mailed when a
//! scheduled card payment paused or a card is about to expire. Built like
//! `/pay/{id}`: server-rendered, no JavaScript, the same CSRF check and
//! headers, in the payer's language unless they pick another. The card's
//! number and CVV are checked and exchanged for a token in the domain and
//! never echoed back, logged or stored.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use protocol::{CardScheduleStatus, Language, Mode, PageInterval};
use serde::Deserialize;

use super::views::Chrome;
use super::words::Words;
use super::{
    LangQuery, Notice, Reply, failure_code, internal, language, notice, render, see_other,
};
use crate::state::State;
use paydesk::domain::commerce::acquirer::brand_name;
use paydesk::domain::commerce::card_updates::{self, UpdateLink, Updated};
use paydesk::domain::commerce::receipt::rands;
use paydesk::error::AppResult;

/// Where a saved card lands (post/redirect/get): the token is used up.
pub const SAVED_PATH: &str = "/card/saved";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardPost {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    card_number: String,
    #[serde(default)]
    expiry: String,
    #[serde(default)]
    cvv: String,
}

#[derive(Template)]
#[template(path = "pay/card_update.html")]
struct CardUpdateView<'a> {
    c: Chrome,
    heading: String,
    summary: String,
    paused_note: Option<String>,
    banner: Option<String>,
    action: String,
    csrf: &'a str,
    expiry: &'a str,
    errors: Vec<(&'static str, String)>,
    test_mode: bool,
}

impl CardUpdateView<'_> {
    fn error(&self, field: &str) -> Option<&str> {
        self.errors
            .iter()
            .find(|(name, _)| *name == field)
            .map(|(_, message)| message.as_str())
    }
}

/// What the form shows besides the card: a problem, and answers kept.
struct FormState<'a> {
    csrf: &'a str,
    expiry: &'a str,
    errors: Vec<(&'static str, String)>,
    banner: Option<String>,
}

fn render_form(w: Words, link: &UpdateLink, here: &str, form: FormState) -> AppResult<String> {
    let card = &link.card;
    let schedule = card.schedule.as_ref();
    let interval = match schedule.map(|s| s.interval) {
        Some(PageInterval::Annually) => w.t("pay.annually"),
        _ => w.t("pay.monthly"),
    };
    let amount = schedule.map(|s| rands(s.amount_cents)).unwrap_or_default();
    let reference = schedule.map(|s| s.reference.as_str()).unwrap_or_default();
    let summary = w.fill(
        "pay.cardUpdate.summary",
        &[
            ("brand", brand_name(card.brand)),
            ("last_four", &card.last_four),
            ("amount", &amount),
            ("interval", interval),
            ("merchant", &link.merchant_name),
            ("reference", reference),
        ],
    );
    let paused = schedule.is_some_and(|s| s.status == CardScheduleStatus::Paused);
    let heading = w.t("pay.cardUpdate.title").to_string();
    let view = CardUpdateView {
        heading: heading.clone(),
        summary,
        paused_note: paused.then(|| w.t("pay.cardUpdate.paused").to_string()),
        banner: form.banner,
        // The answer comes back in the language the form was read in.
        action: format!("{here}?lang={}", w.language().as_str()),
        csrf: form.csrf,
        expiry: form.expiry,
        errors: form.errors,
        test_mode: link.mode == Mode::Test,
        c: Chrome::new(w, heading, &link.merchant_name, None, here),
    };
    render(&view)
}

/// A used, expired or unknown link: one plain answer for all three, so a
/// guess learns nothing.
fn gone(
    w: Words,
    here: &str,
    cookies: Vec<actix_web::cookie::Cookie<'static>>,
) -> AppResult<HttpResponse> {
    let text = Notice {
        status: StatusCode::GONE,
        heading: "pay.cardUpdate.goneTitle",
        body: "pay.cardUpdate.goneBody",
        back: None,
    };
    notice(w, "", None, here, text, cookies)
}

async fn show_page(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<LangQuery>,
) -> AppResult<HttpResponse> {
    let token = path.into_inner();
    let here = req.path().to_string();
    let link = card_updates::open_link(&state.db, state.clock, &token).await?;
    let Some(link) = link else {
        let (w, cookies) = language(&state, &req, query.lang.as_deref());
        return gone(w, &here, cookies);
    };
    let (w, mut cookies) = match query.lang.as_deref() {
        Some(_) => language(&state, &req, query.lang.as_deref()),
        None => (Words::of(link.language), Vec::new()),
    };
    let (csrf, cookie) = super::cookies::csrf_token(&state, &req);
    cookies.extend(cookie);
    let form = FormState {
        csrf: &csrf,
        expiry: "",
        errors: Vec::new(),
        banner: None,
    };
    let mut reply = Reply::of(None, StatusCode::OK, render_form(w, &link, &here, form)?);
    reply.cookies = cookies;
    Ok(reply.send())
}

async fn submit_page(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<LangQuery>,
    post: web::Form<CardPost>,
) -> AppResult<HttpResponse> {
    let token = path.into_inner();
    let here = req.path().to_string();
    let Some(link) = card_updates::open_link(&state.db, state.clock, &token).await? else {
        let (w, _) = language(&state, &req, query.lang.as_deref());
        return gone(w, &here, Vec::new());
    };
    let w = Words::of(
        query
            .lang
            .as_deref()
            .and_then(Language::parse)
            .unwrap_or(link.language),
    );
    let post = post.into_inner();
    if !super::cookies::csrf_ok(&state, &req, Some(&post.csrf_token)).await {
        let text = Notice {
            status: StatusCode::FORBIDDEN,
            heading: "pay.gone.refusedTitle",
            body: "pay.gone.refusedBody",
            back: Some(here.clone()),
        };
        return notice(w, &link.merchant_name, None, &here, text, Vec::new());
    }
    let address = Some(super::super::client::client_address(&req));
    let card = (
        post.card_number.as_str(),
        post.expiry.as_str(),
        post.cvv.as_str(),
    );
    let written = card_updates::replace_card(&state.db, &link, &token, card, address).await?;
    if let Some(seq) = written.seq {
        state.merchants.advance(&link.stream(), seq);
    }
    let expiry = post.expiry.trim();
    let (status, form) = match written.value {
        Updated::Replaced(_) => {
            let lang = w.language().as_str();
            return Ok(see_other(&format!("{SAVED_PATH}?lang={lang}")));
        }
        Updated::Gone => return gone(w, &here, Vec::new()),
        Updated::Invalid(problems) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            FormState {
                csrf: &post.csrf_token,
                expiry,
                errors: problems
                    .into_iter()
                    .map(|(field, code)| (field, w.error(code)))
                    .collect(),
                banner: Some(w.t("pay.problem").to_string()),
            },
        ),
        Updated::Refused(failure) => (
            StatusCode::PAYMENT_REQUIRED,
            FormState {
                csrf: &post.csrf_token,
                expiry,
                errors: Vec::new(),
                banner: Some(format!(
                    "{} {}",
                    w.error(failure_code(failure)),
                    w.t("pay.cardUpdate.refused")
                )),
            },
        ),
    };
    let html = render_form(w, &link, &here, form)?;
    Ok(Reply::of(None, status, html).send())
}

async fn saved_page(
    state: State,
    req: HttpRequest,
    query: web::Query<LangQuery>,
) -> AppResult<HttpResponse> {
    let (w, cookies) = language(&state, &req, query.lang.as_deref());
    let text = Notice {
        status: StatusCode::OK,
        heading: "pay.cardUpdate.doneTitle",
        body: "pay.cardUpdate.doneBody",
        back: None,
    };
    notice(w, "", None, req.path(), text, cookies)
}

pub async fn show(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<LangQuery>,
) -> HttpResponse {
    show_page(state, req.clone(), path, query)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

pub async fn submit(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<LangQuery>,
    post: web::Form<CardPost>,
) -> HttpResponse {
    submit_page(state, req.clone(), path, query, post)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

pub async fn saved(state: State, req: HttpRequest, query: web::Query<LangQuery>) -> HttpResponse {
    saved_page(state, req.clone(), query)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}
