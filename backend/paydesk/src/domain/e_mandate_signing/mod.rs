//! The payer signing a mandate on the payer's pages: from an e-mandate
//! request's link, or from a recurring pay page offering DebiCheck (which
//! starts a signing of its own and hands the payer to the same steps).
//!
//! The payer's details, bank account and consent are checked step by step
//! without a write; consenting writes the signing (one event the payer
//! causes). A Registered Mandate is then complete; DebiCheck waits for the
//! payer's bank, which in test mode is the simulated bank: the payer answers
//! on its banking-app step and the account's magic number decides what the
//! bank says. Approval makes the customer, bank account, mandate and
//! recurring payment in one event, with the confirmation mail queued in the
//! same transaction. Every write re-reads the signing under the stream's
//! lock, so a double submit (two posts, two tabs) makes one mandate.

pub mod choices;
mod complete;
pub mod form;

use protocol::{
    ApprovalWindow, Change, EMandateRequest, EMandateState, ErrorCode, Interval, Language, Mode,
    PageInterval, PaymentMethod, PaymentMethodSettings,
};
use time::Date;

use super::bank::{Authentication, Bank, SimulatedBank};
use super::calendar::{add_business_days, iso_date, parse_iso_date};
use super::clock::BusinessClock;
use super::commerce::checkout::{self, PublicPage};
use super::e_mandates::state_on;
use super::lifecycle::e_mandate_request::{self as request_life, RequestEvent};
use super::mandates::authentication_due;
use crate::error::{AppError, AppResult};
use crate::ids::{new_id, new_secret, now_ms};
use crate::store::e_mandate_signings::{self as store, SigningRow, SigningState};
use crate::store::e_mandates as requests;
use crate::store::stream::{self, Actor, Cause, StreamKey, Work, Written};
use crate::store::{Db, Tx, clocks};

pub use choices::{Changeable, Chosen, Forged};
pub use complete::{compose_confirmation, statement_name};
pub use form::{Answers, Checked, Problems, Step};

/// A real-time DebiCheck request is answered within 120 seconds or not at all.
pub const REAL_TIME_WINDOW_MS: i64 = 120_000;

/// The terms the payer signs, as the merchant set them.
#[derive(Clone, Debug)]
pub struct Terms {
    pub method: PaymentMethod,
    pub amount_cents: i64,
    pub max_cents: Option<i64>,
    pub interval: Interval,
    pub start_date: String,
    /// DebiCheck's payment tracking, in days, as the merchant's payment
    /// method settings allow it; None when not used.
    pub tracking_days: Option<u8>,
    /// Whether a collection on a non-business day moves, as set there too.
    pub date_adjustment: bool,
    /// The creditor's name on the payer's statement.
    pub statement: String,
    /// DebiCheck's approval window, as the merchant's settings have it.
    pub window: Option<ApprovalWindow>,
}

/// Where a signing stands, as the payer's pages show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The steps: details, bank account, consent.
    Form,
    /// Waiting for the payer to approve with their bank.
    Authenticating,
    Completed,
    Declined,
    NoReply,
    /// Withdrawn by the merchant, or past its last day.
    Closed,
}

/// A signing as its payer's link finds it.
#[derive(Clone, Debug)]
pub struct Signing {
    pub merchant_id: String,
    pub merchant_name: String,
    pub mode: Mode,
    pub today: Date,
    pub request: Option<EMandateRequest>,
    /// The signing written so far (the pay page's from its start; a link's
    /// from the payer's consent).
    pub row: Option<SigningRow>,
    pub terms: Terms,
    pub language: Language,
}

impl Signing {
    pub fn stream(&self) -> StreamKey {
        StreamKey::new(self.merchant_id.clone(), self.mode)
    }

    pub fn stage(&self) -> Stage {
        if let Some(row) = &self.row {
            match row.state {
                SigningState::Open => {}
                SigningState::Authenticating => return Stage::Authenticating,
                SigningState::Completed => return Stage::Completed,
                SigningState::Declined => return Stage::Declined,
                SigningState::NoReply => return Stage::NoReply,
            }
        }
        match self.request.as_ref().map(|r| r.state) {
            None | Some(EMandateState::Sent | EMandateState::Opened) => Stage::Form,
            Some(EMandateState::Completed) => Stage::Completed,
            Some(EMandateState::Declined) => Stage::Declined,
            Some(EMandateState::NoReply) => Stage::NoReply,
            Some(EMandateState::Expired | EMandateState::Cancelled) => Stage::Closed,
        }
    }

