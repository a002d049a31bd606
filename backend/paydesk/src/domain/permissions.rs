//! Who may do what on a merchant: sections × access (none, read, write),
//! the preset roles' matrices, and the check every command and query goes
//! through. `routes` says what each command and query needs; this module
//! says whether a member's role grants it. Nothing else in the product
//! decides by role.

pub use protocol::{Access, Permissions, Role, Section};
use protocol::{Change, EntityKind, ErrorCode};

/// What a command or query needs of the member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Only that the user is signed in: their own account, whatever their
    /// role on the merchant they are looking at.
    OwnAccount,
    /// Only the merchant's owner (policies that bind every member, and
    /// handing the ownership on).
    Owner,
    /// At least this access to this section.
    Section(Section, Access),
}

impl Needs {
    pub const fn read(section: Section) -> Needs {
        Needs::Section(section, Access::Read)
    }

    pub const fn write(section: Section) -> Needs {
        Needs::Section(section, Access::Write)
    }
}

/// A member's standing on one merchant: their role, and the matrix it
/// grants (the preset's, or the merchant's custom role's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    pub role: Role,
    pub permissions: Permissions,
}

impl Grant {
    /// A preset role's grant; `None` for `Role::Custom`, whose matrix is
    /// stored with the merchant.
    pub fn preset(role: Role) -> Option<Grant> {
        preset(role).map(|permissions| Grant { role, permissions })
    }

    pub fn allows(&self, needs: Needs) -> bool {
        match needs {
            Needs::OwnAccount => true,
            Needs::Owner => self.role == Role::Owner,
            Needs::Section(section, access) => self.permissions.allows(section, access),
        }
    }

    /// `Ok` when the grant allows `needs`, else the code the member is
    /// answered with.
    pub fn check(&self, needs: Needs) -> Result<(), ErrorCode> {
        if self.allows(needs) {
            Ok(())
        } else if needs == Needs::Owner {
            Err(ErrorCode::OwnersOnly)
        } else {
            Err(ErrorCode::Forbidden)
        }
    }
}

/// The preset roles' matrices. Every working role also reads the merchant's
/// settings (business info, which payment methods are on): the forms they
/// use depend on them, and none of it is secret.
pub fn preset(role: Role) -> Option<Permissions> {
    use Access::{Read, Write};
    use Section as S;
    let none = Permissions::all(Access::None);
    let working = none.with(S::Settings, Read);
    Some(match role {
        Role::Owner | Role::Admin => Permissions::all(Write),
        Role::Operations => working
            .with(S::Customers, Write)
            .with(S::Mandates, Write)
            .with(S::Payments, Write)
            .with(S::Imports, Write)
            .with(S::PayPages, Write),
        Role::Finance => working
            .with(S::Transactions, Write)
            .with(S::Orders, Write)
            .with(S::Refunds, Write)
            .with(S::Exports, Write)
            .with(S::Payouts, Write)
            .with(S::Insights, Write),
        Role::Developer => working.with(S::Developers, Write).with(S::Payments, Read),
        // Support looks after customers and payers (their bank accounts
        // and cards) and answers questions about their payments.
        Role::Support => working.with(S::Customers, Write).with(S::Payments, Read),
        // Everything but the secrets: API tokens and webhooks stay hidden.
        Role::Viewer => Permissions::all(Read).with(S::Developers, Access::None),
        Role::Custom => return None,
    })
}

/// The section a change of the merchant's data belongs to: a member's
/// sockets get it only if the member may read that section. `None`: every
/// member gets it (the business date, the policy that binds them all).
pub fn change_section(change: &Change) -> Option<Section> {
    use Section as S;
    Some(match change {
        Change::CustomerUpserted { .. }
        | Change::BankAccountAdded { .. }
        | Change::BankAccountRemoved { .. }
        | Change::CardUpserted { .. }
        | Change::CardRemoved { .. } => S::Customers,
        Change::Invalidate { kind } => kind_section(*kind),
        Change::BusinessInfoUpdated { .. } | Change::PaymentMethodSettingsUpdated { .. } => {
            S::Settings
        }
        Change::MandateUpserted { .. } | Change::EMandateRequestUpserted { .. } => S::Mandates,
        Change::PaymentUpserted { .. } => S::Payments,
        Change::TransactionUpserted { .. } => S::Transactions,
        Change::ImportUpserted { .. } => S::Imports,
        Change::PayPageUpserted { .. } => S::PayPages,
        Change::OrderUpserted { .. } => S::Orders,
        Change::WebhookEndpointUpserted { .. }
        | Change::WebhookEndpointRemoved { .. }
        | Change::WebhookDeliveryUpserted { .. } => S::Developers,
        Change::ApiTokenUpserted { .. } => S::Developers,
        Change::MemberUpserted { .. }
        | Change::MemberRemoved { .. }
        | Change::InviteUpserted { .. }
        | Change::RoleUpserted { .. }
        | Change::RoleRemoved { .. } => S::Team,
        Change::HistoryEntryAdded { .. } => S::History,
        Change::PayoutUpserted { .. } | Change::PayoutSettingsUpdated { .. } => S::Payouts,
        Change::TwoFactorPolicyUpdated { .. } | Change::ClockAdvanced { .. } => return None,
        Change::FiguresMoved {} => S::Insights,
    })
}

fn kind_section(kind: EntityKind) -> Section {
    match kind {
        EntityKind::Customer | EntityKind::BankAccount | EntityKind::Card => Section::Customers,
        EntityKind::BusinessInfo => Section::Settings,
        EntityKind::Mandate | EntityKind::EMandateRequest => Section::Mandates,
        EntityKind::Payment => Section::Payments,
        EntityKind::Transaction => Section::Transactions,
        EntityKind::Import => Section::Imports,
        EntityKind::PayPage => Section::PayPages,
        EntityKind::Order => Section::Orders,
        EntityKind::WebhookEndpoint | EntityKind::ApiToken => Section::Developers,
    }
}

