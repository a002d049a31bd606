//! The signed-in user's own account: profile, password, e-mail address,
//! two-factor sign-in and sessions. These commands touch no merchant data,
//! so they run beside the merchant's stream, not through it.

use protocol::{
    Command, ErrorCode, HistoryAction, HistoryEntry, Language, Profile, ReplyBody, UserView,
};

use super::mail::{Notice, Template, compose};
use super::notices::{Happened, notify, recipient, warn_second_factor_failed};
use super::rules;
use super::sign_in::password_replaced;
use crate::auth::keys::Keys;
use crate::auth::throttle::Throttle;
use crate::auth::{backup_codes, password, totp};
use crate::error::{AppError, AppResult};
use crate::store::accounts::{self as store, Account};
use crate::store::links::{self, Purpose};
use crate::store::{Db, Tx, history, mail, sessions, users};

/// Verification links live one day.
pub const VERIFY_EMAIL_SECONDS: i64 = 24 * 3600;

/// Who is asking, from which browser session.
pub struct AccountScope<'a> {
    pub user_id: &'a str,
    pub token_hash: &'a str,
    /// Builds links in mail (the configured public origin).
    pub public_origin: &'a str,
    /// The client's address, told to the owner in security notices.
    pub address: &'a str,
    /// Seal two-factor secrets and key backup codes.
    pub keys: &'a Keys,
}

impl AccountScope<'_> {
    fn happened(&self) -> Happened<'_> {
        Happened {
            address: self.address,
            public_origin: self.public_origin,
        }
    }
}

/// A two-factor change of the user's account, for the history of every
/// merchant they are a member of: from where and which browser.
async fn record_in_history(
    tx: &mut Tx,
    scope: &AccountScope<'_>,
    action: HistoryAction,
) -> AppResult<HistoryEntry> {
    let user_agent: Option<String> =
        sqlx::query_scalar("SELECT user_agent FROM sessions WHERE token_hash = $1")
            .bind(scope.token_hash)
            .fetch_optional(&mut **tx)
            .await?;
    history::record_account(
        tx,
        &history::AccountEvent {
            user_id: scope.user_id,
            action,
            address: Some(scope.address),
            user_agent: user_agent.as_deref(),
        },
    )
    .await
}

/// A reply, and the browser sessions whose sockets must now close.
pub struct AccountOutcome {
    pub reply: ReplyBody,
    pub ended_sessions: Vec<String>,
    /// A history entry of the account to announce to the tabs of every
    /// merchant the user belongs to (`history::announce_account`).
    pub announce: Option<HistoryEntry>,
}

impl From<ReplyBody> for AccountOutcome {
    fn from(reply: ReplyBody) -> Self {
        AccountOutcome {
            reply,
            ended_sessions: Vec::new(),
            announce: None,
        }
    }
}

async fn account(db: &Db, user_id: &str) -> AppResult<Account> {
    store::find_account(db, user_id)
        .await?
        .ok_or(AppError::Code(ErrorCode::Unauthenticated))
}

async fn check_password(account: &Account, password: &str, field: &str) -> AppResult<()> {
    if password::verify_password(password.to_string(), Some(account.password_hash.clone())).await? {
        Ok(())
    } else {
        Err(AppError::field(field, ErrorCode::WrongPassword))
    }
}

/// Accepts a current code of the enabled secret, once.
async fn check_code(db: &Db, keys: &Keys, account: &Account, code: &str) -> AppResult<()> {
    let Some(sealed) = &account.totp_secret else {
        return Err(AppError::Code(ErrorCode::TwoFactorNotEnabled));
    };
    let secret = keys.totp.open(&account.id, sealed)?;
    let step = totp::matching_step(&secret, code, unix_seconds())?;
    match step {
        Some(step) if store::accept_totp_step(db, &account.id, step as i64).await? => Ok(()),
        _ => Err(AppError::field("code", ErrorCode::InvalidCode)),
    }
}

/// The owner confirming a step that cannot be undone by them alone: their
/// password, or a current code when they sign in with two factors (the
/// forms ask for "your password or two-factor code"). A wrong answer is
/// told as the kind it looked like: six digits as a code, else a password.
pub async fn confirm_identity(
    db: &Db,
    keys: &Keys,
    user_id: &str,
    confirmation: &str,
) -> AppResult<()> {
    let account = account(db, user_id).await?;
    let code = confirmation.trim();
    let looks_like_code = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
    if account.totp_secret.is_some()
        && looks_like_code
        && check_code(db, keys, &account, code).await.is_ok()
    {
        return Ok(());
    }
    match check_password(&account, confirmation, "confirmation").await {
        Err(AppError::Invalid(_)) if account.totp_secret.is_some() && looks_like_code => {
            Err(AppError::field("confirmation", ErrorCode::InvalidCode))
        }
        checked => checked,
    }
}

