//! Where a record is, for a link that named another business or mode (or
//! none): the web app offers the way there when the record is in the other
//! mode of the socket's merchant or in another merchant whose team the user
//! is on. For anyone else the answer is the one an id that exists nowhere
//! gets, `not_found`, so nothing is learnt about a merchant from outside its
//! team.

use protocol::{ErrorCode, MerchantView, Mode, RecordPlace, ReplyBody};

use super::scope::Scope;
use crate::error::{AppError, AppResult};
use crate::store::ownership::{self, Owner};
use crate::store::{Db, users};

pub async fn locate_record(db: &Db, scope: &Scope, record_id: &str) -> AppResult<ReplyBody> {
    // Both look-ups run whatever the id is, so the time the answer takes
    // does not tell whether the id exists under a merchant of another team.
    let teams = users::find_memberships(db, &scope.user_id).await?;
    let owner = ownership::owner_of(db, record_id).await?;
    let place = told_place(owner, &scope.merchant_id, scope.mode, &teams)
        .ok_or(AppError::Code(ErrorCode::NotFound))?;
    Ok(ReplyBody::RecordLocation { place })
}

/// The record's place, if it is elsewhere than the stream asking and in a
/// merchant of `teams`.
fn told_place(
    owner: Option<Owner>,
    merchant_id: &str,
    mode: Mode,
    teams: &[MerchantView],
) -> Option<RecordPlace> {
    let owner = owner.filter(|owner| owner.merchant_id != merchant_id || owner.mode != mode)?;
    let merchant = teams.iter().find(|team| team.id == owner.merchant_id)?;
    Some(RecordPlace {
        merchant_id: merchant.id.clone(),
        merchant_name: merchant.name.clone(),
        mode: owner.mode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Permissions, Role};

    fn team(id: &str, name: &str) -> MerchantView {
        MerchantView {
            id: id.into(),
            name: name.into(),
            role: Role::Viewer,
            role_name: None,
            permissions: Permissions::default(),
        }
    }

    fn owned(merchant_id: &str, mode: Mode) -> Option<Owner> {
        Some(Owner {
            merchant_id: merchant_id.into(),
            mode,
        })
    }

    #[test]
    fn tells_the_other_mode_and_the_users_other_businesses() {
        let teams = [team("mer_own", "Own"), team("mer_karoo", "Karoo")];
        let here = |owner| told_place(owner, "mer_own", Mode::Live, &teams);
        let test_mode = here(owned("mer_own", Mode::Test)).map(|p| (p.merchant_name, p.mode));
        assert_eq!(test_mode, Some(("Own".into(), Mode::Test)));
        let karoo = here(owned("mer_karoo", Mode::Live)).map(|p| (p.merchant_id, p.mode));
        assert_eq!(karoo, Some(("mer_karoo".into(), Mode::Live)));
    }

    #[test]
    fn tells_nothing_of_another_team_or_of_the_stream_itself() {
        let teams = [team("mer_own", "Own")];
        assert_eq!(
            told_place(
                owned("mer_rival", Mode::Live),
                "mer_own",
                Mode::Live,
                &teams
            ),
            None
        );
        assert_eq!(
            told_place(owned("mer_own", Mode::Live), "mer_own", Mode::Live, &teams),
            None
        );
        assert_eq!(told_place(None, "mer_own", Mode::Live, &teams), None);
    }
}
