//! The integration suite as one test binary: each file beside this one is a
//! module of it, so the suite links once instead of once per file. Each test
//! still starts its own server over its own database (see `common`).
//!
//! Four files stay binaries of their own, because what they check is the
//! process's, and every other test here would touch it: `shutdown.rs` and
//! `error_reporting.rs` (panic hooks and error reporting), `metrics.rs` (the
//! one recorder's gauges) and `fee_schedule.rs` (prices fixed per process).

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[macro_use]
mod common;

mod api_support;
mod collection_support;
mod import_support;
mod odd_input_support;
mod payout_support;
mod team_support;
mod webhook_support;

mod abandoned_checkouts;
mod account_alerts;
mod account_checks;
mod accounting_export;
mod accounts;
mod api;
mod api_conventions;
mod api_error_shapes;
mod api_query_params;
mod api_token_guessing;
mod api_tokens;
mod auth;
mod bank_accounts;
mod card_schedules;
mod collections;
mod compression;
mod concurrent_transitions;
mod conflicts;
mod cross_node_presence;
mod csrf_binding;
mod customer_activity;
mod debit_references;
mod e_mandate_signing;
mod e_mandate_support;
mod e_mandates;
mod email_sign_in;
mod group_commit;
mod group_commit_webhooks;
mod health;
mod history;
mod history_export;
mod history_live;
mod history_records;
mod http_edges;
mod idor;
mod import_check_cli;
mod import_duplicates;
mod import_resume;
mod import_takeover;
mod imports;
mod insights;
mod last_edit;
mod ledger;
mod live;
mod odd_input;
mod openapi_is_current;
mod pay_page;
mod payment_mistakes;
mod payout_kill;
mod payouts;
mod permissions;
mod presence;
mod refunds;
mod representations;
mod retention;
mod role_table;
mod roles;
mod rolling_restart;
mod scale_out;
mod scheduler_claims;
mod search;
mod secrets_at_rest;
mod secrets_on_disk;
mod security;
mod session_recheck;
mod slow_session;
mod socket_limits;
mod statement;
mod storage_pressure;
mod team_access;
mod teams;
mod test_clock_times;
mod token_commands;
mod token_lineage;
mod unpaid_follow_ups;
mod webhook_commands;
mod webhook_kill;
mod webhook_log_live;
mod webhook_retry_wait;
mod webhooks;
