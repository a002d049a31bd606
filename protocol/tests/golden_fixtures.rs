//! Golden MessagePack fixtures: each frame below is encoded here and must equal
//! the committed bytes in `protocol/fixtures/<name>.msgpack`; the web app's
//! tests decode the same bytes and compare them with `<name>.json`.
//! Run with UPDATE_FIXTURES=1 to rewrite them after a deliberate change.

use std::path::PathBuf;

use protocol::*;

fn customer() -> Customer {
    Customer {
        id: "cus_01JD0000000000000000000000".into(),
        mode: Mode::Test,
        name: "Thandi Nkosi".into(),
        email: "thandi@example.co.za".into(),
        cellphone: "+27821234567".into(),
        id_type: Some(IdType::SouthAfricanId),
        id_number: "8801235111088".into(),
        address_line1: "12 Long Street".into(),
        address_line2: String::new(),
        city: "Cape Town".into(),
        postal_code: "8001".into(),
        reference: "CUST-001".into(),
        archived: false,
        created_at: 1_795_000_000_000,
        updated_at: 1_795_000_000_500,
        version: 42,
    }
}

fn client_frames() -> Vec<(&'static str, ClientFrame)> {
    vec![
        (
            "client_hello_resume",
            ClientFrame::Hello {
                resume: Some(Resume {
                    epoch: "ep_1".into(),
                    seq: 41,
                }),
                build: "b1".into(),
                merchant_id: Some("mer_1".into()),
                mode: Some(Mode::Live),
            },
        ),
        (
            "client_command_create_customer",
            ClientFrame::Command {
                id: "cmd_1".into(),
                command: Command::CreateCustomer {
                    input: CustomerInput {
                        name: "Thandi Nkosi".into(),
                        email: "thandi@example.co.za".into(),
                        id_type: Some(IdType::SouthAfricanId),
                        id_number: "8801235111088".into(),
                        ..CustomerInput::default()
                    },
                },
            },
        ),
        (
            "client_query_list_customers",
            ClientFrame::Query {
                id: "q_1".into(),
                query: Query::ListCustomers {
                    search: Some("thandi".into()),
                    status: CustomerStatus::Active,
                    cursor: None,
                    limit: Some(50),
                },
            },
        ),
        (
            "client_command_begin_import",
            ClientFrame::Command {
                id: "cmd_3".into(),
                command: Command::BeginImport {
                    kind: PaymentKind::Recurring,
                    template: ImportTemplate::Debicheck,
                    file_name: "march.xlsx".into(),
                    size: 123_456,
                },
            },
        ),
        (
            "client_command_add_bank_account_no_bank",
            ClientFrame::Command {
                id: "cmd_5".into(),
                // Sent before a bank is chosen: the key is left out.
                command: Command::AddBankAccount {
                    customer_id: "cus_1".into(),
                    input: BankAccountInput {
                        bank: None,
                        branch_code: String::new(),
                        account_type: AccountType::Current,
                        holder_name: "Thandi Nkosi".into(),
                        account_number: "12a4".into(),
                    },
                },
            },
        ),
        (
            "client_command_create_payment_unfinished",
            ClientFrame::Command {
                id: "cmd_6".into(),
                // No mandate and no amount chosen yet: both keys left out.
                command: Command::CreatePayment {
                    input: Box::new(PaymentInput {
                        customer_id: "cus_1".into(),
                        mandate: None,
                        kind: PaymentKind::Once,
                        amount_cents: None,
                        date_to_process: Some("2026-03-02".into()),
                        transaction_reference: "INV-1".into(),
                        start_date: None,
                        end_date: None,
                        interval: None,
                        day_to_process: None,
                        first_collection_cents: None,
                        start_running: true,
                    }),
                },
            },
        ),
        ("client_ping", ClientFrame::Ping {}),
    ]
}

