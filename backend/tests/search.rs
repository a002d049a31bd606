//! The search box over the real socket, on both databases: every kind of
//! record is found by each of its fields (name, reference, e-mail address,
//! ID number, account number), never another merchant's or the other
//! mode's, and a role is shown only the kinds it reads.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::collection_support::{eft_mandate, once_under, payment as payment_of, transactions};
use crate::common;
use crate::common::orders::{order_of, pay_card_page};
use crate::payout_support::{PASSWORD, set_account};
use crate::team_support::{add_member, on_merchant_of};

use common::{Database, Socket, TestApp, advance_clock, committed_id, error_of};
use protocol::*;

const OWNER: &str = "owner@karoo.co.za";
const NAME: &str = "Thandi Mokoena";
const EMAIL: &str = "thandi.mokoena@example.co.za";
const ID_NUMBER: &str = "8801235111088";
const CUSTOMER_REF: &str = "CUS-TM-01";
const ACCOUNT: &str = "4000777123";
const CONTRACT: &str = "GYMTM2026";
const INVOICE: &str = "INVTM7";

/// One record of each kind, as the search should name them.
struct Records {
    customer: String,
    payment: String,
    mandate: String,
    debit: String,
    order: String,
    order_reference: String,
    card_debit: String,
    payout: String,
}

async fn search(socket: &mut Socket, text: &str) -> Vec<SearchGroup> {
    let reply = socket
        .query("search", Query::Search { text: text.into() })
        .await;
    match reply {
        ServerFrame::Reply {
            ok: Some(ReplyBody::SearchResults { groups }),
            ..
        } => groups,
        other => panic!("search {text:?}: {other:?}"),
    }
}

fn ids_of(groups: &[SearchGroup], kind: SearchKind) -> Vec<String> {
    groups
        .iter()
        .filter(|group| group.kind == kind)
        .flat_map(|group| group.hits.iter().map(|hit| hit.id.clone()))
        .collect()
}

fn every_id(groups: &[SearchGroup]) -> Vec<String> {
    groups
        .iter()
        .flat_map(|group| group.hits.iter().map(|hit| hit.id.clone()))
        .collect()
}

fn only(id: &str) -> Vec<String> {
    vec![id.to_string()]
}

fn kinds(groups: &[SearchGroup]) -> Vec<SearchKind> {
    groups.iter().map(|group| group.kind).collect()
}

/// A customer with an account and a once-off debit order from it; its id
/// and the payment's.
async fn customer_with_debit(socket: &mut Socket, tag: &str) -> (String, String) {
    let input = CustomerInput {
        name: NAME.into(),
        email: EMAIL.into(),
        id_type: Some(IdType::SouthAfricanId),
        id_number: ID_NUMBER.into(),
        reference: CUSTOMER_REF.into(),
        ..Default::default()
    };
    let customer = committed_id(
        socket
            .command(
                &format!("{tag}-customer"),
                Command::CreateCustomer { input },
            )
            .await,
    );
    let mut payment = once_under(
        &customer,
        MandateChoice::New {
            input: Box::new(eft_mandate(ACCOUNT, CONTRACT)),
        },
    );
    payment.transaction_reference = INVOICE.into();
    let payment = committed_id(
        socket
            .command(
                &format!("{tag}-payment"),
                Command::CreatePayment {
                    input: Box::new(payment),
                },
            )
            .await,
    );
    (customer, payment)
}

async fn records(app: &TestApp, tab: &mut Socket, watcher: &mut Socket) -> Records {
    let (customer, payment) = customer_with_debit(tab, "a").await;
    let mandate = payment_of(tab, &payment).await.mandate_id;
    let page = pay_card_page(&app.browser(), tab, "YOGA-NK", "Naledi Khumalo").await;
    let order = order_of(tab, &page).await;
    let card_debit = order.transaction_id.clone().expect("a card transaction");
    advance_clock(tab, watcher, ClockStep::Day, "2026-03-03").await;
    let debits = transactions(
        tab,
        TransactionFilter {
            payment_id: Some(payment.clone()),
            ..Default::default()
        },
    )
    .await;
    let debit = debits.first().expect("the debit order's debit").id.clone();
    let set = tab
        .command("account", set_account("62001234567", PASSWORD))
        .await;
    assert!(
        matches!(set, ServerFrame::Reply { ok: Some(_), .. }),
        "{set:?}"
    );
    let payout = committed_id(
        tab.command(
            "payout",
            Command::RequestPayout {
                amount_cents: 5_000,
            },
        )
        .await,
    );
    Records {
        customer,
        payment,
        mandate,
        debit,
        order: order.id,
        order_reference: order.reference,
        card_debit,
        payout,
    }
}

