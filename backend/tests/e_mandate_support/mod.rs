//! The payer's pages of an e-mandate request, as a browser takes them:
//! the merchant's request, the mailed link, the signing steps and the
//! simulated banking app's answer, and the merchant's reads of requests and
//! mandates. Shared by the signing tests and the races between the merchant
//! and the payer.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use crate::common::{Browser, Socket, TestApp, committed_id};
use protocol::*;

/// A valid South African ID number (1 January 1980, Luhn digit 7).
pub(crate) const ID_NUMBER: &str = "8001015009087";

pub(crate) fn request_input(
    email: &str,
    method: PaymentMethod,
    language: Language,
) -> EMandateRequestInput {
    EMandateRequestInput {
        customer_id: None,
        name: "Lerato Dlamini".into(),
        email: email.into(),
        cellphone: "082 555 0101".into(),
        language,
        method,
        amount_cents: 50_000,
        max_cents: Some(60_000),
        interval: Interval::Monthly,
        // The calendar is pinned to Monday 2 March 2026.
        start_date: "2026-04-01".into(),
        payer_may_change: Vec::new(),
    }
}

pub(crate) async fn request(socket: &mut Socket, email: &str, method: PaymentMethod) -> String {
    committed_id(
        socket
            .command(
                &format!("req-{email}"),
                Command::RequestEMandate {
                    input: Box::new(request_input(email, method, Language::En)),
                },
            )
            .await,
    )
}

/// The value of the hidden input `name` in a page.
pub(crate) fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name} in {html}"))
        + marker.len();
    html[start..].chars().take_while(|c| *c != '"').collect()
}

/// Where a browser lands: a 303 (post/redirect/get) is followed once.
pub(crate) async fn land(
    app: &TestApp,
    browser: &Browser,
    response: reqwest::Response,
) -> (u16, String, String) {
    let mut response = response;
    if response.status() == 303 {
        let location = response.headers()["location"].to_str().unwrap().to_string();
        response = browser.http.get(app.url(&location)).send().await.unwrap();
    }
    let path = response.url().path().to_string();
    let status = response.status().as_u16();
    (status, path, response.text().await.unwrap())
}

/// A payer's browser on the signing steps.
pub(crate) struct Payer<'a> {
    pub(crate) app: &'a TestApp,
    /// Words the consent step must show.
    pub(crate) terms: &'static [&'static str],
    pub(crate) browser: Browser,
    pub(crate) link: String,
    pub(crate) csrf: String,
    pub(crate) key: String,
}

pub(crate) async fn open_link<'a>(app: &'a TestApp, email: &str) -> Payer<'a> {
    let link = app.link_in_mail(email, "/mandate/").await;
    let browser = app.browser();
    let page = browser.http.get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("Step 1 of 3"), "{html}");
    assert!(!html.contains("<script"));
    assert!(html.len() <= 30 * 1024, "{} bytes", html.len());
    Payer {
        csrf: hidden(&html, "csrfToken"),
        key: hidden(&html, "key"),
        app,
        terms: &[
            "R\u{a0}500,00",
            "R\u{a0}600,00",
            "every month",
            "1 April 2026",
            "Payment tracking",
            "Used: if a collection fails, your bank may try again for up to 10 days",
            "within 2 minutes of signing",
        ],
        browser,
        link,
    }
}

pub(crate) fn details<'a>(kind: &'a str, id_number: &'a str) -> Vec<(&'static str, &'a str)> {
    vec![
        ("payerKind", kind),
        ("name", "Lerato Dlamini"),
        ("idNumber", id_number),
        ("cellphone", "082 555 0101"),
        ("email", "lerato.payer@example.co.za"),
    ]
}

pub(crate) fn bank(account: &str) -> Vec<(&'static str, &str)> {
    vec![
        ("bank", "fnb"),
        ("branchCode", "250655"),
        ("accountType", "current"),
        ("accountNumber", account),
    ]
}

impl Payer<'_> {
    pub(crate) async fn post(&self, step: &str, answers: &[(&str, &str)]) -> (u16, String) {
        let mut form = vec![
            ("csrfToken", self.csrf.as_str()),
            ("key", self.key.as_str()),
            ("lang", "en"),
            ("step", step),
        ];
        form.extend_from_slice(answers);
        let response = self
            .browser
            .http
            .post(&self.link)
            .form(&form)
            .send()
            .await
            .unwrap();
        let (status, _, html) = land(self.app, &self.browser, response).await;
        (status, html)
    }

    /// Every step with these answers, up to the page after consenting.
    pub(crate) async fn sign(&self, account: &str) -> (u16, String) {
        let mut answers = details("person", ID_NUMBER);
        let (status, html) = self.post("details", &answers).await;
        assert_eq!(status, 200, "{html}");
        assert!(html.contains("name=\"branchCode\""), "{html}");
        answers.extend(bank(account));
        let (status, html) = self.post("bank", &answers).await;
        assert_eq!(status, 200, "{html}");
        assert!(html.contains("Check and sign"), "{html}");
        // The terms in plain words, as the merchant set them.
        let last_four = format!("FNB ···{}", &account[account.len() - 4..]);
        for words in self.terms.iter().copied().chain([last_four.as_str()]) {
            assert!(html.contains(words), "{words}: {html}");
        }
        answers.push(("consent", "yes"));
        self.post("consent", &answers).await
    }

    /// The simulated banking app's answer.
    pub(crate) async fn answer_bank(&self, answer: &str) -> String {
        let app_page = self
            .browser
            .http
            .get(format!("{}/bank", self.link))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let csrf = hidden(&app_page, "csrfToken");
        let response = self
            .browser
            .http
            .post(format!("{}/bank", self.link))
            .form(&[("csrfToken", csrf.as_str()), ("answer", answer)])
            .send()
            .await
            .unwrap();
        let (status, _, html) = land(self.app, &self.browser, response).await;
        assert_eq!(status, 200, "{html}");
        html
    }
}

pub(crate) async fn requests(socket: &mut Socket) -> Vec<EMandateRequest> {
    match socket
        .query(
            "list",
            Query::ListEMandateRequests {
                cursor: None,
                limit: None,
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::EMandateRequestPage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

pub(crate) async fn mandates(socket: &mut Socket) -> Vec<Mandate> {
    match socket
        .query(
            "mandates",
            Query::ListMandates {
                filter: MandateFilter::default(),
                sort: SortOrder::default(),
                cursor: None,
                limit: None,
            },
        )
        .await
    {
        ServerFrame::Reply {
            ok: Some(ReplyBody::MandatePage { items, .. }),
            ..
        } => items,
        other => panic!("{other:?}"),
    }
}

/// The delta that settles the request, as a watching tab hears it.
pub(crate) async fn settled(watcher: &mut Socket, state: EMandateState) -> Vec<Change> {
    let frame = watcher
        .next_matching(|f| {
            matches!(f, ServerFrame::Delta { changes, .. }
                if changes.iter().any(|c| matches!(c, Change::EMandateRequestUpserted { request } if request.state == state)))
        })
        .await;
    let ServerFrame::Delta { changes, .. } = frame else {
        unreachable!()
    };
    changes
}