fn server_frames() -> Vec<(&'static str, ServerFrame)> {
    vec![
        (
            "server_welcome",
            ServerFrame::Welcome {
                epoch: "ep_1".into(),
                seq: 9_007_199_254_740_000,
                build: "b1".into(),
                user: UserView {
                    id: "usr_1".into(),
                    name: "Thandi".into(),
                    email: "t@example.co.za".into(),
                },
                merchant: MerchantView {
                    id: "mer_1".into(),
                    name: "Karoo Gym".into(),
                    role: Role::Owner,
                    role_name: None,
                    permissions: Permissions::all(Access::Write),
                },
                mode: Mode::Test,
                merchants: vec![MerchantView {
                    id: "mer_1".into(),
                    name: "Karoo Gym".into(),
                    role: Role::Owner,
                    role_name: None,
                    permissions: Permissions::all(Access::Write),
                }],
            },
        ),
        (
            "server_delta_customer",
            ServerFrame::Delta {
                seq: 42,
                changes: vec![Change::CustomerUpserted {
                    customer: Box::new(customer()),
                }],
            },
        ),
        (
            "server_reply_error",
            ServerFrame::Reply {
                id: "cmd_1".into(),
                ok: None,
                error: Some(WireError {
                    code: ErrorCode::InvalidInput,
                    fields: vec![FieldError {
                        field: "email".into(),
                        code: ErrorCode::BlockedEmailDomain,
                    }],
                    conflict: None,
                }),
            },
        ),
        (
            "server_reply_committed",
            ServerFrame::Reply {
                id: "cmd_2".into(),
                ok: Some(ReplyBody::Committed {
                    seq: 43,
                    id: Some("cus_1".into()),
                }),
                error: None,
            },
        ),
        (
            "server_presence",
            ServerFrame::Presence {
                members: vec![PresenceMember {
                    user_id: "usr_1".into(),
                    name: "Thandi".into(),
                    viewing: vec!["/customers/cus_1".into()],
                    editing: vec!["/customers/cus_1".into()],
                }],
            },
        ),
        (
            "server_presence_changed",
            ServerFrame::PresenceChanged {
                joined: vec![PresenceMember {
                    user_id: "usr_2".into(),
                    name: "Pieter".into(),
                    viewing: vec!["/payments".into()],
                    editing: Vec::new(),
                }],
                moved: Vec::new(),
                left: vec!["usr_3".into()],
            },
        ),
        (
            "server_delta_import",
            ServerFrame::Delta {
                seq: 44,
                changes: vec![
                    Change::ImportUpserted {
                        import: Box::new(Import {
                            id: "imp_1".into(),
                            mode: Mode::Test,
                            kind: PaymentKind::Once,
                            template: ImportTemplate::EftDebitOrder,
                            file_name: "march.csv".into(),
                            status: ImportStatus::Committing,
                            rows: 2_348,
                            valid: 2_345,
                            invalid: 3,
                            committed: 2_000,
                            failed: 0,
                            skipped: 0,
                            include_duplicates: false,
                            duplicate_of: None,
                            created_by_name: "Thandi".into(),
                            created_at: 1_795_000_000_000,
                            finished_at: None,
                        }),
                    },
                    Change::Invalidate {
                        kind: EntityKind::Payment,
                    },
                ],
            },
        ),
        (
            "server_delta_pay_page_order",
            ServerFrame::Delta {
                seq: 45,
                changes: vec![
                    Change::TransactionUpserted {
                        transaction: Box::new(Transaction {
                            id: "txn_1".into(),
                            mode: Mode::Test,
                            payment_id: None,
                            payment_kind: PaymentKind::Once,
                            mandate_id: None,
                            order_id: Some("ord_1".into()),
                            customer_id: None,
                            customer_name: "Lerato Dlamini".into(),
                            method: PaymentMethod::Card,
                            bank: None,
                            card_brand: Some(CardBrand::Visa),
                            account_last_digits: "4242".into(),
                            failure: None,
                            reference: "YOGA-1".into(),
                            amount_cents: 15_000,
                            action_date: "2026-03-02".into(),
                            status: TransactionStatus::Paid,
                            unpaid_code: None,
                            attempt: 1,
                            history: vec![TransactionStep {
                                status: TransactionStatus::Paid,
                                date: "2026-03-02".into(),
                                unpaid_code: None,
                            }],
                            fee_cents: 0,
                            net_cents: 0,
                            follow_ups: Vec::new(),
                            created_at: 1_795_000_000_000,
                            updated_at: 1_795_000_000_000,
                        }),
                    },
                    Change::OrderUpserted {
                        order: Box::new(Order {
                            id: "ord_1".into(),
                            mode: Mode::Test,
                            page_id: Some("ppg_1".into()),
                            items: vec![OrderItem {
                                description: "Yoga class".into(),
                                quantity: 1,
                                unit_cents: 15_000,
                            }],
                            amount_cents: 15_000,
                            payer_name: "Lerato Dlamini".into(),
                            payer_email: Some("lerato@example.co.za".into()),
                            customer_id: None,
                            method: PaymentMethod::Card,
                            status: OrderStatus::Paid,
                            failure: None,
                            reference: "YOGA-1".into(),
                            transaction_id: Some("txn_1".into()),
                            refunded_cents: 0,
                            fee_cents: 0,
                            net_cents: 0,
                            refunds: Vec::new(),
                            created_at: 1_795_000_000_000,
                            updated_at: 1_795_000_000_000,
                        }),
                    },
                ],
            },
        ),
        (
            "server_reply_import_preview",
            ServerFrame::Reply {
                id: "cmd_4".into(),
                ok: Some(ReplyBody::ImportPreview {
                    preview: Box::new(ImportPreview {
                        upload_id: "upl_1".into(),
                        kind: PaymentKind::Once,
                        template: ImportTemplate::EftDebitOrder,
                        file_name: "march.csv".into(),
                        rows: 3,
                        valid: 2,
                        invalid: 1,
                        issues: vec![ImportIssue {
                            row: 4,
                            column: "Email".into(),
                            code: ErrorCode::BlockedEmailDomain,
                        }],
                        issue_count: 1,
                        next_offset: None,
                        duplicate_of: None,
                        duplicates: 0,
                        duplicate_rows: Vec::new(),
                        duplicates_next_offset: None,
                    }),
                }),
                error: None,
            },
        ),
        (
            "server_resync",
            ServerFrame::Resync {
                epoch: "ep_2".into(),
                seq: 7,
            },
        ),
    ]
}

