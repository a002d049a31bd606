//! The one routing table of every socket command and query: where it runs,
//! what it needs of the member's role, and whether the scheduler has work
//! after it. The matches are exhaustive on purpose: a new command or query
//! does not compile until it is routed here.

use protocol::{Command, Query, Role};

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

/// What a command or query needs of the member's role on the merchant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Only that the user is signed in: their own account.
    OwnAccount,
    /// Any member may read.
    Read,
    /// Members who may change the merchant's data.
    Write,
}

impl Needs {
    pub fn allows(self, role: Role) -> bool {
        match self {
            Needs::OwnAccount | Needs::Read => true,
            Needs::Write => role.can_write(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommandRoute {
    pub runs: Runs,
    pub needs: Needs,
    /// Something may be due today after it, so the scheduler plays the
    /// stream at once instead of at its next round.
    pub wakes_scheduler: bool,
}

const ACCOUNT: CommandRoute = CommandRoute {
    runs: Runs::Account,
    needs: Needs::OwnAccount,
    wakes_scheduler: false,
};
const UPLOAD: CommandRoute = CommandRoute {
    runs: Runs::Upload,
    needs: Needs::Write,
    wakes_scheduler: false,
};
const MERCHANT: CommandRoute = CommandRoute {
    runs: Runs::Merchant,
    needs: Needs::Write,
    wakes_scheduler: false,
};
const MERCHANT_COLLECTIONS: CommandRoute = CommandRoute {
    wakes_scheduler: true,
    ..MERCHANT
};

pub fn command_route(command: &Command) -> CommandRoute {
    use Command as C;
    match command {
        C::UpdateProfile { .. }
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
        | C::DiscardImport { .. } => UPLOAD,
        C::CreatePayment { .. }
        | C::ActOnPayment { .. }
        | C::ActOnMandate { .. }
        | C::AdvanceTestClock { .. } => MERCHANT_COLLECTIONS,
        C::CreateCustomer { .. }
        | C::UpdateCustomer { .. }
        | C::ArchiveCustomer { .. }
        | C::RestoreCustomer { .. }
        | C::UpdateBusinessInfo { .. }
        | C::RequireTwoFactor { .. }
        | C::AddBankAccount { .. }
        | C::RemoveBankAccount { .. }
        | C::UpdatePaymentMethodSettings { .. }
        | C::CreatePayPage { .. }
        | C::UpdatePayPage { .. }
        | C::SetPayPageActive { .. }
        | C::SetPayPageLogo { .. }
        | C::ActOnOrder { .. }
        | C::RemoveCard { .. }
        | C::ChargeCard { .. } => MERCHANT,
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
    let database = |needs| QueryRoute {
        answers: Answers::Database,
        needs,
    };
    match query {
        Q::GetProfile {} | Q::ListSessions {} => database(Needs::OwnAccount),
        Q::GetImportPreview { .. }
        | Q::GetImportPreviewDuplicates { .. }
        | Q::DownloadImportIssues { .. } => QueryRoute {
            answers: Answers::Upload,
            needs: Needs::Read,
        },
        Q::ListCustomers { .. }
        | Q::GetCustomer { .. }
        | Q::GetBusinessInfo {}
        | Q::ListBankAccounts { .. }
        | Q::ListMandates { .. }
        | Q::GetMandate { .. }
        | Q::ListPayments { .. }
        | Q::GetPayment { .. }
        | Q::ListTransactions { .. }
        | Q::GetTransaction { .. }
        | Q::GetDashboard {}
        | Q::GetBalance {}
        | Q::GetPaymentMethodSettings {}
        | Q::DownloadImportTemplate { .. }
        | Q::ListImports { .. }
        | Q::GetImport { .. }
        | Q::ListImportIssues { .. }
        | Q::ListPayPages { .. }
        | Q::GetPayPage { .. }
        | Q::ListOrders { .. }
        | Q::GetOrder { .. }
        | Q::ListCards { .. } => database(Needs::Read),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viewers_read_but_never_write_the_merchants_data() {
        assert!(Needs::Read.allows(Role::Viewer));
        assert!(Needs::OwnAccount.allows(Role::Viewer));
        assert!(!Needs::Write.allows(Role::Viewer));
        for role in [Role::Owner, Role::Admin, Role::Member] {
            assert!(Needs::Write.allows(role));
        }
    }

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
}
