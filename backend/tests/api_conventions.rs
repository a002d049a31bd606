//! The machine API's conventions that integrators lean on, through the real
//! server: times are RFC 3339 texts (in answers and webhook events alike), a
//! body may hold only documented fields (each unknown one refused by its
//! path, a key given twice refused, nothing written either way), and a page
//! of payments expands its customers.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::api_support::{Api, shop_token};
use crate::collection_support::{eft_mandate, once_under};
use crate::common::{Database, TestApp};
use protocol::*;
use serde_json::{Value, json};

const OWNER: &str = "owner@example.co.za";

fn customer_json(name: &str, email: &str) -> Value {
    json!({"name": name, "email": email, "cellphone": "+27821234567"})
}

fn payment_json(customer_id: &str, account: &str, reference: &str) -> Value {
    let mut input = once_under(
        customer_id,
        MandateChoice::New {
            input: Box::new(eft_mandate(account, reference)),
        },
    );
    input.transaction_reference = format!("INV-{reference}");
    serde_json::to_value(input).unwrap()
}

/// `2026-03-02T08:00:00.000Z`: a day, a time, three digits of milliseconds, UTC.
fn is_rfc3339_millis(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| bytes[range].iter().all(u8::is_ascii_digit);
    bytes.len() == 24
        && digits(0..4)
        && bytes[4] == b'-'
        && bytes[10] == b'T'
        && bytes[19] == b'.'
        && digits(20..23)
        && bytes[23] == b'Z'
        && time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_ok()
}

fn field_paths(answer: &Value) -> Vec<&str> {
    answer["error"]["fields"]
        .as_array()
        .map(|fields| fields.iter().filter_map(|f| f["field"].as_str()).collect())
        .unwrap_or_default()
}

async fn answers_follow_the_documented_conventions(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut socket = owner.open(Mode::Test).await;
    let secret = shop_token(&mut socket).await;
    let api = Api::new(&app, &secret);

    // Times are texts, the same instant the socket carries in milliseconds.
    let made = api
        .post(
            "/customers",
            "c1",
            &customer_json("Thabo Mokoena", "t@example.co.za"),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.json);
    let customer_id = made.json["id"].as_str().unwrap().to_string();
    for field in ["createdAt", "updatedAt"] {
        let text = made.json[field]
            .as_str()
            .unwrap_or_else(|| panic!("{field}: {}", made.json));
        assert!(is_rfc3339_millis(text), "{field}: {text}");
    }
    let read = socket
        .query(
            "get",
            Query::GetCustomer {
                customer_id: customer_id.clone(),
            },
        )
        .await;
    let ServerFrame::Reply {
        ok: Some(ReplyBody::Customer { customer }),
        ..
    } = read
    else {
        panic!("expected the customer, got {read:?}");
    };
    let socket_time = time::OffsetDateTime::from_unix_timestamp_nanos(
        i128::from(customer.created_at) * 1_000_000,
    )
    .unwrap()
    .format(time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    ))
    .unwrap();
    assert_eq!(made.json["createdAt"].as_str().unwrap(), socket_time);

    // A misspelt field is refused by its path, at the top and nested, and
    // nothing is written.
    let mut misspelt = customer_json("Lerato Dlamini", "l@example.co.za");
    misspelt["refrence"] = json!("CUST-1");
    let refused = api.post("/customers", "c2", &misspelt).await;
    assert_eq!(
        (refused.status, refused.code()),
        (422, "invalid_input"),
        "{}",
        refused.json
    );
    assert_eq!(field_paths(&refused.json), ["refrence"]);
    let detail = refused.json["error"]["detail"].as_str().unwrap();
    assert!(detail.contains("unknown field `refrence`"), "{detail}");

    let mut nested = payment_json(&customer_id, "4000000012", "GYM2026");
    nested["mandate"]["input"]["contractRefrence"] = json!("GYM2026");
    nested["extra"] = json!(true);
    let refused = api.post("/payments", "p1", &nested).await;
    assert_eq!(refused.status, 422, "{}", refused.json);
    assert_eq!(
        field_paths(&refused.json),
        ["extra", "mandate.input.contractRefrence"]
    );
    // A key given twice is refused, not read as the last.
    let twice = reqwest::Client::new()
        .post(app.url("/api/v1/customers"))
        .bearer_auth(&secret)
        .header("idempotency-key", "c3")
        .header("content-type", "application/json")
        .body(r#"{"name": "Sipho Dlamini", "name": "Someone Else", "email": "s@example.co.za"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(twice.status(), 400);
    let body: Value = twice.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_input", "{body}");
    assert!(
        body["error"]["detail"]
            .as_str()
            .unwrap()
            .contains("duplicate field `name`"),
        "{body}"
    );
    let customers = api.get("/customers").await;
    assert_eq!(
        customers.json["items"].as_array().unwrap().len(),
        1,
        "only the first customer was made: {}",
        customers.json
    );

    // A page of payments expands each one's customer; the documented body works.
    for (n, (account, reference)) in [("4000000012", "GYM2026"), ("4000000020", "GYM2027")]
        .into_iter()
        .enumerate()
    {
        let made = api
            .post(
                "/payments",
                &format!("p{}", n + 2),
                &payment_json(&customer_id, account, reference),
            )
            .await;
        assert_eq!(made.status, 201, "{}", made.json);
        assert!(is_rfc3339_millis(made.json["createdAt"].as_str().unwrap()));
    }
    let page = api.get("/payments?kind=once&expand=customer").await;
    assert_eq!(page.status, 200, "{}", page.json);
    let items = page.json["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for item in items {
        assert_eq!(item["customer"]["object"], "customer", "{item}");
        assert_eq!(item["customer"]["id"], customer_id.as_str());
        assert!(is_rfc3339_millis(
            item["customer"]["createdAt"].as_str().unwrap()
        ));
        assert!(item.get("mandate").is_none(), "only what was asked: {item}");
    }

    // A command's body holds its own fields only: the record it acts on is
    // named by the path, and naming it in the body too is refused.
    let payment_id = items[0]["id"].as_str().unwrap();
    let refused = api
        .post(
            &format!("/payments/{payment_id}/actions"),
            "act1",
            &json!({"action": "pause", "paymentId": "pay_other"}),
        )
        .await;
    assert_eq!(refused.status, 422, "{}", refused.json);
    assert_eq!(field_paths(&refused.json), ["paymentId"]);
    let still = api.get(&format!("/payments/{payment_id}")).await;
    assert_eq!(still.json["status"], items[0]["status"], "nothing changed");
}

on_both_databases!(answers_follow_the_documented_conventions);
