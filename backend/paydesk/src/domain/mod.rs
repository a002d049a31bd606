//! Rules and use-cases per area. Commands run inside the merchant actor's
//! write transaction; queries read directly.

pub mod accounting_export;
pub mod accounts;
pub mod api_tokens;
pub mod app_routes;
pub mod bank;
pub mod banking;
pub mod business;
pub mod calendar;
pub mod clock;
pub mod collection_rules;
pub mod collections;
pub mod commerce;
pub mod conflicts;
pub mod customers;
pub mod debits;
pub mod downloads;
pub mod e_mandate_payers;
pub mod e_mandate_signing;
pub mod e_mandates;
pub mod email_sign_in;
pub mod fees;
pub mod history;
pub mod history_export;
pub mod history_values;
pub mod imports;
pub mod input_text;
pub mod insights;
pub mod invites;
pub mod ledger;
pub mod lifecycle;
pub mod locale;
pub mod machine_json;
pub mod mail;
pub mod mandate_actions;
pub mod mandates;
pub mod notices;
pub mod payment_methods;
pub mod payments;
pub mod payouts;
pub mod permissions;
pub mod record_places;
pub mod recovery;
pub mod representations;
pub mod retry;
pub mod roles;
pub mod routes;
pub mod rules;
pub mod scope;
pub mod screen_paths;
pub mod search;
pub mod secrets_at_rest;
pub mod settled;
pub mod sign_in;
pub mod statement_files;
pub mod statements;
pub mod team_mail;
pub mod teams;
pub mod transactions;
pub mod unpaid_follow_ups;
pub mod web_addresses;
pub mod webhooks;

use protocol::{Command, ErrorCode, Query, ReplyBody};

use crate::error::{AppError, AppResult};
use crate::store::{Db, Tx};

pub(crate) use scope::checked_id;
pub use scope::{Effect, Scope};