async fn each_kind_is_found_by_each_of_its_fields(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let r = records(&app, &mut tab, &mut watcher).await;

    // The customer's own fields reach the customer and what is collected
    // from them; the account number too, by its last digits.
    let debit_order_kinds = [
        (SearchKind::Customer, &r.customer),
        (SearchKind::Payment, &r.payment),
        (SearchKind::Mandate, &r.mandate),
        (SearchKind::Transaction, &r.debit),
    ];
    for text in [
        "mokoena",
        "THANDI MOK",
        EMAIL,
        ID_NUMBER,
        "cus-tm-01",
        "777123",
    ] {
        let groups = search(&mut tab, text).await;
        for (kind, id) in debit_order_kinds {
            assert!(
                ids_of(&groups, kind).contains(id),
                "{text:?} finds no {kind:?}: {groups:?}"
            );
        }
    }
    let by_account = search(&mut tab, "777123").await;
    let customer_hit = &by_account
        .iter()
        .find(|g| g.kind == SearchKind::Customer)
        .unwrap()
        .hits[0];
    assert_eq!(customer_hit.title, NAME);
    assert_eq!(customer_hit.detail, CUSTOMER_REF);
    assert_eq!(
        customer_hit.account_last4.as_deref(),
        Some("7123"),
        "the account shows masked"
    );
    let text = serde_json::to_string(&by_account).unwrap();
    assert!(!text.contains(ACCOUNT), "no whole account number: {text}");

    // A payment's and a mandate's own references.
    let by_invoice = search(&mut tab, "invtm7").await;
    assert_eq!(ids_of(&by_invoice, SearchKind::Payment), only(&r.payment));
    let payment_hit = &by_invoice[0].hits[0];
    assert_eq!(payment_hit.payment_kind, Some(PaymentKind::Once));
    assert_eq!(payment_hit.amount_cents, Some(25_000));
    let by_contract = search(&mut tab, CONTRACT).await;
    assert_eq!(ids_of(&by_contract, SearchKind::Mandate), only(&r.mandate));

    // The card order by its payer's name, e-mail address and reference,
    // with its transaction.
    for text in [
        "naledi khumalo",
        "lerato@example.co.za",
        r.order_reference.as_str(),
    ] {
        let groups = search(&mut tab, text).await;
        assert_eq!(
            ids_of(&groups, SearchKind::Order),
            only(&r.order),
            "{text:?}"
        );
    }
    let by_payer = search(&mut tab, "khumalo").await;
    assert!(ids_of(&by_payer, SearchKind::Transaction).contains(&r.card_debit));

    // The payout by its account holder and account number.
    for text in ["karoo gym (pty)", "1234567"] {
        let groups = search(&mut tab, text).await;
        assert_eq!(
            ids_of(&groups, SearchKind::Payout),
            only(&r.payout),
            "{text:?}"
        );
        assert_eq!(
            groups.last().unwrap().hits[0].account_last4.as_deref(),
            Some("4567")
        );
    }

    // A record's id pasted whole opens it.
    let by_id = search(&mut tab, &r.mandate).await;
    assert_eq!(every_id(&by_id), only(&r.mandate));

    // The user's `%` and `_` are letters, not wildcards; short text finds
    // nothing; long text is refused.
    assert!(search(&mut tab, "%%").await.is_empty());
    assert!(search(&mut tab, "__").await.is_empty());
    assert!(search(&mut tab, " m ").await.is_empty());
    let long = "m".repeat(SEARCH_MAX_CHARS + 1);
    let refused = error_of(tab.query("long", Query::Search { text: long }).await);
    assert_eq!(refused.fields[0].field, "text");
    assert_eq!(refused.fields[0].code, ErrorCode::TooLong);
}

on_both_databases!(each_kind_is_found_by_each_of_its_fields);