fn check<T>(name: &str, value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let bytes = encode(value).unwrap_or_else(|e| panic!("{name}: encode: {e}"));
    let json = serde_json::to_string_pretty(value).unwrap_or_else(|e| panic!("{name}: json: {e}"));
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        std::fs::write(dir.join(format!("{name}.msgpack")), &bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        std::fs::write(dir.join(format!("{name}.json")), format!("{json}\n"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        return;
    }
    let committed = std::fs::read(dir.join(format!("{name}.msgpack")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(bytes, committed, "{name}: encoding changed");
    let decoded: T = decode(&committed).unwrap_or_else(|e| panic!("{name}: decode: {e}"));
    assert_eq!(&decoded, value, "{name}: decodes to another value");
}

#[test]
fn client_frames_match_their_fixtures() {
    for (name, frame) in client_frames() {
        check(name, &frame);
    }
}

#[test]
fn server_frames_match_their_fixtures() {
    for (name, frame) in server_frames() {
        check(name, &frame);
    }
}

#[test]
fn frames_are_maps_tagged_by_t() {
    let bytes = encode(&ClientFrame::Ping {}).unwrap_or_default();
    let value: serde_json::Value = rmp_serde::from_slice(&bytes).unwrap_or_default();
    assert_eq!(value, serde_json::json!({"t": "Ping"}));
}
