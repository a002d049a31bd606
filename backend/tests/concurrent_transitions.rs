//! Two moves on one record at once, from every state a person can race
//! from: two tabs of the merchant, the merchant and the payer, the merchant
//! and an invitee. For each pair the answers and the state left must be
//! those of the two moves run one after the other, in one order or the
//! other, by the record's transition table (`paydesk::domain::lifecycle`):
//! the first to commit wins, and the other is judged on what it left, so
//! it is refused with the table's clear code when the first ended the
//! record. (Payouts and imports are moved by the scheduler and the import
//! job only, never by two people; their tables are checked pair by pair in
//! `lifecycle`, and their writes are made over the status they were read in.)

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Debug;

use crate::collection_support::{
    customer, eft_mandate, mandate as read_mandate, monthly, payment as read_payment,
};
use crate::common::{Database, Socket, TestApp, committed_id};
use crate::e_mandate_support::{Payer, open_link, request, requests};
use crate::team_support::invites::{invite, sign_up_from, token_in_mail};
use paydesk::domain::lifecycle::{e_mandate_request, invite as invite_table, mandate, payment};
use protocol::*;

/// One side's answer: committed, or refused with a code.
type Verdict = Result<(), ErrorCode>;

fn verdict_of(frame: &ServerFrame) -> Verdict {
    match frame {
        ServerFrame::Reply { ok: Some(_), .. } => Ok(()),
        ServerFrame::Reply { error: Some(e), .. } => Err(e.code),
        other => panic!("no answer: {other:?}"),
    }
}

/// Whether the two moves, run one after the other by `table` in either
/// order, give exactly `answers` and leave `left`.
fn one_order_explains<S, E>(
    from: S,
    moves: [E; 2],
    answers: [Verdict; 2],
    left: S,
    table: impl Fn(S, E) -> Result<S, ErrorCode>,
) -> bool
where
    S: Copy + PartialEq + Debug,
    E: Copy + Debug,
{
    [[0, 1], [1, 0]].into_iter().any(|order| {
        let mut state = from;
        let mut expected = [Ok(()), Ok(())];
        for i in order {
            match table(state, moves[i]) {
                Ok(next) => state = next,
                Err(code) => expected[i] = Err(code),
            }
        }
        expected == answers && state == left
    })
}

fn check<S, E>(
    what: &str,
    from: S,
    moves: [E; 2],
    answers: [Verdict; 2],
    left: S,
    table: impl Fn(S, E) -> Result<S, ErrorCode>,
) where
    S: Copy + PartialEq + Debug,
    E: Copy + Debug,
{
    assert!(
        one_order_explains(from, moves, answers, left, table),
        "{what}: {moves:?} from {from:?} answered {answers:?} and left {left:?}: no order of the two explains it"
    );
}

/// Every unordered pair of `moves`, each move with itself too.
fn pairs<E: Copy>(moves: &[E]) -> Vec<[E; 2]> {
    let mut all = Vec::new();
    for (i, a) in moves.iter().enumerate() {
        for b in &moves[i..] {
            all.push([*a, *b]);
        }
    }
    all
}

// Mandates and payments: two tabs of the merchant.

fn mandate_status(status: MandateStatus) -> mandate::MandateStatus {
    let name = serde_json::to_value(status).unwrap();
    mandate::MandateStatus::ALL
        .into_iter()
        .find(|s| name == s.as_str())
        .unwrap()
}

fn mandate_event(action: MandateAction) -> mandate::MandateEvent {
    match action {
        MandateAction::Suspend => mandate::MandateEvent::Suspend,
        MandateAction::Resume => mandate::MandateEvent::Resume,
        MandateAction::Cancel => mandate::MandateEvent::Cancel,
        other => panic!("not raced here: {other:?}"),
    }
}

fn mandate_table(
    state: mandate::MandateState,
    action: MandateAction,
) -> Result<mandate::MandateState, ErrorCode> {
    mandate::transition(state, mandate_event(action)).map_err(|_| ErrorCode::ActionNotAllowed)
}