pub fn unix_seconds() -> u64 {
    (crate::ids::now_ms() / 1000) as u64
}

/// Queues a verification link for `email` (the current address or a new one).
pub async fn send_verification(
    db: &Db,
    origin: &str,
    account_id: &str,
    name: &str,
    email: &str,
    language: Language,
) -> AppResult<()> {
    let mut tx = db.begin_write().await?;
    let token = links::create_link(
        &mut tx,
        account_id,
        Purpose::VerifyEmail,
        email,
        VERIFY_EMAIL_SECONDS,
    )
    .await?;
    let link = format!("{origin}/account/teams/email/verify/{token}");
    mail::enqueue(
        &mut tx,
        &compose(Template::VerifyEmail, language, email, name, email, &link),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Wrong passwords and codes allowed per user in the throttle window before
/// the commands that check them are refused.
pub const SECRET_ATTEMPTS: u32 = 10;

fn checks_a_secret(command: &Command) -> bool {
    matches!(
        command,
        Command::ChangePassword { .. }
            | Command::ChangeEmail { .. }
            | Command::ConfirmTwoFactor { .. }
            | Command::DisableTwoFactor { .. }
            | Command::RegenerateBackupCodes { .. }
    )
}

/// Runs an account command; guessing passwords or codes through a signed-in
/// socket is throttled like sign-in is.
pub async fn run_throttled(
    db: &Db,
    scope: &AccountScope<'_>,
    throttle: &Throttle,
    command: &Command,
) -> AppResult<AccountOutcome> {
    let key = format!("secrets:{}", scope.user_id);
    let guarded = checks_a_secret(command);
    if guarded && throttle.is_blocked(&key, SECRET_ATTEMPTS) {
        return Err(AppError::Code(ErrorCode::RateLimited));
    }
    let outcome = run_account_command(db, scope, command).await;
    if guarded
        && let Err(AppError::Invalid(fields)) = &outcome
        && fields
            .iter()
            .any(|f| matches!(f.code, ErrorCode::WrongPassword | ErrorCode::InvalidCode))
    {
        throttle.record_failure(&key);
    }
    outcome
}

async fn run_account_command(
    db: &Db,
    scope: &AccountScope<'_>,
    command: &Command,
) -> AppResult<AccountOutcome> {
    let done = || Ok(AccountOutcome::from(ReplyBody::Done {}));
    match command {
        Command::UpdateProfile { name, language } => {
            let name = name.trim();
            rules::name(name, 64).map_err(|code| AppError::field("name", code))?;
            store::update_profile(db, scope.user_id, Some(name), *language).await?;
            done()
        }
        Command::SetLanguage { language } => {
            store::update_profile(db, scope.user_id, None, *language).await?;
            done()
        }
        Command::ChangePassword {
            current_password,
            new_password,
        } => {
            let account = account(db, scope.user_id).await?;
            check_password(&account, current_password, "currentPassword").await?;
            password::check_new_password(new_password)
                .map_err(|code| AppError::field("newPassword", code))?;
            let hash = password::hash_password(new_password.clone()).await?;
            let mut tx = db.begin_write().await?;
            store::set_password_hash(&mut tx, scope.user_id, &hash).await?;
            // A new password ends every other browser's session.
            let ended =
                sessions::delete_other_sessions(&mut tx, scope.user_id, Some(scope.token_hash))
                    .await?;
            password_replaced(&mut tx, &recipient(&account), &scope.happened()).await?;
            tx.commit().await?;
            Ok(AccountOutcome {
                reply: ReplyBody::Done {},
                ended_sessions: ended,
                announce: None,
            })
        }
        Command::ChangeEmail {
            new_email,
            current_password,
        } => {
            let account = account(db, scope.user_id).await?;
            check_password(&account, current_password, "currentPassword").await?;
            let new_email = new_email.trim().to_lowercase();
            rules::email(&new_email).map_err(|code| AppError::field("newEmail", code))?;
            if new_email == account.email {
                return Err(AppError::field("newEmail", ErrorCode::SameEmail));
            }
            if users::find_credentials_by_email(db, &new_email)
                .await?
                .is_some()
            {
                return Err(AppError::field("newEmail", ErrorCode::EmailTaken));
            }
            let mut tx = db.begin_write().await?;
            store::set_pending_email(&mut tx, scope.user_id, Some(&new_email)).await?;
            tx.commit().await?;
            send_verification(
                db,
                scope.public_origin,
                scope.user_id,
                &account.name,
                &new_email,
                account.language,
            )
            .await?;
            done()
        }
        Command::ResendVerification {} => {
            let account = account(db, scope.user_id).await?;
            let target = match (&account.pending_email, account.email_verified) {
                (Some(pending), _) => pending.clone(),
                (None, false) => account.email.clone(),
                (None, true) => return done(),
            };
            send_verification(
                db,
                scope.public_origin,
                scope.user_id,
                &account.name,
                &target,
                account.language,
            )
            .await?;
            done()
        }
        Command::BeginTwoFactor {} => {
            let account = account(db, scope.user_id).await?;
            if account.totp_secret.is_some() {
                return Err(AppError::Code(ErrorCode::TwoFactorAlreadyEnabled));
            }
            let secret = totp::new_secret()?;
            let sealed = scope.keys.totp.seal(scope.user_id, &secret)?;
            store::set_pending_totp(db, scope.user_id, Some(&sealed)).await?;
            let otpauth_url = totp::otpauth_url(&secret, &account.email)?;
            Ok(ReplyBody::TwoFactorEnrolment {
                secret,
                otpauth_url,
            }
            .into())
        }
        Command::ConfirmTwoFactor { code } => {
            let account = account(db, scope.user_id).await?;
            if account.totp_secret.is_some() {
                return Err(AppError::Code(ErrorCode::TwoFactorAlreadyEnabled));
            }
            let Some(pending) = &account.totp_pending_secret else {
                return Err(AppError::Code(ErrorCode::TwoFactorNotStarted));
            };
            let secret = scope.keys.totp.open(scope.user_id, pending)?;
            let step = totp::matching_step(&secret, code, unix_seconds())?
                .ok_or_else(|| AppError::field("code", ErrorCode::InvalidCode))?;
            let sealed = scope.keys.totp.seal(scope.user_id, &secret)?;
            let codes = backup_codes::new_codes()?;
            let mut tx = db.begin_write().await?;
            store::set_totp(&mut tx, scope.user_id, Some(&sealed), step as i64).await?;
            store::replace_backup_codes(&mut tx, scope.user_id, &stored_forms(scope, &codes))
                .await?;
            let entry = record_in_history(&mut tx, scope, HistoryAction::TwoFactorEnabled).await?;
            tx.commit().await?;
            Ok(AccountOutcome {
                announce: Some(entry),
                ..ReplyBody::BackupCodes { codes }.into()
            })
        }
        Command::DisableTwoFactor { password, code } => {
            let account = account(db, scope.user_id).await?;
            check_password(&account, password, "password").await?;
            let checked = check_code(db, scope.keys, &account, code).await;
            if let Err(AppError::Invalid(_)) = &checked {
                // The right password with a wrong code: the owner hears of it.
                let mut tx = db.begin_write().await?;
                warn_second_factor_failed(&mut tx, &recipient(&account), &scope.happened()).await?;
                tx.commit().await?;
            }
            checked?;
            let mut tx = db.begin_write().await?;
            store::set_totp(&mut tx, scope.user_id, None, 0).await?;
            store::replace_backup_codes(&mut tx, scope.user_id, &[]).await?;
            let entry = record_in_history(&mut tx, scope, HistoryAction::TwoFactorDisabled).await?;
            let owner = recipient(&account);
            notify(
                &mut tx,
                &owner,
                Notice::TwoFactorDisabled,
                &scope.happened(),
            )
            .await?;
            tx.commit().await?;
            Ok(AccountOutcome {
                announce: Some(entry),
                ..ReplyBody::Done {}.into()
            })
        }
        Command::RegenerateBackupCodes { code } => {
            let account = account(db, scope.user_id).await?;
            check_code(db, scope.keys, &account, code).await?;
            let codes = backup_codes::new_codes()?;
            let mut tx = db.begin_write().await?;
            store::replace_backup_codes(&mut tx, scope.user_id, &stored_forms(scope, &codes))
                .await?;
            tx.commit().await?;
            Ok(ReplyBody::BackupCodes { codes }.into())
        }
        Command::SignOutSession { session_id } => {
            let ended = sessions::delete_session_by_public_id(db, scope.user_id, session_id)
                .await?
                .ok_or(AppError::Code(ErrorCode::NotFound))?;
            Ok(AccountOutcome {
                reply: ReplyBody::Done {},
                ended_sessions: vec![ended],
                announce: None,
            })
        }
        Command::SignOutOtherSessions {} => {
            let mut tx = db.begin_write().await?;
            let ended =
                sessions::delete_other_sessions(&mut tx, scope.user_id, Some(scope.token_hash))
                    .await?;
            tx.commit().await?;
            Ok(AccountOutcome {
                reply: ReplyBody::Done {},
                ended_sessions: ended,
                announce: None,
            })
        }
        // The merchant's commands and uploads (`routes::command_route`).
        Command::CreateCustomer { .. }
        | Command::UpdateCustomer { .. }
        | Command::ArchiveCustomer { .. }
        | Command::RestoreCustomer { .. }
        | Command::UpdateBusinessInfo { .. }
        | Command::RequireTwoFactor { .. }
        | Command::InviteMember { .. }
        | Command::ResendInvite { .. }
        | Command::RevokeInvite { .. }
        | Command::ChangeMemberRole { .. }
        | Command::RemoveMember { .. }
        | Command::TransferOwnership { .. }
        | Command::SetSettlementAccount { .. }
        | Command::SetPayoutSchedule { .. }
        | Command::RequestPayout { .. }
        | Command::PayoutToCustomer { .. }
        | Command::CreateRole { .. }
        | Command::UpdateRole { .. }
        | Command::DeleteRole { .. }
        | Command::AddBankAccount { .. }
        | Command::RemoveBankAccount { .. }
        | Command::CreatePayment { .. }
        | Command::ActOnPayment { .. }
        | Command::ActOnUnpaid { .. }
        | Command::ActOnMandate { .. }
        | Command::UpdatePaymentMethodSettings { .. }
        | Command::AdvanceTestClock { .. }
        | Command::BeginImport { .. }
        | Command::UploadImportChunk { .. }
        | Command::CheckImport { .. }
        | Command::ConfirmImport { .. }
        | Command::DiscardImport { .. }
        | Command::CreatePayPage { .. }
        | Command::UpdatePayPage { .. }
        | Command::SetPayPageActive { .. }
        | Command::SetPayPageLogo { .. }
        | Command::ActOnOrder { .. }
        | Command::RemoveCard { .. }
        | Command::ChargeCard { .. }
        | Command::ScheduleCard { .. }
        | Command::StopCardSchedule { .. }
        | Command::RequestEMandate { .. }
        | Command::ResendEMandateRequest { .. }
        | Command::CancelEMandateRequest { .. }
        | Command::CreateWebhookEndpoint { .. }
        | Command::UpdateWebhookEndpoint { .. }
        | Command::RollWebhookSecret { .. }
        | Command::ResendWebhookDeliveries { .. }
        | Command::SendTestWebhookEvent { .. }
        | Command::DeleteWebhookEndpoint { .. }
        | Command::CreateApiToken { .. }
        | Command::RollApiToken { .. }
        | Command::RevokeApiToken { .. } => Err(AppError::Code(ErrorCode::BadFrame)),
    }
}

/// What is stored for fresh backup codes: their keyed hashes.
fn stored_forms(scope: &AccountScope<'_>, codes: &[String]) -> Vec<String> {
    codes
        .iter()
        .map(|code| scope.keys.backup_codes.stored_form(scope.user_id, code))
        .collect()
}

pub async fn get_profile(db: &Db, user_id: &str) -> AppResult<ReplyBody> {
    let account = account(db, user_id).await?;
    let profile = Profile {
        user: UserView {
            id: account.id.clone(),
            name: account.name.clone(),
            email: account.email.clone(),
        },
        email_verified: account.email_verified,
        pending_email: account.pending_email.clone(),
        language: account.language,
        two_factor_enabled: account.totp_secret.is_some(),
        backup_codes_left: store::backup_codes_left(db, user_id).await?,
        two_factor_required: store::two_factor_required(db, user_id).await?,
    };
    Ok(ReplyBody::Profile {
        profile: Box::new(profile),
    })
}

pub async fn list_sessions(db: &Db, user_id: &str, token_hash: &str) -> AppResult<ReplyBody> {
    Ok(ReplyBody::Sessions {
        sessions: sessions::list_sessions(db, user_id, token_hash).await?,
    })
}