    /// What the first step starts with: the request's payer as the
    /// merchant named them.
    pub fn prefill(&self) -> Answers {
        match &self.request {
            Some(r) => Answers {
                name: r.name.clone(),
                email: r.email.clone(),
                cellphone: r.cellphone.clone(),
                ..Answers::default()
            },
            None => Answers::default(),
        }
    }

    /// The answers the payer consented with, once written.
    pub fn kept_answers(&self) -> Answers {
        self.row
            .as_ref()
            .and_then(|r| serde_json::from_str(&r.answers).ok())
            .unwrap_or_default()
    }
}

fn stage_of(state: SigningState) -> Stage {
    match state {
        SigningState::Open => Stage::Form,
        SigningState::Authenticating => Stage::Authenticating,
        SigningState::Completed => Stage::Completed,
        SigningState::Declined => Stage::Declined,
        SigningState::NoReply => Stage::NoReply,
    }
}

/// The terms: the request's or page's amounts and schedule, with the
/// merchant's DebiCheck settings for tracking, date adjustment and the
/// statement name.
fn terms_of(
    method: PaymentMethod,
    (amount_cents, max_cents): (i64, Option<i64>),
    interval: Interval,
    start_date: &str,
    settings: &PaymentMethodSettings,
    merchant: &str,
) -> Terms {
    let debicheck = method == PaymentMethod::Debicheck;
    let named = settings.debicheck_abbreviated_name.trim();
    Terms {
        method,
        amount_cents,
        max_cents,
        interval,
        start_date: start_date.to_string(),
        tracking_days: (debicheck && settings.debicheck_allow_tracking)
            .then_some(settings.debicheck_tracking_days),
        date_adjustment: debicheck && settings.debicheck_allow_date_adjustment,
        statement: if debicheck && !named.is_empty() {
            named.to_string()
        } else {
            statement_name(merchant)
        },
        window: debicheck.then_some(settings.debicheck_approval_window),
    }
}

async fn settings_of(db: &Db, merchant_id: &str, mode: Mode) -> AppResult<PaymentMethodSettings> {
    Ok(
        crate::store::payment_methods::read_settings(&db.pool, merchant_id, mode)
            .await?
            .unwrap_or_else(super::payment_methods::default_settings),
    )
}

async fn today_of(db: &Db, clock: BusinessClock, merchant_id: &str, mode: Mode) -> AppResult<Date> {
    let offset = clocks::read_clock(&db.pool, merchant_id, mode)
        .await?
        .map_or(0, |c| c.offset_days);
    Ok(clock.today(mode, offset))
}

async fn merchant_name<'e, E>(executor: E, merchant_id: &str) -> AppResult<String>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    use sqlx::Row;
    let row = sqlx::query("SELECT name FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(executor)
        .await?;
    Ok(row.map(|r| r.get("name")).unwrap_or_default())
}

