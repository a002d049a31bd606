//! Query parameters are checked the same way on every list, through the
//! real server: out of range, malformed, unknown or repeated, each is a
//! field error naming it (422), with a `detail` saying why; within bounds
//! they work.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support::{Api, grants, make_token};
use crate::common::{Database, TestApp, committed_id, customer_input};
use protocol::*;

const OWNER: &str = "owner@example.co.za";

async fn refused_on(api: &Api, path: &str, field: &str) -> String {
    let answer = api.get(path).await;
    assert_eq!(
        (answer.status, answer.code()),
        (422, "invalid_input"),
        "{path}: {}",
        answer.json
    );
    let fields: Vec<&str> = answer.json["error"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, [field], "{path}");
    let detail = answer.json["error"]["detail"].as_str();
    detail
        .unwrap_or_else(|| panic!("{path}: no detail"))
        .to_string()
}

async fn query_parameters_are_checked_alike_everywhere(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let reads = grants(&[
        (Section::Customers, Access::Read),
        (Section::Payments, Access::Read),
        (Section::Mandates, Access::Read),
    ]);
    let (_, secret) = make_token(&mut socket, "reader", Mode::Test, reads).await;
    let api = Api::new(&app, &secret);

    for path in [
        "/customers?limit=100",
        "/payments?kind=once&limit=1&from=2026-02-28&to=2026-03-01",
    ] {
        assert_eq!(api.get(path).await.status, 200, "{path}");
    }
    let detail = refused_on(&api, "/customers?limit=0", "limit").await;
    assert!(detail.contains("from 1 to 100"), "{detail}");
    refused_on(&api, "/mandates?limit=101", "limit").await;
    refused_on(&api, "/payments?kind=once&limit=ten", "limit").await;
    let detail = refused_on(&api, "/payments?kind=once&from=2026-13-45", "from").await;
    assert!(detail.contains("YYYY-MM-DD"), "{detail}");
    refused_on(
        &api,
        "/payments?kind=once&from=2026-03-02&to=2026-03-01",
        "to",
    )
    .await;
    refused_on(&api, "/payments?kind=once&status=nonsense", "status").await;
    refused_on(&api, "/customers?cursor=%C3%A9", "cursor").await;
    refused_on(&api, "/mandates?cursor=%C3%A9", "cursor").await;
    // The right shape, but no page of this list.
    refused_on(&api, "/payments?kind=once&cursor=abc~def", "cursor").await;
    refused_on(&api, "/customers?cursor=cus_madeup", "cursor").await;
    // A real page's `nextCursor` goes on.
    for (n, name) in ["Ayanda Khumalo", "Lerato Mokoena"].into_iter().enumerate() {
        let input = customer_input(name, &format!("customer{n}@example.co.za"));
        let made = socket
            .command(&format!("c{n}"), Command::CreateCustomer { input })
            .await;
        committed_id(made);
    }
    let first = api.get("/customers?limit=1").await;
    let next = first.json["nextCursor"].as_str().unwrap().to_string();
    let second = api.get(&format!("/customers?limit=1&cursor={next}")).await;
    assert_eq!(second.status, 200, "{}", second.json);
    assert_eq!(second.json["items"].as_array().unwrap().len(), 1);
    let detail = refused_on(&api, "/customers?refrence=INV-1", "refrence").await;
    assert!(
        detail.contains("unknown query parameter `refrence`"),
        "{detail}"
    );
    refused_on(&api, "/customers?limit=5&limit=6", "limit").await;
    refused_on(&api, "/imports/imp_nothing/issues?offset=1000001", "offset").await;
}

on_both_databases!(query_parameters_are_checked_alike_everywhere);