/// Every socket command, dispatched from this one match.
pub async fn run_command(tx: &mut Tx, scope: &Scope, command: &Command) -> AppResult<Effect> {
    match command {
        Command::CreateCustomer { input } => customers::create_customer(tx, scope, input).await,
        Command::UpdateCustomer {
            customer_id,
            input,
            base_version,
        } => customers::update_customer(tx, scope, customer_id, input, *base_version).await,
        Command::ArchiveCustomer { customer_id } => {
            customers::archive_customer(tx, scope, customer_id).await
        }
        Command::RestoreCustomer { customer_id } => {
            customers::restore_customer(tx, scope, customer_id).await
        }
        Command::UpdateBusinessInfo { info, base_version } => {
            business::update_business_info(tx, scope, info, *base_version).await
        }
        Command::RequireTwoFactor { required } => {
            business::require_two_factor(tx, scope, *required).await
        }
        Command::AddBankAccount { customer_id, input } => {
            banking::add_bank_account(tx, scope, customer_id, input).await
        }
        Command::RemoveBankAccount { bank_account_id } => {
            banking::remove_bank_account(tx, scope, bank_account_id).await
        }
        Command::CreatePayment { input } => payments::create_payment(tx, scope, input).await,
        Command::ActOnPayment { payment_id, action } => {
            payments::act_on_payment(tx, scope, payment_id, *action).await
        }
        Command::ActOnUnpaid {
            transaction_id,
            action,
        } => unpaid_follow_ups::act_on_unpaid(tx, scope, transaction_id, action).await,
        Command::ActOnMandate { mandate_id, action } => {
            mandate_actions::act_on_mandate(tx, scope, mandate_id, *action).await
        }
        Command::UpdatePaymentMethodSettings {
            settings,
            base_version,
        } => payment_methods::update_settings(tx, scope, settings, *base_version).await,
        Command::AdvanceTestClock { step } => {
            collections::advance_test_clock(tx, scope, *step).await
        }
        Command::CreatePayPage { input } => commerce::pages::create_page(tx, scope, input).await,
        Command::UpdatePayPage {
            page_id,
            input,
            base_version,
        } => commerce::pages::update_page(tx, scope, page_id, input, *base_version).await,
        Command::SetPayPageActive { page_id, active } => {
            commerce::pages::set_active(tx, scope, page_id, *active).await
        }
        Command::SetPayPageLogo { page_id, data } => {
            commerce::pages::set_logo(tx, scope, page_id, data).await
        }
        Command::ActOnOrder {
            order_id,
            action,
            amount_cents,
        } => commerce::orders::act_on_order(tx, scope, order_id, *action, *amount_cents).await,
        Command::RemoveCard { card_id } => commerce::cards::remove_card(tx, scope, card_id).await,
        Command::ChargeCard {
            card_id,
            amount_cents,
            reference,
        } => commerce::cards::charge_card(tx, scope, card_id, *amount_cents, reference).await,
        Command::ScheduleCard {
            card_id,
            amount_cents,
            interval,
            reference,
            start_date,
        } => {
            let plan = commerce::card_schedules::Plan {
                amount_cents: *amount_cents,
                interval: *interval,
                reference,
                start_date,
            };
            commerce::card_schedules::schedule_card(tx, scope, card_id, plan).await
        }
        Command::StopCardSchedule { card_id } => {
            commerce::card_schedules::stop_schedule(tx, scope, card_id).await
        }
        Command::RequestEMandate { input } => e_mandates::request_e_mandate(tx, scope, input).await,
        Command::ResendEMandateRequest { request_id } => {
            e_mandates::resend(tx, scope, request_id).await
        }
        Command::CancelEMandateRequest { request_id } => {
            e_mandates::cancel(tx, scope, request_id).await
        }
        // Routed elsewhere (`routes::command_route`): the user's own account
        // and uploads never reach the merchant's queue.
        Command::UpdateProfile { .. }
        | Command::SetLanguage { .. }
        | Command::ChangePassword { .. }
        | Command::ChangeEmail { .. }
        | Command::ResendVerification {}
        | Command::BeginTwoFactor {}
        | Command::ConfirmTwoFactor { .. }
        | Command::DisableTwoFactor { .. }
        | Command::RegenerateBackupCodes { .. }
        | Command::SignOutSession { .. }
        | Command::SignOutOtherSessions {}
        | Command::BeginImport { .. }
        | Command::UploadImportChunk { .. }
        | Command::CheckImport { .. }
        | Command::ConfirmImport { .. }
        | Command::DiscardImport { .. } => Err(AppError::Code(ErrorCode::BadFrame)),
        // They need the sealing key and a checked address: the merchant
        // actor runs them with `webhooks::commands::run_webhook_command`.
        Command::CreateWebhookEndpoint { .. }
        | Command::UpdateWebhookEndpoint { .. }
        | Command::RollWebhookSecret { .. }
        | Command::ResendWebhookDeliveries { .. }
        | Command::SendTestWebhookEvent { .. }
        | Command::DeleteWebhookEndpoint { .. } => Err(AppError::Code(ErrorCode::BadFrame)),
        // They need the token hasher: the merchant actor runs them with
        // `api_tokens::commands::run_api_token_command`.
        Command::CreateApiToken { .. }
        | Command::RollApiToken { .. }
        | Command::RevokeApiToken { .. } => Err(AppError::Code(ErrorCode::BadFrame)),
        // They need the invite clock and the owner's checked confirmation:
        // the merchant actor runs them with `teams::run_team_command`.
        Command::InviteMember { .. }
        | Command::ResendInvite { .. }
        | Command::RevokeInvite { .. }
        | Command::ChangeMemberRole { .. }
        | Command::RemoveMember { .. }
        | Command::TransferOwnership { .. }
        | Command::CreateRole { .. }
        | Command::UpdateRole { .. }
        | Command::DeleteRole { .. } => Err(AppError::Code(ErrorCode::BadFrame)),
        // `SetSettlementAccount` needs the member's checked confirmation:
        // the merchant actor runs these with `payouts::run_payout_command`.
        Command::SetSettlementAccount { .. }
        | Command::SetPayoutSchedule { .. }
        | Command::RequestPayout { .. }
        | Command::PayoutToCustomer { .. } => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}

/// Every socket query, dispatched from this one match. `token_hash` is the
/// asking browser's session.
pub async fn run_query(
    db: &Db,
    scope: &Scope,
    token_hash: &str,
    query: &Query,
) -> AppResult<ReplyBody> {
    match query {
        Query::ListCustomers {
            search,
            status,
            cursor,
            limit,
        } => {
            customers::list_customers(
                db,
                scope,
                search.as_deref(),
                *status,
                cursor.as_deref(),
                *limit,
            )
            .await
        }
        Query::GetCustomer { customer_id } => customers::get_customer(db, scope, customer_id).await,
        Query::GetProfile {} => accounts::get_profile(db, &scope.user_id).await,
        Query::ListSessions {} => accounts::list_sessions(db, &scope.user_id, token_hash).await,
        Query::GetBusinessInfo {} => business::get_business_info(db, scope).await,
        Query::ListBankAccounts { customer_id } => {
            banking::list_bank_accounts(db, scope, customer_id).await
        }
        Query::ListMandates {
            filter,
            sort,
            cursor,
            limit,
        } => mandates::list_mandates(db, scope, filter, *sort, cursor.as_deref(), *limit).await,
        Query::GetMandate { mandate_id } => mandates::get_mandate(db, scope, mandate_id).await,
        Query::ListPayments {
            kind,
            filter,
            sort,
            cursor,
            limit,
        } => {
            payments::list_payments(db, scope, *kind, filter, *sort, cursor.as_deref(), *limit)
                .await
        }
        Query::GetPayment { payment_id } => payments::get_payment(db, scope, payment_id).await,
        Query::ListTransactions {
            filter,
            sort,
            cursor,
            limit,
        } => {
            transactions::list_transactions(db, scope, filter, *sort, cursor.as_deref(), *limit)
                .await
        }
        Query::GetTransaction { transaction_id } => {
            transactions::get_transaction(db, scope, transaction_id).await
        }
        Query::GetDashboard {} => transactions::get_dashboard(db, scope).await,
        Query::GetInsights {
            from,
            to,
            bucket,
            method,
        } => insights::get_insights(db, scope, (from, to), *bucket, *method).await,
        Query::GetBalance {} => ledger::get_balance(db, scope).await,
        Query::GetPayoutSettings {} => payouts::get_settings(db, scope).await,
        Query::ListPayouts { cursor, limit } => {
            payouts::list_payouts(db, scope, cursor.as_deref(), *limit).await
        }
        Query::GetPayout { payout_id } => payouts::get_payout(db, scope, payout_id).await,
        Query::GetPaymentMethodSettings {} => payment_methods::get_settings(db, scope).await,
        Query::ListImports {
            kind,
            cursor,
            limit,
        } => imports::queries::list_imports(db, scope, *kind, cursor.as_deref(), *limit).await,
        Query::GetImport { import_id } => imports::queries::get_import(db, scope, import_id).await,
        Query::ListImportIssues {
            import_id,
            offset,
            limit,
        } => imports::queries::list_import_issues(db, scope, import_id, *offset, *limit).await,
        Query::DownloadImportTemplate {
            template,
            kind,
            offset,
        } => imports::queries::download_template(db, scope, *template, *kind, *offset).await,
        Query::ListPayPages { cursor, limit } => {
            commerce::pages::list_pages(db, scope, cursor.as_deref(), *limit).await
        }
        Query::GetPayPage { page_id } => commerce::pages::get_page(db, scope, page_id).await,
        Query::ListOrders {
            filter,
            cursor,
            limit,
        } => commerce::orders::list_orders(db, scope, filter, cursor.as_deref(), *limit).await,
        Query::GetOrder { order_id } => commerce::orders::get_order(db, scope, order_id).await,
        Query::ListCards {
            customer_id,
            cursor,
            limit,
        } => {
            commerce::cards::list_cards(
                db,
                scope,
                customer_id.as_deref(),
                cursor.as_deref(),
                *limit,
            )
            .await
        }
        Query::ListEMandateRequests { cursor, limit } => {
            e_mandates::list(db, scope, cursor.as_deref(), *limit).await
        }
        Query::GetTeam {} => teams::get_team(db, scope).await,
        Query::ListRoles {} => roles::list(db, scope).await,
        Query::ListWebhookEndpoints {} => webhooks::queries::list_endpoints(db, scope).await,
        Query::DownloadAccountingExport { from, to, offset } => {
            accounting_export::download(db, scope, from, to, *offset).await
        }
        Query::GetStatement { from, to, offset } => {
            statements::get_statement(db, scope, from, to, *offset).await
        }
        Query::DownloadStatement {
            from,
            to,
            format,
            language,
            offset,
        } => statements::download(db, scope, (from, to), *format, *language, *offset).await,
        Query::ListApiTokens {} => api_tokens::list(db, scope).await,
        Query::ListWebhookDeliveries { endpoint_id } => {
            webhooks::queries::list_deliveries(db, scope, endpoint_id).await
        }
        Query::ListHistory {
            filter,
            cursor,
            limit,
        } => history::list_history(db, scope, filter, cursor.as_deref(), *limit).await,
        Query::GetHistoryEntry { entry_id } => history::get_entry(db, scope, entry_id).await,
        Query::LocateRecord { record_id } => {
            record_places::locate_record(db, scope, record_id).await
        }
        Query::GetBusinessDate {} => transactions::business_date(db, scope).await,
        Query::Search { text } => search::search(db, scope, text).await,
        Query::GetLastEdit {
            record_kind,
            record_id,
        } => history::last_edit(db, scope, *record_kind, record_id).await,
        Query::DownloadHistory {
            filter,
            language,
            cursor,
        } => history_export::download(db, scope, filter, *language, cursor.as_deref()).await,
        // Uploads live in the server's memory, not the database: the session
        // answers these from `live::uploads` before they get here.
        Query::GetImportPreview { .. }
        | Query::GetImportPreviewDuplicates { .. }
        | Query::DownloadImportIssues { .. } => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}