/// The signing behind a link's token: an e-mandate request's, or a pay
/// page's. None for a token that names neither.
pub async fn find(db: &Db, clock: BusinessClock, token: &str) -> AppResult<Option<Signing>> {
    if let Some(found) = requests::find_by_token(&db.pool, token).await? {
        let mode = found.request.mode;
        let today = today_of(db, clock, &found.merchant_id, mode).await?;
        let mut request = found.request;
        request.state = state_on(&request, today);
        let row = store::latest_of_request(&db.pool, &found.merchant_id, mode, &request.id).await?;
        let merchant_name = merchant_name(&db.pool, &found.merchant_id).await?;
        let settings = settings_of(db, &found.merchant_id, mode).await?;
        let r = &request;
        // Once signed, the amount and first date are the ones the payer chose.
        let (amount_cents, start_date) = match &row {
            Some(row) => (row.amount_cents, row.start_date.as_str()),
            None => (r.amount_cents, r.start_date.as_str()),
        };
        let terms = terms_of(
            r.method,
            (amount_cents, r.max_cents),
            r.interval,
            start_date,
            &settings,
            &merchant_name,
        );
        return Ok(Some(Signing {
            merchant_name,
            merchant_id: found.merchant_id,
            mode,
            today,
            terms,
            language: request.language,
            request: Some(request),
            row,
        }));
    }
    let Some(row) = store::find_by_token(&db.pool, token).await? else {
        return Ok(None);
    };
    let today = today_of(db, clock, &row.merchant_id, row.mode).await?;
    let merchant_name = merchant_name(&db.pool, &row.merchant_id).await?;
    let settings = settings_of(db, &row.merchant_id, row.mode).await?;
    let terms = terms_of(
        row.method,
        (row.amount_cents, row.max_cents),
        row.interval,
        &row.start_date,
        &settings,
        &merchant_name,
    );
    Ok(Some(Signing {
        merchant_name,
        merchant_id: row.merchant_id.clone(),
        mode: row.mode,
        today,
        terms,
        language: Language::parse(&row.language).unwrap_or(Language::En),
        request: None,
        row: Some(row),
    }))
}

fn payer_cause(signing: &Signing, address: Option<String>) -> Cause {
    // The payer is recorded by the request's id, or by the pay page's.
    let page_id = match (&signing.request, &signing.row) {
        (Some(r), _) => r.id.clone(),
        (None, Some(row)) => row.page_id.clone().unwrap_or_else(|| row.id.clone()),
        (None, None) => String::new(),
    };
    Cause {
        actor: Actor::Payer { page_id },
        command_id: None,
        address,
    }
}

/// A recurring pay page offering DebiCheck starts a signing with the
/// page's terms; the payer continues on the signing steps at its token.
/// The first collection is two business days out, time for the bank's
/// authentication to finish.
pub async fn start_from_page(
    db: &Db,
    page: &PublicPage,
    language: Language,
    address: Option<String>,
) -> AppResult<Written<String>> {
    let p = &page.page;
    let amount_cents = p
        .amount_cents
        .ok_or(AppError::Code(ErrorCode::InvalidInput))?;
    let interval = match p.interval {
        Some(PageInterval::Annually) => Interval::Annually,
        _ => Interval::Monthly,
    };
    let now = now_ms();
    let row = SigningRow {
        id: new_id("sig"),
        merchant_id: page.merchant_id.clone(),
        mode: p.mode,
        token: new_secret(),
        origin: "pay_page".into(),
        request_id: None,
        page_id: Some(p.id.clone()),
        method: PaymentMethod::Debicheck,
        amount_cents,
        max_cents: None,
        interval,
        start_date: iso_date(add_business_days(page.today, 2)),
        language: language.as_str().to_string(),
        state: SigningState::Open,
        consent_key: None,
        answers: String::new(),
        approval_window: None,
        auth_started_at: None,
        auth_due_on: None,
        mandate_id: None,
        created_at: now,
        updated_at: now,
    };
    let cause = Cause {
        actor: Actor::Payer {
            page_id: p.id.clone(),
        },
        command_id: None,
        address,
    };
    stream::write(
        db,
        &checkout::stream(page),
        &cause,
        async |tx: &mut Tx, _seq| {
            store::insert_signing(tx, &row).await?;
            Ok(Work::changed(Vec::new(), row.token.clone()))
        },
    )
    .await
}

/// What a consent post did.
pub enum Consented {
    /// A problem in a step: that step again, with the problems.
    Invalid(Step, Problems),
    Stage(Stage),
}

/// The signing as it is now, under the stream's lock.
struct Fresh {
    request: Option<EMandateRequest>,
    row: Option<SigningRow>,
}

impl Fresh {
    /// Another move ended the request first (the merchant cancelled it while
    /// the payer was at the bank's step): nothing the payer or their bank
    /// does after that may complete it, decline it or create a mandate.
    /// Whichever commits first wins, by the request's table: the cancel
    /// refuses a completed request, and this the bank's answer to a
    /// cancelled one. (Every answer of the bank moves from the same states.)
    fn withdrawn(&self) -> bool {
        self.request
            .as_ref()
            .is_some_and(|r| request_life::apply(r.state, RequestEvent::Complete).is_err())
    }
}

