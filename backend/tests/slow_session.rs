//! A session that cannot keep up is dropped by the merchant actor instead of
//! holding it back; the others keep receiving.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use actix::prelude::*;
use backend::live::merchant::MerchantActor;
use backend::live::messages::{Execute, Join, Members, Outbound};
use paydesk::store::Db;
use paydesk::store::stream::StreamKey;
use protocol::{Access, Command, CustomerInput, MerchantView, Mode, Permissions, Role, UserView};

/// A tab whose socket stopped reading: it never takes a message off its queue.
struct StuckTab;

impl Actor for StuckTab {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        ctx.set_mailbox_capacity(4);
        ctx.wait(fut::wrap_future(std::future::pending::<()>()));
    }
}

impl Handler<Outbound> for StuckTab {
    type Result = ();
    fn handle(&mut self, _: Outbound, _: &mut Self::Context) {}
}

/// A tab that reads everything.
struct LiveTab;

impl Actor for LiveTab {
    type Context = Context<Self>;
}

impl Handler<Outbound> for LiveTab {
    type Result = ();
    fn handle(&mut self, _: Outbound, _: &mut Self::Context) {}
}

fn join(session_id: &str, outbox: Recipient<Outbound>, user_id: &str) -> Join {
    let merchant = MerchantView {
        id: "mer_slow".into(),
        name: "Slow Co".into(),
        role: Role::Owner,
        role_name: None,
        permissions: Permissions::all(Access::Write),
    };
    Join {
        session_id: session_id.into(),
        user_id: user_id.into(),
        outbox: std::sync::Arc::new(outbox),
        user: UserView {
            id: user_id.into(),
            name: "Tab".into(),
            email: "tab@example.co.za".into(),
        },
        merchant: merchant.clone(),
        merchants: vec![merchant],
        resume: None,
        build: "test".into(),
        token_id: None,
    }
}

#[actix_web::test]
async fn a_stuck_session_is_dropped_and_the_rest_carry_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::connect(&format!(
        "sqlite://{}",
        dir.path().join("slow.db").display()
    ))
    .await
    .unwrap();
    db.migrate().await.unwrap();
    let mut tx = db.begin_write().await.unwrap();
    sqlx::query("INSERT INTO merchants (id, name, created_at) VALUES ('mer_slow', 'Slow Co', 0)")
        .execute(&mut *tx)
        .await
        .unwrap();
    // The commands run as usr_2, an owner of the merchant: the actor reads
    // the membership in each command's transaction.
    sqlx::query(
        "INSERT INTO users (id, email, name, password_hash, created_at) \
         VALUES ('usr_2', 'slow@example.co.za', 'Slow', 'x', 0)",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO memberships (merchant_id, user_id, role, created_at) \
         VALUES ('mer_slow', 'usr_2', 'owner', 0)",
    )
    .execute(&mut *tx)
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let merchant = MerchantActor::new(
        StreamKey {
            merchant_id: "mer_slow".into(),
            mode: Mode::Test,
        },
        db,
        paydesk::domain::clock::BusinessClock::default(),
        String::new(),
    )
    .start();
    merchant
        .send(join("stuck", StuckTab.start().recipient(), "usr_1"))
        .await
        .unwrap();
    merchant
        .send(join("live", LiveTab.start().recipient(), "usr_2"))
        .await
        .unwrap();
    assert_eq!(merchant.send(Members).await.unwrap().len(), 2);

    let keys =
        paydesk::auth::keys::Keys::derive(&paydesk::auth::keys::ServerKey::generate().unwrap());
    let sealer = keys.webhooks;
    for i in 0..20 {
        let input = CustomerInput {
            name: format!("Customer {i}"),
            email: format!("c{i}@example.co.za"),
            ..Default::default()
        };
        let execute = Execute {
            command_id: format!("cmd_{i}"),
            user_id: "usr_2".into(),
            token_id: None,
            session_id: "ses_2".into(),
            address: None,
            origin: String::new(),
            sealer: sealer.clone(),
            token_hasher: keys.api_tokens.clone(),
            address_check: None,
            team: Default::default(),
            command: Command::CreateCustomer { input },
        };
        merchant
            .send(execute)
            .await
            .unwrap()
            .expect("command commits while a tab is stuck");
    }
    let members = merchant.send(Members).await.unwrap();
    assert_eq!(
        members
            .iter()
            .map(|m| m.user_id.as_str())
            .collect::<Vec<_>>(),
        ["usr_2"],
        "the stuck tab (usr_1's only one) was dropped"
    );
}