/// The changes of a delta that `permissions` may read, in order, and a
/// closing `FiguresMoved` when the delta moved money or a schedule and the
/// member reads figures built from them. The delta itself still goes out
/// (possibly empty) so the socket's position stays contiguous.
pub fn readable_changes(permissions: &Permissions, changes: &[Change]) -> Vec<Change> {
    let mut readable: Vec<Change> = changes
        .iter()
        .filter(|c| change_section(c).is_none_or(|s| permissions.allows(s, Access::Read)))
        // A history entry also needs its record's section.
        .filter(|c| match c {
            Change::HistoryEntryAdded { entry } => entry
                .section
                .is_none_or(|s| permissions.allows(s, Access::Read)),
            _ => true,
        })
        .cloned()
        .collect();
    if reads_figures(permissions) && changes.iter().any(moves_figures) {
        readable.push(Change::FiguresMoved {});
    }
    readable
}

/// Whether a member reads a screen built from the merchant's money: home and
/// insights, the balance and payouts, or the statement.
fn reads_figures(permissions: &Permissions) -> bool {
    [Section::Insights, Section::Payouts, Section::Exports]
        .into_iter()
        .any(|section| permissions.allows(section, Access::Read))
}

/// Whether a change moves a figure those screens show: a collection, its
/// schedule, money in or out, or the business date they are counted to.
fn moves_figures(change: &Change) -> bool {
    match change {
        Change::PaymentUpserted { .. }
        | Change::MandateUpserted { .. }
        | Change::TransactionUpserted { .. }
        | Change::OrderUpserted { .. }
        | Change::PayoutUpserted { .. }
        | Change::PayoutSettingsUpdated { .. }
        | Change::ClockAdvanced { .. } => true,
        Change::Invalidate { kind } => matches!(
            kind,
            EntityKind::Payment | EntityKind::Mandate | EntityKind::Transaction | EntityKind::Order
        ),
        _ => false,
    }
}

/// A custom role's matrix as stored: JSON of `Permissions`. A section the
/// stored matrix does not name (added since) is `None`.
/// The sections `permissions` may read: a member's view of the history.
pub fn readable_sections(permissions: &Permissions) -> Vec<Section> {
    Section::ALL
        .into_iter()
        .filter(|s| permissions.allows(*s, Access::Read))
        .collect()
}

pub fn parse_stored(json: &str) -> Option<Permissions> {
    serde_json::from_str(json).ok()
}

pub fn to_stored(permissions: &Permissions) -> String {
    // A plain struct of enums always serialises.
    serde_json::to_string(permissions).unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_a_matrix_and_custom_roles_are_stored() {
        for role in Role::PRESETS {
            assert!(Grant::preset(role).is_some(), "{role:?}");
        }
        assert!(Grant::preset(Role::Custom).is_none());
    }

    #[test]
    fn figures_readers_hear_that_money_moved_without_reading_the_payment() {
        let payment: Change = serde_json::from_value(serde_json::json!({
            "t": "Invalidate", "kind": "payment"
        }))
        .unwrap();
        let finance = preset(Role::Finance).unwrap();
        assert_eq!(
            readable_changes(&finance, std::slice::from_ref(&payment)),
            vec![Change::FiguresMoved {}]
        );
        // Developers read payments but no figures: they get the change alone.
        let developer = preset(Role::Developer).unwrap();
        assert_eq!(
            readable_changes(&developer, std::slice::from_ref(&payment)),
            vec![payment.clone()]
        );
        // A change that moves no money adds nothing.
        let policy = Change::TwoFactorPolicyUpdated { required: true };
        assert_eq!(
            readable_changes(&finance, std::slice::from_ref(&policy)),
            vec![policy]
        );
    }

    #[test]
    fn viewers_read_everything_but_the_secrets_and_write_nothing() {
        let viewer = Grant::preset(Role::Viewer).unwrap();
        for section in Section::ALL {
            assert!(!viewer.allows(Needs::write(section)));
            let reads = section != Section::Developers;
            assert_eq!(viewer.allows(Needs::read(section)), reads, "{section:?}");
        }
        assert!(viewer.allows(Needs::OwnAccount));
    }

    #[test]
    fn only_the_owner_passes_owner_only_needs() {
        let owner = Grant::preset(Role::Owner).unwrap();
        let admin = Grant::preset(Role::Admin).unwrap();
        assert!(owner.allows(Needs::Owner));
        assert_eq!(admin.check(Needs::Owner), Err(ErrorCode::OwnersOnly));
        assert_eq!(
            Grant::preset(Role::Finance)
                .unwrap()
                .check(Needs::write(Section::Customers)),
            Err(ErrorCode::Forbidden)
        );
    }

    #[test]
    fn stored_matrices_round_trip_and_missing_sections_are_none() {
        let ops = preset(Role::Operations).unwrap();
        assert_eq!(parse_stored(&to_stored(&ops)), Some(ops));
        let partial = parse_stored(r#"{"customers":"write"}"#).unwrap();
        assert_eq!(partial.get(Section::Customers), Access::Write);
        assert_eq!(partial.get(Section::Payments), Access::None);
        assert!(parse_stored("not json").is_none());
    }

    #[test]
    fn an_admin_cannot_grant_past_their_own_matrix() {
        let finance = preset(Role::Finance).unwrap();
        let admin = preset(Role::Admin).unwrap();
        assert!(finance.within(&admin));
        assert!(!admin.within(&finance));
    }
}