async fn fresh(tx: &mut Tx, signing: &Signing) -> AppResult<Fresh> {
    let (merchant_id, mode) = (signing.merchant_id.as_str(), signing.mode);
    let request = match &signing.request {
        Some(r) => requests::find_request(&mut **tx, merchant_id, mode, &r.id)
            .await?
            .map(|s| {
                let mut request = s.request;
                request.state = state_on(&request, signing.today);
                request
            }),
        None => None,
    };
    let row = match (&request, &signing.row) {
        (Some(r), _) => store::latest_of_request(&mut **tx, merchant_id, mode, &r.id).await?,
        (None, Some(row)) => store::find_signing(&mut **tx, merchant_id, mode, &row.id).await?,
        (None, None) => None,
    };
    Ok(Fresh { request, row })
}

/// The payer consents: the answers are checked once more and the signing
/// is written. A Registered Mandate completes at once; DebiCheck asks the
/// payer's bank.
pub async fn consent(
    db: &Db,
    clock: BusinessClock,
    signing: &Signing,
    answers: &Answers,
    consent_key: &str,
    address: Option<String>,
) -> AppResult<Written<Consented>> {
    let invalid = |step, problems| {
        Ok(Written {
            seq: None,
            changes: Vec::new(),
            value: Consented::Invalid(step, problems),
        })
    };
    let mut chosen_problems = Vec::new();
    let chosen = choices::check_choices(signing, &form::tidy(answers), &mut chosen_problems)
        .map_err(|Forged| AppError::Code(ErrorCode::ActionNotAllowed))?;
    let checked = match form::check_upto(answers, signing.terms.method, Step::Consent) {
        Ok(checked) => checked,
        // The terms step shows its own problems and the choices' together.
        Err((Step::Consent, mut problems)) => {
            problems.extend(chosen_problems);
            return invalid(Step::Consent, problems);
        }
        Err((step, problems)) => return invalid(step, problems),
    };
    let Some(chosen) = chosen else {
        return invalid(Step::Consent, chosen_problems);
    };
    let cause = payer_cause(signing, address);
    stream::write(db, &signing.stream(), &cause, async |tx: &mut Tx, _seq| {
        let now = fresh(tx, signing).await?;
        // A second post of the consent (or another tab's) finds the first.
        if let Some(row) = &now.row
            && row.state != SigningState::Open
            && (now.request.is_none()
                || matches!(
                    row.state,
                    SigningState::Authenticating | SigningState::Completed
                ))
        {
            return Ok(Work::Unchanged(Consented::Stage(stage_of(row.state))));
        }
        if let Some(request) = &now.request
            && !request.state.is_open()
        {
            return Err(AppError::Code(ErrorCode::EMandateClosed));
        }
        if now.request.is_none() && now.row.is_none() {
            return Err(AppError::Code(ErrorCode::NotFound));
        }
        let stamp = now_ms();
        let mut row = match (&now.request, now.row.clone()) {
            (Some(request), _) => SigningRow {
                id: new_id("sig"),
                merchant_id: signing.merchant_id.clone(),
                mode: signing.mode,
                token: new_secret(),
                origin: "link".into(),
                request_id: Some(request.id.clone()),
                page_id: None,
                method: request.method,
                amount_cents: chosen.amount_cents,
                max_cents: request.max_cents,
                interval: request.interval,
                start_date: chosen.start_date.clone(),
                language: signing.language.as_str().to_string(),
                state: SigningState::Open,
                consent_key: None,
                answers: String::new(),
                approval_window: None,
                auth_started_at: None,
                auth_due_on: None,
                mandate_id: None,
                created_at: stamp,
                updated_at: stamp,
            },
            (None, Some(row)) => row,
            (None, None) => return Err(AppError::Code(ErrorCode::NotFound)),
        };
        let is_new = now.request.is_some();
        row.consent_key = Some(consent_key.to_string());
        row.answers = serde_json::to_string(&checked.answers)
            .map_err(|e| AppError::Internal(format!("signing answers: {e}")))?;
        row.approval_window = signing.terms.window;
        row.updated_at = stamp;
        let mut changes = Vec::new();
        if row.method == PaymentMethod::Debicheck {
            row.state = SigningState::Authenticating;
            row.auth_started_at = Some(stamp);
            row.auth_due_on = Some(iso_date(authentication_due(
                signing.terms.window,
                signing.today,
            )));
        } else {
            // A Registered Mandate is the payer's consent here: no bank step.
            finish(
                tx,
                signing,
                &mut row,
                &now,
                &checked,
                Authentication::Approved,
                clock,
                &mut changes,
            )
            .await?;
        }
        if is_new {
            store::insert_signing(tx, &row).await?;
        } else {
            store::update_signing(tx, &row).await?;
        }
        Ok(Work::changed(
            changes,
            Consented::Stage(stage_of(row.state)),
        ))
    })
    .await
}

