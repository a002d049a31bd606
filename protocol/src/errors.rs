use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Stable error codes. Each one is also a translation key: `errors.<code>` in
/// `locales/en.json` and `locales/afr.json`.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // Socket and authorisation
    Unauthenticated,
    Forbidden,
    NotFound,
    BadFrame,
    NotWelcomed,
    CommandIdReused,
    TooManySockets,
    Internal,
    /// The database could not take the request in time; the same request
    /// succeeds when tried again.
    Busy,
    // Validation, per field
    InvalidInput,
    Required,
    TooLong,
    InvalidCharacters,
    InvalidEmail,
    BlockedEmailDomain,
    InvalidCellphone,
    InvalidSaId,
    InvalidPostalCode,
    /// Not ten digits starting with 4.
    InvalidVatNumber,
    /// Not a company registration number, `YYYY/NNNNNN/NN`.
    InvalidRegistrationNumber,
    /// An API token's allowed address that is neither an IP address nor a
    /// range of them.
    InvalidIpAddress,
    DuplicateReference,
    // Customer lifecycle
    AlreadyArchived,
    NotArchived,
    /// A teammate saved the record since this edit began: nothing was
    /// written; `conflict` names their fields and current values.
    EditConflict,
    // Sign-up and sign-in
    EmailTaken,
    WeakPassword,
    CommonPassword,
    CsrfInvalid,
    RateLimited,
    // Accounts
    WrongPassword,
    InvalidCode,
    TwoFactorAlreadyEnabled,
    TwoFactorNotEnabled,
    TwoFactorNotStarted,
    InvalidToken,
    SameEmail,
    OwnersOnly,
    TwoFactorSetupRequired,
    // Team
    /// The invite link was used, revoked, replaced or has expired.
    InviteInvalid,
    /// The invite was sent to another address than the signed-in user's.
    InviteWrongAddress,
    /// A role above the acting member's own.
    RoleAboveYours,
    AlreadyMember,
    /// The owner's role changes only by handing the ownership on.
    OwnerRoleFixed,
    /// A custom role still held by members or pending invites.
    RoleInUse,
    /// Another custom role of the merchant has that name.
    RoleNameTaken,
    // Banking
    BranchCodeMismatch,
    /// A branch code that is not six digits.
    InvalidBranchCode,
    InvalidAccountNumber,
    /// An account number with more or fewer digits than the bank's numbers have.
    AccountNumberLength,
    DuplicateBankAccount,
    // Collections
    MethodNotEnabled,
    DebicheckIndividualsOnly,
    InvalidDate,
    /// A spreadsheet cell that is no date in any of the forms an import reads.
    InvalidSpreadsheetDate,
    DateInPast,
    EndNotAfterStart,
    /// A date range longer than the most one request covers.
    DateRangeTooLong,
    DayToProcessOutOfRange,
    InvalidAmount,
    MaximumBelowAmount,
    MaximumAboveDebicheckLimit,
    TrackingDaysOutOfRange,
    TrackingNotAllowed,
    AdjustmentTypeRequired,
    AdjustmentValueRequired,
    InvalidRate,
    MandateNotUsable,
    ActionNotAllowed,
    /// The available balance does not cover the money asked to go out.
    InsufficientBalance,
    /// A refund larger than what is left of the order to refund.
    RefundExceedsRemaining,
    /// Payouts need a settlement account first.
    NoSettlementAccount,
    /// The bank's account verification found no such account.
    BankAccountNotFound,
    /// The bank's account verification found the account closed.
    BankAccountClosed,
    /// The bank's account verification has the account in another name.
    BankAccountHolderMismatch,
    /// The bank's account verification has the account as another type.
    BankAccountTypeMismatch,
    /// The bank's account verification says the account takes no debit orders.
    BankAccountNoDebits,
    /// A payout must be more than its fee.
    PayoutBelowFee,
    RetryNotAllowed,
    /// Only a debit order the bank returned unpaid can be followed up so.
    NotUnpaid,
    /// The payer already has a debit under the mandate on that day.
    DayTaken,
    /// A re-presentation past the payment's next debit after it.
    RepresentationTooLate,
    TestModeOnly,
    // Spreadsheet import: the file as a whole
    ImportTooLarge,
    ImportUnsupportedFormat,
    ImportUnreadable,
    ImportEncoding,
    ImportTooManyRows,
    ImportTooManyColumns,
    ImportSheetTooLarge,
    ImportEmpty,
    ImportMissingColumn,
    ImportDuplicateColumn,
    ImportUploadNotFound,
    ImportUploadIncomplete,
    ImportNothingValid,
    /// The same file was imported before in this mode; confirming needs the user's explicit choice.
    ImportDuplicateFile,
    // Spreadsheet import: one cell
    InvalidChoice,
    InvalidNumber,
    InvalidBoolean,
    NotAllowedForTemplate,
    CustomerArchived,
    /// A row repeats a payment that exists already.
    DuplicatePayment,
    /// A row repeats an earlier row of the same file.
    DuplicateRow,
    // Pay pages
    InvalidColour,
    InvalidUrl,
    MinimumAboveMaximum,
    MethodNotForPage,
    IntervalRequired,
    InvalidImage,
    ImageTooLarge,
    // The pay page's payer
    AmountBelowMinimum,
    AmountAboveMaximum,
    CardNumberInvalid,
    /// One of the published test cards, on a live page.
    TestCardInLiveMode,
    CardExpired,
    InvalidExpiry,
    InvalidCvv,
    CardDeclined,
    InsufficientFunds,
    AuthenticationFailed,
    PaymentCancelled,
    /// The payer left the 3-D Secure or bank step unanswered past its expiry.
    PaymentAbandoned,
    PageExpired,
    PageUsedUp,
    // Electronic mandate requests
    MethodNotForEMandate,
    EMandateClosed,
    /// The payer chose an amount above the mandate's maximum.
    AmountAboveMandateMaximum,
    /// Collections start on a business day (not a weekend or public holiday).
    NotBusinessDay,
    // Webhooks
    /// A webhook address is, or resolves to, a loopback, private,
    /// link-local or metadata address.
    WebhookAddressForbidden,
    /// A webhook address whose name does not resolve.
    WebhookAddressUnresolved,
    /// Not one of the documented webhook event types.
    UnknownEventType,
    // The machine API
    /// A write to `/api/v1` came without an `Idempotency-Key` header.
    IdempotencyKeyRequired,
    /// A request with the same `Idempotency-Key` is still running.
    IdempotencyKeyInUse,
    /// A request body past the API's limit (256 KiB).
    PayloadTooLarge,
    /// A path the API serves, under another method (see `Allow`).
    MethodNotAllowed,
    /// A JSON body sent without `Content-Type: application/json`.
    UnsupportedMediaType,
}

/// One field's problem, for forms to show beside the field.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FieldError {
    pub field: String,
    pub code: ErrorCode,
}

/// The error half of a `Reply`.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct WireError {
    pub code: ErrorCode,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<FieldError>>")]
    pub fields: Vec<FieldError>,
    /// With `edit_conflict`: what changed since the edit's base version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub conflict: Option<EditConflict>,
}

/// A save refused because the record moved on since the edit began.
#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct EditConflict {
    /// The record's version now: save again with this as the base.
    #[ts(type = "number")]
    pub version: u64,
    /// The fields changed since the base version, with their values now.
    pub fields: Vec<FieldConflict>,
}

#[derive(Serialize, Deserialize, TS, JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FieldConflict {
    /// The field's wire name (`city`, `idNumber`).
    pub field: String,
    /// Its value now, as text (empty when blank).
    pub theirs: String,
}

impl WireError {
    pub fn new(code: ErrorCode) -> Self {
        WireError {
            code,
            fields: Vec::new(),
            conflict: None,
        }
    }
}