async fn another_merchants_and_the_other_modes_records_never_appear(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let (customer, payment) = customer_with_debit(&mut tab, "test").await;

    // The same person at another business, and in this business's live data.
    let rival = app.merchant("owner@b.co.za").await;
    let mut theirs = rival.open(Mode::Test).await;
    let (their_customer, their_payment) = customer_with_debit(&mut theirs, "b").await;
    let mut live = owner.open(Mode::Live).await;
    let live_customer = committed_id(
        live.command(
            "live-customer",
            Command::CreateCustomer {
                input: CustomerInput {
                    name: NAME.into(),
                    email: EMAIL.into(),
                    id_type: Some(IdType::SouthAfricanId),
                    id_number: ID_NUMBER.into(),
                    reference: CUSTOMER_REF.into(),
                    ..Default::default()
                },
            },
        )
        .await,
    );

    for text in ["mokoena", EMAIL, ID_NUMBER, CUSTOMER_REF, "777123", INVOICE] {
        let ours = every_id(&search(&mut tab, text).await);
        assert!(
            ours.contains(&customer) || ours.contains(&payment),
            "{text:?}"
        );
        for elsewhere in [&their_customer, &their_payment, &live_customer] {
            assert!(!ours.contains(elsewhere), "{text:?} shows {elsewhere}");
        }
        let in_live = every_id(&search(&mut live, text).await);
        assert!(
            in_live.iter().all(|id| *id == live_customer),
            "{text:?} in live: {in_live:?}"
        );
        let at_theirs = every_id(&search(&mut theirs, text).await);
        assert!(!at_theirs.contains(&customer) && !at_theirs.contains(&payment));
    }
    // Their ids pasted whole find nothing here.
    let none = search(&mut tab, &their_customer).await;
    assert!(none.is_empty(), "{their_customer}: {none:?}");
    assert!(search(&mut tab, &live_customer).await.is_empty());
}

on_both_databases!(another_merchants_and_the_other_modes_records_never_appear);

async fn a_role_finds_only_the_kinds_it_reads(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant(OWNER).await;
    let mut tab = owner.open(Mode::Test).await;
    let mut watcher = owner.open(Mode::Test).await;
    let r = records(&app, &mut tab, &mut watcher).await;
    let everything = search(&mut tab, "mokoena").await;
    assert_eq!(
        kinds(&everything),
        [
            SearchKind::Customer,
            SearchKind::Payment,
            SearchKind::Mandate,
            SearchKind::Transaction
        ]
    );

    // Finance reads transactions, orders and payouts, not customers,
    // payments or mandates; support the other way round.
    for (role, email) in [
        (Role::Finance, "finance@karoo.co.za"),
        (Role::Support, "support@karoo.co.za"),
        (Role::Developer, "developer@karoo.co.za"),
    ] {
        let member = app.merchant(email).await;
        add_member(&app, OWNER, email, role).await;
        let (mut socket, _) = on_merchant_of(&app, OWNER, &member).await;
        let grant = paydesk::domain::permissions::preset(role).unwrap();
        let allowed = paydesk::domain::search::searched_kinds(&grant);
        for text in ["mokoena", "777123", "khumalo", "karoo gym (pty)"] {
            let groups = search(&mut socket, text).await;
            for kind in kinds(&groups) {
                assert!(
                    allowed.contains(&kind),
                    "{role:?} sees {kind:?} for {text:?}"
                );
            }
            // Each kind it reads, it finds as the owner does.
            let owners = search(&mut tab, text).await;
            for group in owners.iter().filter(|g| allowed.contains(&g.kind)) {
                assert_eq!(ids_of(&groups, group.kind), ids_of(&owners, group.kind));
            }
        }
        match role {
            Role::Finance => {
                let groups = search(&mut socket, "mokoena").await;
                assert_eq!(ids_of(&groups, SearchKind::Transaction), only(&r.debit));
                assert_eq!(kinds(&groups), [SearchKind::Transaction]);
                let payouts = search(&mut socket, "1234567").await;
                assert_eq!(ids_of(&payouts, SearchKind::Payout), only(&r.payout));
            }
            Role::Support => {
                let groups = search(&mut socket, "777123").await;
                assert_eq!(kinds(&groups), [SearchKind::Customer, SearchKind::Payment]);
                let none = search(&mut socket, "1234567").await;
                assert!(none.is_empty(), "{none:?}");
            }
            _ => {
                // Developers read payments only.
                let groups = search(&mut socket, "mokoena").await;
                assert_eq!(kinds(&groups), [SearchKind::Payment]);
            }
        }
    }
}

on_both_databases!(a_role_finds_only_the_kinds_it_reads);