/// Whether the bank's approval window has closed unanswered.
fn window_closed(row: &SigningRow, today: Date, now: i64) -> bool {
    match row.approval_window {
        Some(ApprovalWindow::Tt1RealTime) => row
            .auth_started_at
            .is_some_and(|started| now - started > REAL_TIME_WINDOW_MS),
        _ => row
            .auth_due_on
            .as_deref()
            .and_then(parse_iso_date)
            .is_some_and(|due| today > due),
    }
}

/// Ends a signing with the bank's answer: an approval makes the mandate
/// and mails the confirmation; the request, if any, follows.
#[allow(clippy::too_many_arguments)]
async fn finish(
    tx: &mut Tx,
    signing: &Signing,
    row: &mut SigningRow,
    now: &Fresh,
    checked: &Checked,
    answer: Authentication,
    clock: BusinessClock,
    changes: &mut Vec<Change>,
) -> AppResult<()> {
    let stamp = now_ms();
    let (state, request_event) = match answer {
        Authentication::Approved => (SigningState::Completed, RequestEvent::Complete),
        Authentication::Declined => (SigningState::Declined, RequestEvent::Decline),
        Authentication::NoReply => (SigningState::NoReply, RequestEvent::NoReply),
    };
    if answer == Authentication::Approved {
        // The terms as signed: with the amount and date the payer chose.
        let terms = &Terms {
            amount_cents: row.amount_cents,
            start_date: row.start_date.clone(),
            ..signing.terms.clone()
        };
        let scope = complete::payer_scope(&signing.merchant_id, signing.mode, clock);
        let existing = now.request.as_ref().and_then(|r| r.customer_id.as_deref());
        let mandate_id =
            complete::make_mandate(tx, &scope, row, existing, checked, terms, changes).await?;
        let language = Language::parse(&row.language).unwrap_or(signing.language);
        complete::mail_confirmation(
            tx,
            &signing.merchant_name,
            terms,
            checked,
            &mandate_id,
            language,
        )
        .await?;
        row.mandate_id = Some(mandate_id);
    }
    row.state = state;
    row.updated_at = stamp;
    if let Some(request) = &now.request {
        let mut request = request.clone();
        request.state =
            request_life::apply(request.state, request_event).map_err(AppError::Code)?;
        request.mandate_id = row.mandate_id.clone();
        // The request is the merchant's record: on the stream's clock. The
        // signing row keeps the wall clock, which times the bank's window.
        request.updated_at =
            crate::store::clocks::stream_now_ms(&mut **tx, &signing.merchant_id, signing.mode)
                .await?;
        requests::update_request(tx, &signing.merchant_id, &request).await?;
        changes.push(Change::EMandateRequestUpserted {
            request: Box::new(request),
        });
    }
    Ok(())
}

fn checked_of(row: &SigningRow) -> AppResult<Checked> {
    let answers: Answers = serde_json::from_str(&row.answers)
        .map_err(|e| AppError::Internal(format!("signing answers: {e}")))?;
    form::check_upto(&answers, row.method, Step::Consent)
        .map_err(|_| AppError::Internal("kept signing answers no longer pass".into()))
}

