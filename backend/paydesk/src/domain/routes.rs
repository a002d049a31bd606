//! The one routing table of every socket command and query: where it runs,
//! what it needs of the member (a section and an access, decided by
//! `permissions`), and whether the scheduler has work
//! after it. The matches are exhaustive on purpose: a new command or query
//! does not compile until it is routed here.

use protocol::{Command, HistoryRecordKind, OrderAction, Query, UnpaidAction};

use super::permissions::{Access, Section};

/// Where a command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// The signed-in user's own account, beside any merchant's stream.
    Account,
    /// A spreadsheet upload held in the server's memory until confirmed
    /// (confirming writes one event of its own).
    Upload,
    /// The merchant actor's queue: one event of the merchant's stream.
    Merchant,
}

pub use super::permissions::Needs;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandRoute {
    pub runs: Runs,
    pub needs: Needs,
    /// Something may be due today after it, so the scheduler plays the
    /// stream at once instead of at its next round.
    pub wakes_scheduler: bool,
    /// An API token may send it (when its matrix grants `needs`). What only
    /// a person may decide is refused to every token with `forbidden`: their
    /// own account; who is on the team and with what role, and who owns the
    /// business (a leaked token must not make itself a person with a
    /// sign-in); and where the money is paid out, which takes a password.
    pub tokens: bool,
}

const ACCOUNT: CommandRoute = CommandRoute {
    runs: Runs::Account,
    needs: Needs::OwnAccount,
    wakes_scheduler: false,
    tokens: false,
};

const fn upload(section: Section) -> CommandRoute {
    CommandRoute {
        runs: Runs::Upload,
        needs: Needs::write(section),
        wakes_scheduler: false,
        tokens: true,
    }
}

const fn merchant(needs: Needs) -> CommandRoute {
    CommandRoute {
        runs: Runs::Merchant,
        needs,
        wakes_scheduler: false,
        tokens: true,
    }
}

/// A merchant's command that only a person may send (see `tokens`).
const fn people_only(needs: Needs) -> CommandRoute {
    CommandRoute {
        tokens: false,
        ..merchant(needs)
    }
}

const fn collections(section: Section) -> CommandRoute {
    CommandRoute {
        wakes_scheduler: true,
        ..merchant(Needs::write(section))
    }
}

pub fn command_route(command: &Command) -> CommandRoute {
    use Command as C;
    use Section as S;
    let write = |section| merchant(Needs::write(section));
    match command {
        C::UpdateProfile { .. }
        | C::SetLanguage { .. }
        | C::ChangePassword { .. }
        | C::ChangeEmail { .. }
        | C::ResendVerification {}
        | C::BeginTwoFactor {}
        | C::ConfirmTwoFactor { .. }
        | C::DisableTwoFactor { .. }
        | C::RegenerateBackupCodes { .. }
        | C::SignOutSession { .. }
        | C::SignOutOtherSessions {} => ACCOUNT,
        C::BeginImport { .. }
        | C::UploadImportChunk { .. }
        | C::CheckImport { .. }
        | C::ConfirmImport { .. }
        | C::DiscardImport { .. } => upload(S::Imports),
        C::CreatePayment { .. } | C::ActOnPayment { .. } => collections(S::Payments),
        C::ActOnMandate { .. } => collections(S::Mandates),
        // A re-presentation may fall due today; a new mandate is the
        // mandates section's, a pay page the pay pages'.
        C::ActOnUnpaid { action, .. } => match action {
            UnpaidAction::Represent { .. } => collections(S::Payments),
            UnpaidAction::EmailPayer { .. } => write(S::Payments),
            UnpaidAction::SendPayLink { .. } => write(S::PayPages),
            UnpaidAction::RequestMandate { .. } => write(S::Mandates),
        },
        // Plays the test stream's days: payments fall due and are collected.
        C::AdvanceTestClock { .. } => collections(S::Payments),
        // A customer's bank accounts and saved cards are the customer's.
        C::CreateCustomer { .. }
        | C::UpdateCustomer { .. }
        | C::ArchiveCustomer { .. }
        | C::RestoreCustomer { .. }
        | C::AddBankAccount { .. }
        | C::RemoveBankAccount { .. }
        | C::RemoveCard { .. } => write(S::Customers),
        C::ChargeCard { .. } | C::StopCardSchedule { .. } => write(S::Payments),
        // A schedule starting today is charged by the day's scheduler step.
        C::ScheduleCard { .. } => collections(S::Payments),
        C::UpdateBusinessInfo { .. } | C::UpdatePaymentMethodSettings { .. } => write(S::Settings),
        // Binds every member of the merchant: the owner's decision.
        C::RequireTwoFactor { .. } => people_only(Needs::Owner),
        C::CreatePayPage { .. }
        | C::UpdatePayPage { .. }
        | C::SetPayPageActive { .. }
        | C::SetPayPageLogo { .. } => write(S::PayPages),
        // Money going back out is the refunds section's; the rest of an
        // order's life is the orders section's.
        C::ActOnOrder { action, .. } => match action {
            OrderAction::Refund => write(S::Refunds),
            OrderAction::Cancel => write(S::Orders),
        },
        C::RequestEMandate { .. }
        | C::ResendEMandateRequest { .. }
        | C::CancelEMandateRequest { .. } => write(S::Mandates),
        C::CreateWebhookEndpoint { .. }
        | C::UpdateWebhookEndpoint { .. }
        | C::RollWebhookSecret { .. }
        | C::ResendWebhookDeliveries { .. }
        | C::SendTestWebhookEvent { .. }
        | C::DeleteWebhookEndpoint { .. }
        | C::CreateApiToken { .. }
        | C::RollApiToken { .. }
        | C::RevokeApiToken { .. } => write(S::Developers),
        // Owners and admins; the role ceiling is the team domain's.
        C::InviteMember { .. }
        | C::ResendInvite { .. }
        | C::RevokeInvite { .. }
        | C::ChangeMemberRole { .. }
        | C::RemoveMember { .. }
        | C::CreateRole { .. }
        | C::UpdateRole { .. }
        | C::DeleteRole { .. } => people_only(Needs::write(S::Team)),
        C::TransferOwnership { .. } => people_only(Needs::Owner),
        // The merchant's own bank details are settings (owners and admins);
        // the domain also asks for the member's password or code.
        C::SetSettlementAccount { .. } => people_only(Needs::write(S::Settings)),
        // A new payout is submitted by the scheduler's step of today.
        C::SetPayoutSchedule { .. } | C::RequestPayout { .. } | C::PayoutToCustomer { .. } => {
            collections(S::Payouts)
        }
    }
}