fn payment_status(status: PaymentStatus) -> payment::PaymentStatus {
    match status {
        PaymentStatus::Running => payment::PaymentStatus::Running,
        PaymentStatus::Paused => payment::PaymentStatus::Paused,
        PaymentStatus::Cancelled => payment::PaymentStatus::Cancelled,
        other => panic!("not raced here: {other:?}"),
    }
}

fn payment_table(
    status: payment::PaymentStatus,
    action: PaymentAction,
) -> Result<payment::PaymentStatus, ErrorCode> {
    let event = match action {
        PaymentAction::Pause => payment::PaymentEvent::Pause,
        PaymentAction::Resume => payment::PaymentEvent::Resume,
        PaymentAction::Cancel => payment::PaymentEvent::Cancel,
        other => panic!("not raced here: {other:?}"),
    };
    payment::transition(status, event).map_err(|_| ErrorCode::ActionNotAllowed)
}

/// A new running monthly EFT debit order on its own active mandate.
async fn running_payment(tab: &mut Socket, customer_id: &str, n: usize) -> Payment {
    let account = format!("10000{n:05}");
    let input = monthly(customer_id, eft_mandate(&account, &format!("RACE{n}")));
    let id = committed_id(
        tab.command(
            &format!("pay-{n}"),
            Command::CreatePayment {
                input: Box::new(input),
            },
        )
        .await,
    );
    read_payment(tab, &id).await
}

async fn mandate_and_payment_moves_race_by_their_tables(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut one = owner.open(Mode::Test).await;
    let mut two = owner.open(Mode::Test).await;
    let customer_id = customer(&mut one).await;
    let mut n = 0;

    let actions = [
        MandateAction::Suspend,
        MandateAction::Resume,
        MandateAction::Cancel,
    ];
    for start in [MandateAction::Resume, MandateAction::Suspend] {
        for moves in pairs(&actions) {
            n += 1;
            let mandate_id = running_payment(&mut one, &customer_id, n).await.mandate_id;
            if start == MandateAction::Suspend {
                let suspend = Command::ActOnMandate {
                    mandate_id: mandate_id.clone(),
                    action: start,
                };
                committed_id(one.command(&format!("start-{n}"), suspend).await);
            }
            let from = mandate::MandateState::new(mandate_status(
                read_mandate(&mut one, &mandate_id).await.status,
            ));
            let act = |action| Command::ActOnMandate {
                mandate_id: mandate_id.clone(),
                action,
            };
            let (first_id, second_id) = (format!("m-a-{n}"), format!("m-b-{n}"));
            let (a, b) = tokio::join!(
                one.command(&first_id, act(moves[0])),
                two.command(&second_id, act(moves[1])),
            );
            let left = mandate::MandateState::new(mandate_status(
                read_mandate(&mut one, &mandate_id).await.status,
            ));
            check(
                "mandate",
                from,
                moves,
                [verdict_of(&a), verdict_of(&b)],
                left,
                mandate_table,
            );
        }
    }

    let actions = [
        PaymentAction::Pause,
        PaymentAction::Resume,
        PaymentAction::Cancel,
    ];
    for start in [PaymentAction::Resume, PaymentAction::Pause] {
        for moves in pairs(&actions) {
            n += 1;
            let payment_id = running_payment(&mut one, &customer_id, n).await.id;
            if start == PaymentAction::Pause {
                let pause = Command::ActOnPayment {
                    payment_id: payment_id.clone(),
                    action: start,
                };
                committed_id(one.command(&format!("start-{n}"), pause).await);
            }
            let from = payment_status(read_payment(&mut one, &payment_id).await.status);
            let act = |action| Command::ActOnPayment {
                payment_id: payment_id.clone(),
                action,
            };
            let (first_id, second_id) = (format!("p-a-{n}"), format!("p-b-{n}"));
            let (a, b) = tokio::join!(
                one.command(&first_id, act(moves[0])),
                two.command(&second_id, act(moves[1])),
            );
            let left = payment_status(read_payment(&mut one, &payment_id).await.status);
            check(
                "payment",
                from,
                moves,
                [verdict_of(&a), verdict_of(&b)],
                left,
                payment_table,
            );
        }
    }
}