/// The payer's answer on the bank's step. In test mode the simulated bank
/// then answers by the account's magic number (approve, decline, or never);
/// after the approval window nothing the payer does counts.
pub async fn answer_bank(
    db: &Db,
    clock: BusinessClock,
    signing: &Signing,
    approve: bool,
    address: Option<String>,
) -> AppResult<Written<Stage>> {
    let cause = payer_cause(signing, address);
    stream::write(db, &signing.stream(), &cause, async |tx: &mut Tx, _seq| {
        let now = fresh(tx, signing).await?;
        let Some(mut row) = now.row.clone() else {
            return Ok(Work::Unchanged(signing.stage()));
        };
        if row.state != SigningState::Authenticating {
            return Ok(Work::Unchanged(stage_of(row.state)));
        }
        if now.withdrawn() {
            return Ok(Work::Unchanged(Stage::Closed));
        }
        let checked = checked_of(&row)?;
        let answer = if window_closed(&row, signing.today, now_ms()) {
            Authentication::NoReply
        } else if !approve {
            Authentication::Declined
        } else {
            SimulatedBank.authenticate_mandate(&checked.account.account_number)
        };
        let mut changes = Vec::new();
        finish(
            tx,
            signing,
            &mut row,
            &now,
            &checked,
            answer,
            clock,
            &mut changes,
        )
        .await?;
        store::update_signing(tx, &row).await?;
        Ok(Work::changed(changes, stage_of(row.state)))
    })
    .await
}

/// The waiting page's look: a signing whose approval window closed
/// unanswered is recorded as no reply.
pub async fn close_if_unanswered(
    db: &Db,
    clock: BusinessClock,
    signing: &Signing,
    address: Option<String>,
) -> AppResult<Written<Stage>> {
    let cause = payer_cause(signing, address);
    close_unanswered_as(db, clock, signing, &cause).await
}

/// The scheduler's round: every signing of the stream whose approval
/// window closed unanswered is recorded as no reply, one event each, so
/// the merchant's tabs hear of it without the payer's page being loaded.
/// Returns the last committed delta.
pub async fn close_unanswered(
    db: &Db,
    clock: BusinessClock,
    key: &StreamKey,
) -> AppResult<Option<(u64, Vec<Change>)>> {
    let (merchant_id, mode) = (key.merchant_id.as_str(), key.mode);
    let today = today_of(db, clock, merchant_id, mode).await?;
    let now = now_ms();
    let cause = Cause::background(Actor::Scheduler);
    let mut last = None;
    for row in store::authenticating(&db.pool, merchant_id, mode).await? {
        if !window_closed(&row, today, now) {
            continue;
        }
        // The signing as its payer's link finds it, with its request.
        let token = match &row.request_id {
            Some(id) => match requests::find_request(&db.pool, merchant_id, mode, id).await? {
                Some(stored) => stored.token,
                None => continue,
            },
            None => row.token.clone(),
        };
        let Some(signing) = find(db, clock, &token).await? else {
            continue;
        };
        let written = close_unanswered_as(db, clock, &signing, &cause).await?;
        if let Some(delta) = written.delta() {
            last = Some(delta);
        }
    }
    Ok(last)
}

async fn close_unanswered_as(
    db: &Db,
    clock: BusinessClock,
    signing: &Signing,
    cause: &Cause,
) -> AppResult<Written<Stage>> {
    let open = signing
        .row
        .as_ref()
        .filter(|r| r.state == SigningState::Authenticating)
        .is_some_and(|r| window_closed(r, signing.today, now_ms()));
    if !open {
        return Ok(Written {
            seq: None,
            changes: Vec::new(),
            value: signing.stage(),
        });
    }
    stream::write(db, &signing.stream(), cause, async |tx: &mut Tx, _seq| {
        let now = fresh(tx, signing).await?;
        let Some(mut row) = now.row.clone() else {
            return Ok(Work::Unchanged(signing.stage()));
        };
        if row.state != SigningState::Authenticating
            || !window_closed(&row, signing.today, now_ms())
        {
            return Ok(Work::Unchanged(stage_of(row.state)));
        }
        if now.withdrawn() {
            return Ok(Work::Unchanged(Stage::Closed));
        }
        let checked = checked_of(&row)?;
        let mut changes = Vec::new();
        finish(
            tx,
            signing,
            &mut row,
            &now,
            &checked,
            Authentication::NoReply,
            clock,
            &mut changes,
        )
        .await?;
        store::update_signing(tx, &row).await?;
        Ok(Work::changed(changes, stage_of(row.state)))
    })
    .await
}