/// The section whose readers may read a record of `kind`. Sign-ins
/// (`account`) are the history's.
pub fn record_section(kind: HistoryRecordKind) -> Section {
    use HistoryRecordKind as K;
    match kind {
        K::Customer | K::BankAccount | K::Card => Section::Customers,
        K::Mandate | K::EMandateRequest => Section::Mandates,
        K::Payment => Section::Payments,
        K::Transaction => Section::Transactions,
        K::Import => Section::Imports,
        K::PayPage => Section::PayPages,
        K::Order => Section::Orders,
        K::WebhookEndpoint | K::ApiToken => Section::Developers,
        K::Member | K::Invite | K::Role | K::TwoFactorPolicy => Section::Team,
        K::BusinessInfo | K::PaymentMethodSettings => Section::Settings,
        K::Payout | K::PayoutSettings => Section::Payouts,
        K::BusinessClock | K::Account => Section::History,
    }
}

/// Where a query is answered from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// The database.
    Database,
    /// An upload in the server's memory (or, for an import's problems
    /// already confirmed, the database by way of the upload store).
    Upload,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryRoute {
    pub answers: Answers,
    pub needs: Needs,
}

pub fn query_route(query: &Query) -> QueryRoute {
    use Query as Q;
    use Section as S;
    let read = |section| QueryRoute {
        answers: Answers::Database,
        needs: Needs::Section(section, Access::Read),
    };
    match query {
        // Where a record is, among the user's own teams: theirs to know
        // whatever their role here.
        Q::GetProfile {} | Q::ListSessions {} | Q::LocateRecord { .. } | Q::GetBusinessDate {} => {
            QueryRoute {
                answers: Answers::Database,
                needs: Needs::OwnAccount,
            }
        }
        // Every member may search; each kind of record is looked through
        // only when the member reads its section (`search::search`), so a
        // role sees no hit it could not open.
        Q::Search { .. } => QueryRoute {
            answers: Answers::Database,
            needs: Needs::OwnAccount,
        },
        Q::GetImportPreview { .. }
        | Q::GetImportPreviewDuplicates { .. }
        | Q::DownloadImportIssues { .. } => QueryRoute {
            answers: Answers::Upload,
            needs: Needs::read(S::Imports),
        },
        Q::ListCustomers { .. }
        | Q::GetCustomer { .. }
        | Q::ListBankAccounts { .. }
        | Q::ListCards { .. } => read(S::Customers),
        Q::GetBusinessInfo {} | Q::GetPaymentMethodSettings {} => read(S::Settings),
        Q::ListMandates { .. } | Q::GetMandate { .. } => read(S::Mandates),
        Q::ListPayments { .. } | Q::GetPayment { .. } => read(S::Payments),
        Q::ListTransactions { .. } | Q::GetTransaction { .. } => read(S::Transactions),
        Q::GetDashboard {} => read(S::Insights),
        Q::GetInsights { .. } => read(S::Insights),
        Q::GetBalance {}
        | Q::GetPayoutSettings {}
        | Q::ListPayouts { .. }
        | Q::GetPayout { .. } => read(S::Payouts),
        Q::DownloadImportTemplate { .. }
        | Q::ListImports { .. }
        | Q::GetImport { .. }
        | Q::ListImportIssues { .. } => read(S::Imports),
        Q::ListPayPages { .. } | Q::GetPayPage { .. } => read(S::PayPages),
        Q::ListOrders { .. } | Q::GetOrder { .. } => read(S::Orders),
        Q::ListEMandateRequests { .. } => read(S::Mandates),
        Q::ListWebhookEndpoints {} | Q::ListWebhookDeliveries { .. } | Q::ListApiTokens {} => {
            read(S::Developers)
        }
        Q::DownloadAccountingExport { .. } => read(S::Exports),
        // The statement is the merchant's money for the accountant: the
        // exports section's, like the accounting export.
        Q::GetStatement { .. } | Q::DownloadStatement { .. } => read(S::Exports),
        Q::GetTeam {} | Q::ListRoles {} => read(S::Team),
        // Each entry is shown only if its own section is readable too.
        // The export too: it holds only what the list would show.
        Q::ListHistory { .. } | Q::GetHistoryEntry { .. } | Q::DownloadHistory { .. } => {
            read(S::History)
        }
        // Who changed a record is told to those who may read the record.
        Q::GetLastEdit { record_kind, .. } => read(record_section(*record_kind)),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn collections_commands_wake_the_scheduler() {
        let clock = Command::AdvanceTestClock {
            step: protocol::ClockStep::Day,
        };
        assert!(command_route(&clock).wakes_scheduler);
        assert_eq!(command_route(&clock).runs, Runs::Merchant);
        let profile = Command::ResendVerification {};
        assert_eq!(command_route(&profile), ACCOUNT);
    }

    #[test]
    fn refunds_and_order_cancels_need_different_sections() {
        let act = |action| Command::ActOnOrder {
            order_id: "ord_1".into(),
            action,
            amount_cents: None,
        };
        assert_eq!(
            command_route(&act(OrderAction::Refund)).needs,
            Needs::write(Section::Refunds)
        );
        assert_eq!(
            command_route(&act(OrderAction::Cancel)).needs,
            Needs::write(Section::Orders)
        );
    }

    #[test]
    fn webhook_commands_need_developer_write_access() {
        let roll = Command::RollWebhookSecret {
            endpoint_id: "whe_1".into(),
        };
        assert_eq!(
            command_route(&roll),
            merchant(Needs::write(Section::Developers))
        );
        let viewer = super::super::permissions::Grant::preset(protocol::Role::Viewer).unwrap();
        assert!(!viewer.allows(command_route(&roll).needs));
    }

    #[test]
    fn tokens_send_neither_team_nor_account_commands() {
        let invite = Command::InviteMember {
            email: "a@example.co.za".into(),
            role: protocol::Role::Viewer,
            role_id: None,
        };
        assert!(!command_route(&invite).tokens);
        assert_eq!(command_route(&invite).needs, Needs::write(Section::Team));
        assert!(!command_route(&Command::ResendVerification {}).tokens);
        let revoke = Command::RevokeApiToken {
            token_id: "tok_1".into(),
        };
        assert!(command_route(&revoke).tokens);
    }

    #[test]
    fn own_account_commands_need_no_section_and_policies_need_the_owner() {
        // A viewer of a merchant still changes their own password.
        let viewer = super::super::permissions::Grant::preset(protocol::Role::Viewer).unwrap();
        assert!(viewer.allows(command_route(&Command::SignOutOtherSessions {}).needs));
        assert!(viewer.allows(query_route(&Query::GetProfile {}).needs));
        let policy = Command::RequireTwoFactor { required: true };
        assert_eq!(command_route(&policy).needs, Needs::Owner);
    }
}
