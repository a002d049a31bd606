//! The payer's e-mandate link, `/mandate/{token}`: the first visit records
//! the request opened (the merchant's list shows it live), and the page
//! states the mandate's terms in plain words, in the request's language
//! unless the payer picks another.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use protocol::EMandateState;

use super::views::{Chrome, NoticeView};
use super::words::Words;
use super::{LangQuery, Reply, internal, language, not_found, render};
use crate::state::State;
use paydesk::domain::commerce::receipt::rands;
use paydesk::domain::e_mandate_payers;
use paydesk::error::AppResult;
use paydesk::store::sql::wire_name;

pub async fn show(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<LangQuery>,
) -> HttpResponse {
    show_request(state, req.clone(), path, query)
        .await
        .unwrap_or_else(|err| internal(&req, err))
}

async fn show_request(
    state: State,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<LangQuery>,
) -> AppResult<HttpResponse> {
    let token = path.into_inner();
    let here = req.path().to_string();
    // Tokens are URL-safe base64 of 32 bytes; anything else finds nothing.
    let well_formed = token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let address = Some(super::super::auth::client_address(&req));
    let found = if well_formed {
        e_mandate_payers::open(&state.db, state.clock, &token, address).await?
    } else {
        None
    };
    let Some(written) = found else {
        let (w, cookies) = language(&state, &req, query.lang.as_deref());
        return not_found(w, &here, cookies);
    };
    if let Some(seq) = written.seq {
        state.merchants.advance(&written.value.stream(), seq);
    }
    let seen = written.value;
    let (w, cookies) = match query.lang.as_deref() {
        Some(_) => language(&state, &req, query.lang.as_deref()),
        None => (Words::of(seen.request.language), Vec::new()),
    };
    let r = &seen.request;
    let merchant = seen.merchant_name.as_str();
    let amount = rands(r.amount_cents);
    let maximum = r.max_cents.map(rands).unwrap_or_default();
    let interval = w
        .t(&format!("pay.mandate.intervals.{}", wire_name(&r.interval)))
        .to_string();
    let method = w
        .t(&format!("pay.mandate.methods.{}", r.method.as_str()))
        .to_string();
    let vars = [
        ("merchant", merchant),
        ("amount", amount.as_str()),
        ("maximum", maximum.as_str()),
        ("interval", interval.as_str()),
        ("start", r.start_date.as_str()),
        ("method", method.as_str()),
        ("last_day", r.expires_on.as_str()),
    ];
    let (status, heading, body) = match r.state {
        EMandateState::Sent | EMandateState::Opened => {
            let mut body = w.fill("pay.mandate.terms", &vars);
            if r.max_cents.is_some() {
                body.push(' ');
                body.push_str(&w.fill("pay.mandate.maximum", &vars));
            }
            body.push(' ');
            body.push_str(&w.fill("pay.mandate.notYet", &vars));
            (StatusCode::OK, w.fill("pay.mandate.title", &vars), body)
        }
        EMandateState::Completed => (
            StatusCode::OK,
            w.fill("pay.mandate.doneTitle", &vars),
            w.fill("pay.mandate.doneBody", &vars),
        ),
        EMandateState::Declined
        | EMandateState::NoReply
        | EMandateState::Expired
        | EMandateState::Cancelled => (
            StatusCode::GONE,
            w.fill("pay.mandate.closedTitle", &vars),
            w.fill("pay.mandate.closedBody", &vars),
        ),
    };
    let view = NoticeView {
        c: Chrome::new(w, heading.clone(), merchant, None, &here),
        heading,
        body,
        back: None,
    };
    let mut reply = Reply::of(None, status, render(&view)?);
    reply.cookies = cookies;
    Ok(reply.send())
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