// E-mandate requests: the merchant's two tabs and the payer.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RequestMove {
    Cancel,
    Resend,
    /// The payer opens the mailed link.
    Open,
    /// The payer approves in their bank's app (at the bank's step).
    Approve,
    Decline,
}

fn request_table(state: EMandateState, step: RequestMove) -> Result<EMandateState, ErrorCode> {
    use e_mandate_request::RequestEvent as E;
    let event = match step {
        RequestMove::Cancel => E::Cancel,
        RequestMove::Resend => E::Resend,
        RequestMove::Open => E::Open,
        RequestMove::Approve => E::Complete,
        RequestMove::Decline => E::Decline,
    };
    e_mandate_request::apply(state, event)
}

fn is_payers(step: RequestMove) -> bool {
    matches!(
        step,
        RequestMove::Open | RequestMove::Approve | RequestMove::Decline
    )
}

/// The request being raced over: its id, its mailed link, and the payer's
/// browser once they signed.
struct RequestRace<'a> {
    app: &'a TestApp,
    id: String,
    link: String,
    payer: Option<Payer<'a>>,
}

/// One side's move, on its own tab of the merchant's.
async fn request_move(
    tab: &mut Socket,
    race: &RequestRace<'_>,
    side: usize,
    step: RequestMove,
) -> Verdict {
    let request_id = race.id.clone();
    let command_id = format!("{step:?}-{side}-{request_id}");
    match step {
        RequestMove::Cancel => verdict_of(
            &tab.command(&command_id, Command::CancelEMandateRequest { request_id })
                .await,
        ),
        RequestMove::Resend => verdict_of(
            &tab.command(&command_id, Command::ResendEMandateRequest { request_id })
                .await,
        ),
        RequestMove::Open => {
            let page = race
                .app
                .browser()
                .http
                .get(&race.link)
                .send()
                .await
                .unwrap();
            let html = page.text().await.unwrap();
            shown(html.contains("Step 1 of 3"))
        }
        RequestMove::Approve => {
            let html = race.payer.as_ref().unwrap().answer_bank("approve").await;
            shown(html.contains("Your debit order is set up"))
        }
        RequestMove::Decline => {
            let html = race.payer.as_ref().unwrap().answer_bank("decline").await;
            shown(html.contains("Your bank declined the mandate"))
        }
    }
}

/// A payer's page says what it did, or that the request is closed.
fn shown(done: bool) -> Verdict {
    if done {
        Ok(())
    } else {
        Err(ErrorCode::EMandateClosed)
    }
}

async fn request_state(tab: &mut Socket, id: &str) -> EMandateState {
    requests(tab)
        .await
        .into_iter()
        .find(|r| r.id == id)
        .unwrap()
        .state
}

async fn e_mandate_request_moves_race_by_its_table(db: Database) {
    let app = TestApp::start_pinned(db).await;
    let owner = app.merchant("owner@karoo.test").await;
    let mut one = owner.open(Mode::Test).await;
    let mut two = owner.open(Mode::Test).await;
    use RequestMove::*;
    // From a request just sent, and from one whose payer signed and is at
    // the bank's step. A payer has one browser: one payer move per race.
    let races = [
        (false, [Cancel, Resend, Open]),
        (true, [Cancel, Resend, Approve]),
        (true, [Cancel, Resend, Decline]),
    ];
    let mut n = 0;
    for (at_bank, moves) in races {
        for pair in pairs(&moves) {
            if pair.iter().all(|m| is_payers(*m)) {
                continue;
            }
            n += 1;
            let email = format!("payer{n}@example.co.za");
            let id = request(&mut one, &email, PaymentMethod::Debicheck).await;
            let payer = if at_bank {
                let payer = open_link(&app, &email).await;
                let (status, html) = payer.sign("4100000001").await;
                assert_eq!(status, 200, "{html}");
                Some(payer)
            } else {
                None
            };
            let link = app.link_in_mail(&email, "/mandate/").await;
            let race = RequestRace {
                app: &app,
                id,
                link,
                payer,
            };
            let from = request_state(&mut one, &race.id).await;
            let (a, b) = tokio::join!(
                request_move(&mut one, &race, 0, pair[0]),
                request_move(&mut two, &race, 1, pair[1]),
            );
            let left = request_state(&mut one, &race.id).await;
            check("e-mandate request", from, pair, [a, b], left, request_table);
        }
    }
}

