//! Text no record can hold, sent to every way in: a NUL byte, a lone
//! surrogate (the JSON escape `\ud800`, or its UTF-8 form in a form body),
//! bytes that are not UTF-8, and text far past a field's limit. Each path
//! answers with its own error (a failed sign-in stays `CredentialsSignin`,
//! a field error names the field), never a 5xx, writes nothing, and no
//! database fault reaches the log, on SQLite and PostgreSQL alike.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support::shop_token;
use crate::common;
use crate::import_support::{HEADER, confirm, upload};
use crate::odd_input_support::*;

use common::logs;
use common::{Browser, Database, TestApp, committed_id, customer_input, error_of};
use protocol::*;
use serde_json::{Value, json};

const OWNER: &str = "owner@example.co.za";

async fn sign_in_sign_up_and_resets(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    app.merchant(OWNER).await;
    let rows = Rows::of(
        &app,
        &[
            "users",
            "merchants",
            "sessions",
            "signin_failures",
            "mail_outbox",
            "mail_quotas",
            "history_entries",
        ],
    )
    .await;
    let before = rows.counts().await;
    let browser = app.browser();
    for odd in ODD {
        let csrf = browser.csrf().await;
        let sign_in = [
            ("csrfToken", csrf.as_str()),
            ("callbackUrl", "/"),
            ("json", "true"),
            ("email", OWNER),
            ("password", "karoo-sunset-41"),
        ];
        for field in ["email", "password"] {
            let body = form_with(&sign_in, field, &odd.form(OWNER));
            let path = "/api/auth/callback/credentials";
            let (status, json) =
                status_and_json(post(&browser, path, FORM, body.into()).await).await;
            assert_eq!(status, 401, "{odd:?} {field}: {json}");
            assert_eq!(json, json!({"url": "/auth/login?error=CredentialsSignin"}));
        }
        // A JSON body too: its string escapes can name a lone surrogate.
        let fields = json!({"csrfToken": csrf, "callbackUrl": "/", "json": "true",
            "password": "karoo-sunset-41"});
        let body = json_with(fields, "email", &odd.json(OWNER));
        let path = "/api/auth/callback/credentials";
        let (status, json) = status_and_json(post(&browser, path, JSON, body).await).await;
        assert_eq!(status, 401, "{odd:?} JSON: {json}");
        assert_eq!(json, json!({"url": "/auth/login?error=CredentialsSignin"}));

        let sign_up = json!({"csrfToken": csrf, "name": "Thandi Nkosi", "email": "new@example.co.za",
            "password": "karoo-sunset-41", "businessName": "Karoo Gym"});
        for (field, base) in [
            ("name", "Thandi"),
            ("email", "new@example.co.za"),
            ("businessName", "Gym"),
        ] {
            let body = json_with(sign_up.clone(), field, &odd.json(base));
            let answer =
                status_and_json(post(&browser, "/api/auth/signup", JSON, body).await).await;
            assert_eq!(answer, (400, field_error(odd, field)), "{odd:?} {field}");
        }

        let forgot = json!({"csrfToken": csrf, "email": OWNER});
        let body = json_with(forgot, "email", &odd.json(OWNER));
        let answer = status_and_json(post(&browser, "/api/auth/forgot", JSON, body).await).await;
        assert_eq!(answer, (400, field_error(odd, "email")), "{odd:?} forgot");

        let reset = [
            ("csrfToken", csrf.as_str()),
            ("token", "x"),
            ("password", "karoo"),
        ];
        let body = form_with(&reset, "password", &odd.form("karoo-sunset-42"));
        let answer =
            status_and_json(post(&browser, "/api/auth/reset", FORM, body.into()).await).await;
        assert_eq!(answer, (400, field_error(odd, "password")), "{odd:?} reset");
        let reset = [
            ("csrfToken", csrf.as_str()),
            ("password", "karoo-sunset-42"),
        ];
        let body = form_with(&reset, "token", &odd.form("abc"));
        let (status, json) =
            status_and_json(post(&browser, "/api/auth/reset", FORM, body.into()).await).await;
        assert_eq!(
            (status, &json["error"]["code"]),
            (400, &json!("invalid_token")),
            "{odd:?}"
        );
    }
    assert_eq!(rows.counts().await, before);
    no_database_faults(logs);
}