// Invites: the merchant's two tabs and the invitee.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum InviteMove {
    /// The invitee signs up through the mailed link.
    Accept,
    Revoke,
    Resend,
}

fn invite_table(status: InviteStatus, step: InviteMove) -> Result<InviteStatus, ErrorCode> {
    let event = match step {
        InviteMove::Accept => invite_table::InviteEvent::Accept,
        InviteMove::Revoke => invite_table::InviteEvent::Revoke,
        InviteMove::Resend => invite_table::InviteEvent::Resend,
    };
    invite_table::transition(status, event).map_err(|_| invite_table::REFUSED)
}

async fn invite_status(tab: &mut Socket, invite_id: &str, email: &str) -> InviteStatus {
    let ServerFrame::Reply {
        ok: Some(ReplyBody::Team { team }),
        ..
    } = tab.query("team", Query::GetTeam {}).await
    else {
        panic!("no team");
    };
    if team.invites.iter().any(|i| i.id == invite_id) {
        InviteStatus::Pending
    } else if team.members.iter().any(|m| m.email == email) {
        InviteStatus::Accepted
    } else {
        InviteStatus::Revoked
    }
}

/// One side's move on the invite, on its own tab of the owner's.
async fn invite_move(
    tab: &mut Socket,
    app: &TestApp,
    (invite_id, token): (&str, &str),
    side: usize,
    step: InviteMove,
) -> Verdict {
    let invite_id = invite_id.to_string();
    let command_id = format!("{step:?}-{side}-{invite_id}");
    match step {
        InviteMove::Accept => {
            let (_, status, body) = sign_up_from(app, token, "New Member").await;
            match status {
                200 => Ok(()),
                _ => Err(serde_json::from_value(body["error"]["code"].clone()).unwrap()),
            }
        }
        InviteMove::Revoke => verdict_of(
            &tab.command(&command_id, Command::RevokeInvite { invite_id })
                .await,
        ),
        InviteMove::Resend => verdict_of(
            &tab.command(&command_id, Command::ResendInvite { invite_id })
                .await,
        ),
    }
}

async fn invite_moves_race_by_its_table(db: Database) {
    let app = TestApp::start(db).await;
    let owner = app.merchant("owner@karoo.co.za").await;
    let mut one = owner.open(Mode::Live).await;
    let mut two = owner.open(Mode::Live).await;
    use InviteMove::*;
    let mut n = 0;
    for pair in pairs(&[Accept, Revoke, Resend]) {
        // One invitee per race; a resend replaces the link by design, so
        // the invitee's old link after a resend is another move (teams.rs).
        if pair == [Accept, Accept] || pair == [Accept, Resend] {
            continue;
        }
        n += 1;
        let email = format!("member{n}@karoo.co.za");
        let invite_id =
            committed_id(invite(&mut one, &format!("i-{n}"), &email, Role::Viewer).await);
        let token = token_in_mail(&app, &email).await;
        let from = invite_status(&mut one, &invite_id, &email).await;
        let ids = (invite_id.as_str(), token.as_str());
        let (a, b) = tokio::join!(
            invite_move(&mut one, &app, ids, 0, pair[0]),
            invite_move(&mut two, &app, ids, 1, pair[1]),
        );
        let left = invite_status(&mut one, &invite_id, &email).await;
        check("invite", from, pair, [a, b], left, invite_table);
    }
}

on_both_databases!(
    mandate_and_payment_moves_race_by_their_tables,
    e_mandate_request_moves_race_by_its_table,
    invite_moves_race_by_its_table,
);