async fn invites(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let (mut socket, _) = owner.live().await;
    let invite = Command::InviteMember {
        email: "member@example.co.za".into(),
        role: Role::Viewer,
        role_id: None,
    };
    committed_id(socket.command("invite", invite).await);
    let link = app
        .link_in_mail("member@example.co.za", "/account/teams/invite/")
        .await;
    let token = link.rsplit('/').next().unwrap().to_string();
    let rows = Rows::of(
        &app,
        &[
            "users",
            "memberships",
            "sessions",
            "invites WHERE accepted_at IS NOT NULL",
            "events",
        ],
    )
    .await;
    let stranger = app.browser();
    let signed_in = app.merchant("someone@example.co.za").await;
    let before = rows.counts().await;
    for odd in ODD {
        let csrf = stranger.csrf().await;
        let join = json!({"csrfToken": csrf, "token": token, "name": "Thandi Dube",
            "password": "karoo-sunset-41"});
        for field in ["name", "password"] {
            let body = json_with(join.clone(), field, &odd.json("Thandi"));
            let answer =
                status_and_json(post(&stranger, "/api/auth/invite/signup", JSON, body).await).await;
            assert_eq!(answer, (400, field_error(odd, field)), "{odd:?} {field}");
        }
        let invalid = (400, json!({"error": {"code": "invite_invalid"}}));
        let body = json_with(join.clone(), "token", &odd.json(&token));
        let answer =
            status_and_json(post(&stranger, "/api/auth/invite/signup", JSON, body).await).await;
        assert_eq!(answer, invalid, "{odd:?} sign-up token");
        let body = json_with(json!({"csrfToken": csrf}), "token", &odd.json(&token));
        let answer = status_and_json(post(&stranger, "/api/auth/invite", JSON, body).await).await;
        assert_eq!(answer, invalid, "{odd:?} details");
        let csrf = signed_in.csrf().await;
        let body = json_with(json!({"csrfToken": csrf}), "token", &odd.json(&token));
        let answer =
            status_and_json(post(&signed_in, "/api/auth/invite/accept", JSON, body).await).await;
        assert_eq!(answer, invalid, "{odd:?} accept");
    }
    assert_eq!(rows.counts().await, before);
    no_database_faults(logs);
}

fn page_input(kind: PaymentKind) -> PayPageInput {
    PayPageInput {
        title: "Yoga class".into(),
        description: "Classes at the Karoo studio.".into(),
        amount_mode: AmountMode::Fixed,
        amount_cents: Some(15_000),
        min_cents: None,
        max_cents: None,
        kind,
        interval: (kind == PaymentKind::Recurring).then_some(PageInterval::Monthly),
        methods: vec![PaymentMethod::Card],
        expires_on: None,
        max_uses: None,
        reference: "YOGA-1".into(),
        success_url: None,
        colour: "#1e3a8a".into(),
    }
}

/// Posts `body` to a payer's page and expects the form again with `odd`'s message.
async fn refused_form(browser: &Browser, url: &str, body: String, odd: Odd, what: &str) {
    let response = browser
        .http
        .post(url)
        .header("content-type", FORM)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let html = response.text().await.unwrap();
    assert_eq!(status, 422, "{odd:?} {what}: {html}");
    assert!(html.contains(odd.message()), "{odd:?} {what}: {html}");
}

async fn payer_pages(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let create = |kind| Command::CreatePayPage {
        input: Box::new(page_input(kind)),
    };
    let once = committed_id(tab.command("once", create(PaymentKind::Once)).await);
    let recurring = committed_id(
        tab.command("recurring", create(PaymentKind::Recurring))
            .await,
    );

    // A card on file, and a link for its payer to replace it.
    let payer = app.browser();
    let html = html_of(&payer, &app.url(&format!("/pay/{recurring}?method=card"))).await;
    let (csrf, attempt) = (hidden(&html, "csrfToken"), hidden(&html, "attempt"));
    let card_form = [
        ("csrfToken", csrf.as_str()),
        ("attempt", attempt.as_str()),
        ("method", "card"),
        ("name", "Lerato Dlamini"),
        ("email", "lerato@example.co.za"),
        ("cardNumber", "4242424242424242"),
        ("expiry", "12/29"),
        ("cvv", "123"),
    ];
    let paid = payer
        .post_form(&format!("/pay/{recurring}"), &card_form)
        .await;
    assert_eq!(paid.status(), 303);
    let cards = tab
        .query(
            "cards",
            Query::ListCards {
                customer_id: None,
                cursor: None,
                limit: None,
            },
        )
        .await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::CardPage { items, .. }),
        ..
    } = cards
    else {
        panic!("{cards:?}");
    };
    let card_link = paydesk::ids::new_secret();
    let (_, merchant_id) = app.owner_ids(OWNER).await;
    let store = paydesk::store::Db::connect(&app.database_url)
        .await
        .unwrap();
    let mut tx = store.begin_write().await.unwrap();
    let now = paydesk::ids::now_ms();
    let hash = paydesk::ids::hash_secret(&card_link);
    paydesk::store::cards::insert_update_link(
        &mut tx,
        &merchant_id,
        Mode::Test,
        &items[0].id,
        &hash,
        now + 86_400_000,
        now,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();

    // A payer's link to sign a mandate.
    let request = EMandateRequestInput {
        customer_id: None,
        name: "Lerato Dlamini".into(),
        email: "signer@example.co.za".into(),
        cellphone: "082 555 0101".into(),
        language: Language::En,
        method: PaymentMethod::Debicheck,
        amount_cents: 50_000,
        max_cents: Some(60_000),
        interval: Interval::Monthly,
        start_date: "2026-04-01".into(),
        payer_may_change: Vec::new(),
    };
    committed_id(
        tab.command(
            "sign",
            Command::RequestEMandate {
                input: Box::new(request),
            },
        )
        .await,
    );
    let mandate_link = app.link_in_mail("signer@example.co.za", "/mandate/").await;
    let card_page = app.url(&format!("/card/{card_link}"));
    // Each page seen once: what showing it keeps is kept before counting.
    for url in [&mandate_link, &card_page] {
        html_of(&app.browser(), url).await;
    }

    let rows = Rows::of(
        &app,
        &[
            "events",
            "orders",
            "pay_attempts",
            "customers",
            "cards",
            "mandates",
            "bank_accounts",
            "e_mandate_signings",
            "card_update_links WHERE used_at IS NOT NULL",
        ],
    )
    .await;
    let before = rows.counts().await;
    let browser = app.browser();
    for odd in ODD {
        let url = app.url(&format!("/pay/{once}"));
        let html = html_of(&browser, &format!("{url}?method=card")).await;
        let (csrf, attempt) = (hidden(&html, "csrfToken"), hidden(&html, "attempt"));
        let mut form = card_form;
        form[0].1 = csrf.as_str();
        form[1].1 = attempt.as_str();
        for (field, base) in [
            ("name", "Lerato"),
            ("email", "lerato@example.co.za"),
            ("cardNumber", "4242"),
        ] {
            let body = form_with(&form, field, &odd.form(base));
            refused_form(&browser, &url, body, odd, &format!("pay page {field}")).await;
        }

        let html = html_of(&browser, &mandate_link).await;
        let (csrf, key) = (hidden(&html, "csrfToken"), hidden(&html, "key"));
        let mut answers = vec![
            ("csrfToken", csrf.as_str()),
            ("key", key.as_str()),
            ("lang", "en"),
            ("step", "details"),
            ("payerKind", "person"),
            ("name", "Lerato Dlamini"),
            ("idNumber", "8001015009087"),
            ("cellphone", "082 555 0101"),
            ("email", "lerato.payer@example.co.za"),
        ];
        let body = form_with(&answers, "name", &odd.form("Lerato"));
        refused_form(&browser, &mandate_link, body, odd, "signing details").await;
        answers[3].1 = "bank";
        answers.extend([
            ("bank", "fnb"),
            ("branchCode", "250655"),
            ("accountType", "current"),
        ]);
        let body = form_with(&answers, "accountNumber", &odd.form("4100000001"));
        refused_form(&browser, &mandate_link, body, odd, "signing bank").await;

        let url = card_page.clone();
        let html = html_of(&browser, &url).await;
        let csrf = hidden(&html, "csrfToken");
        let form = [
            ("csrfToken", csrf.as_str()),
            ("cardNumber", "4000000000000077"),
            ("expiry", "12/30"),
            ("cvv", "123"),
        ];
        for (field, base) in [("cardNumber", "4000000000000077"), ("expiry", "12/30")] {
            let body = form_with(&form, field, &odd.form(base));
            refused_form(&browser, &url, body, odd, &format!("card page {field}")).await;
        }
    }
    assert_eq!(rows.counts().await, before);
    no_database_faults(logs);
}

async fn machine_api(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let secret = shop_token(&mut tab).await;
    let rows = Rows::of(&app, &["customers", "events", "command_results"]).await;
    let before = rows.counts().await;
    let http = reqwest::Client::new();
    let refused = |answer: (u16, Value), field: &str, odd: Odd| {
        assert_eq!(answer.0, 422, "{odd:?} {field}: {}", answer.1);
        let fields = &answer.1["error"]["fields"];
        assert_eq!(answer.1["error"]["code"], "invalid_input", "{}", answer.1);
        assert_eq!(fields[0]["field"], field, "{}", answer.1);
        assert_eq!(fields[0]["code"], odd.wire(), "{}", answer.1);
    };
    for (n, odd) in ODD.into_iter().enumerate() {
        for field in ["name", "email"] {
            let body = json_with(
                json!({"name": "Thandi", "email": "t@example.co.za"}),
                field,
                &odd.json("t@example.co.za"),
            );
            let response = http
                .post(app.url("/api/v1/customers"))
                .bearer_auth(&secret)
                .header("content-type", JSON)
                .header("idempotency-key", format!("odd-{n}-{field}"))
                .body(body)
                .send()
                .await
                .unwrap();
            refused(status_and_json(response).await, field, odd);
        }
        let search = odd.form("thandi");
        let response = http
            .get(app.url(&format!("/api/v1/customers?search={search}")))
            .bearer_auth(&secret)
            .send()
            .await
            .unwrap();
        refused(status_and_json(response).await, "search", odd);
        let response = http
            .get(app.url(&format!("/api/v1/customers/cus_{}", odd.form("x"))))
            .bearer_auth(&secret)
            .send()
            .await
            .unwrap();
        let (status, json) = status_and_json(response).await;
        assert!(
            (400..500).contains(&status),
            "{odd:?} path: {status} {json}"
        );
    }
    assert_eq!(rows.counts().await, before);
    no_database_faults(logs);
}

/// A command frame whose customer name holds bytes that are no UTF-8.
fn raw_frame(odd: Odd) -> Vec<u8> {
    let frame = ClientFrame::Command {
        id: "raw".into(),
        command: Command::CreateCustomer {
            input: customer_input(PLACE, "t@example.co.za"),
        },
    };
    let bytes = protocol::encode(&frame).unwrap();
    let at = bytes
        .windows(PLACE.len())
        .position(|w| w == PLACE.as_bytes())
        .unwrap();
    // The same length, so the frame's own lengths still hold.
    let odd: &[u8] = match odd {
        Odd::LoneSurrogate => b"\xed\xa0\x80xx",
        _ => b"\xe9xxxx",
    };
    [&bytes[..at], odd, &bytes[at + PLACE.len()..]].concat()
}

async fn socket_frames(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let rows = Rows::of(
        &app,
        &[
            "customers",
            "events",
            "command_results",
            "webhook_endpoints",
        ],
    )
    .await;
    let before = rows.counts().await;
    let refused = |frame: ServerFrame, field: &str, odd: Odd| {
        let error = error_of(frame);
        assert_eq!(error.code, ErrorCode::InvalidInput, "{odd:?} {field}");
        assert!(
            error
                .fields
                .iter()
                .any(|f| f.field == field && f.code == odd.code()),
            "{odd:?} {field}: {error:?}"
        );
    };
    for (n, odd) in ODD.into_iter().enumerate() {
        let Some(text) = odd.text("thandi@example.co.za") else {
            let mut socket = owner.open(Mode::Test).await;
            socket.send_raw(raw_frame(odd)).await;
            assert_eq!(socket.closed().await, Some(1007), "{odd:?}");
            continue;
        };
        let create = Command::CreateCustomer {
            input: customer_input("Thandi", &text),
        };
        refused(
            tab.command(&format!("create-{n}"), create).await,
            "email",
            odd,
        );
        let archive = Command::ArchiveCustomer {
            customer_id: text.clone(),
        };
        refused(
            tab.command(&format!("archive-{n}"), archive).await,
            "customerId",
            odd,
        );
        let endpoint = Command::CreateWebhookEndpoint {
            url: "https://example.co.za/hooks".into(),
            description: text.clone(),
            event_types: Vec::new(),
        };
        refused(
            tab.command(&format!("hook-{n}"), endpoint).await,
            "description",
            odd,
        );
        let search = Query::ListCustomers {
            search: Some(text.clone()),
            status: CustomerStatus::All,
            cursor: None,
            limit: None,
        };
        refused(
            tab.query(&format!("search-{n}"), search).await,
            "search",
            odd,
        );
        let get = Query::GetCustomer {
            customer_id: text.clone(),
        };
        refused(tab.query(&format!("get-{n}"), get).await, "customerId", odd);
        // A command id no record could hold is no id; the reply names it
        // by its first 64 characters.
        let command = Command::ArchiveCustomer {
            customer_id: "cus_1".into(),
        };
        tab.send(&ClientFrame::Command {
            id: text.clone(),
            command,
        })
        .await;
        let short: String = text.chars().take(64).collect();
        let reply = tab
            .next_matching(|f| matches!(f, ServerFrame::Reply { id, .. } if *id == short))
            .await;
        assert_eq!(error_of(reply).code, ErrorCode::BadFrame, "{odd:?} id");
    }
    assert_eq!(rows.counts().await, before);
    no_database_faults(logs);
}

async fn import_cells(db: Database) {
    let logs = logs::capture();
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let rows = Rows::of(
        &app,
        &[
            "imports",
            "import_issues",
            "customers",
            "payments",
            "events",
        ],
    )
    .await;
    let before = rows.counts().await;
    let good = "CUST-1,Thandi,Nkosi,t@example.co.za,T Nkosi,6200001234,Current,Absa,632005,150.00,2026-03-10,Subscription,yes";
    for odd in ODD {
        let cell: Vec<u8> = match odd {
            Odd::Nul => b"\0Thandi".to_vec(),
            Odd::LoneSurrogate => b"\xed\xa0\x80Thandi".to_vec(),
            Odd::NotUtf8 => b"\xe9Thandi".to_vec(),
            Odd::TooLong => format!("{}Thandi", "a".repeat(10_000)).into_bytes(),
        };
        let row = good.replacen(",Thandi,", ",@CELL@,", 1);
        let (head, tail) = row.split_once("@CELL@").unwrap();
        let file = [
            format!("{HEADER}\n{head}").as_bytes(),
            &cell,
            format!("{tail}\n").as_bytes(),
        ]
        .concat();
        match upload(&mut tab, "odd.csv", &file).await {
            // A CSV is UTF-8 or refused whole, before any of its rows.
            Err(error) => {
                assert!(
                    matches!(odd, Odd::LoneSurrogate | Odd::NotUtf8),
                    "{odd:?}: {error:?}"
                );
                assert_eq!(error.code, ErrorCode::ImportEncoding);
            }
            Ok(preview) => {
                assert_eq!((preview.valid, preview.invalid), (0, 1), "{odd:?}");
                let issue = ImportIssue {
                    row: 2,
                    column: "Person name".into(),
                    code: odd.code(),
                };
                assert_eq!(preview.issues, vec![issue], "{odd:?}");
                let reply = confirm(&mut tab, &preview.upload_id).await;
                assert_eq!(
                    error_of(reply).code,
                    ErrorCode::ImportNothingValid,
                    "{odd:?}"
                );
            }
        }
    }
    // The file's name is text a record keeps too.
    let begin = Command::BeginImport {
        kind: PaymentKind::Once,
        template: ImportTemplate::EftDebitOrder,
        file_name: "odd\0.csv".into(),
        size: 10,
    };
    let error = error_of(tab.command("begin-odd", begin).await);
    assert_eq!(error.fields[0].field, "fileName");
    assert_eq!(rows.counts().await, before);
    no_database_faults(logs);
}

on_both_databases!(
    sign_in_sign_up_and_resets,
    invites,
    payer_pages,
    machine_api,
    socket_frames,
    import_cells
);
