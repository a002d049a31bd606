//! The prices this server charges: one fee per collection method and the
//! fee of a payout. The server's settings choose them once at start
//! (`install`); the domain reads them with `schedule()`. A process that
//! installs nothing charges the documented defaults (README "Balance, fees
//! and settlement"). The ledger and every view price with the same schedule,
//! so what a transaction shows is what its collection is charged.

use std::sync::OnceLock;

use protocol::PaymentMethod;

use super::ledger::Fee;

/// The documented price of one payout (README "Payouts").
pub const DEFAULT_PAYOUT_FEE_CENTS: i64 = 350;

/// Every price the server charges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeeSchedule {
    pub card: Fee,
    pub instant_eft: Fee,
    pub debicheck: Fee,
    pub registered_mandate: Fee,
    pub eft_debit_order: Fee,
    pub payout_cents: i64,
}

impl Default for FeeSchedule {
    fn default() -> Self {
        FeeSchedule {
            card: Fee {
                basis_points: 295,
                fixed_cents: 200,
            },
            instant_eft: Fee {
                basis_points: 200,
                fixed_cents: 0,
            },
            debicheck: Fee {
                basis_points: 0,
                fixed_cents: 900,
            },
            registered_mandate: Fee {
                basis_points: 0,
                fixed_cents: 600,
            },
            eft_debit_order: Fee {
                basis_points: 0,
                fixed_cents: 400,
            },
            payout_cents: DEFAULT_PAYOUT_FEE_CENTS,
        }
    }
}

impl FeeSchedule {
    pub fn method(&self, method: PaymentMethod) -> Fee {
        match method {
            PaymentMethod::Card => self.card,
            PaymentMethod::InstantEft => self.instant_eft,
            PaymentMethod::Debicheck => self.debicheck,
            PaymentMethod::RegisteredMandate => self.registered_mandate,
            PaymentMethod::EftDebitOrder => self.eft_debit_order,
        }
    }
}

static INSTALLED: OnceLock<FeeSchedule> = OnceLock::new();

/// Puts the configured schedule in force for this process. Prices must not
/// change under a running server (a view would disagree with the ledger
/// entries already written), so a second, different schedule is refused.
pub fn install(schedule: FeeSchedule) -> Result<(), String> {
    let installed = *INSTALLED.get_or_init(|| schedule);
    if installed == schedule {
        Ok(())
    } else {
        Err("a different fee schedule is already in force in this process".into())
    }
}

/// The schedule in force: the installed one, else the defaults.
pub fn schedule() -> FeeSchedule {
    INSTALLED.get().copied().unwrap_or_default()
}

/// Parses a method's price as the settings write it: `2.95%+2.00` (percent
/// plus rands), `2%` or `9.00` (rands only). Percent and rands take at most
/// two decimals.
pub fn parse_fee(value: &str) -> Result<Fee, String> {
    let text = value.trim();
    let (percent, fixed) = match text.split_once('%') {
        Some((percent, rest)) => {
            let rest = rest.trim();
            let fixed = match rest.strip_prefix('+') {
                Some(fixed) => Some(fixed.trim()),
                None if rest.is_empty() => None,
                None => return Err(fee_error(value)),
            };
            (Some(percent.trim()), fixed)
        }
        None => (None, Some(text)),
    };
    let basis_points = match percent {
        Some(percent) => hundredths(percent).ok_or_else(|| fee_error(value))?,
        None => 0,
    };
    let fixed_cents = match fixed {
        Some(fixed) => parse_rands(fixed).ok_or_else(|| fee_error(value))?,
        None => 0,
    };
    if basis_points > 10_000 {
        return Err(format!("{value:?}: a fee cannot be more than 100 %"));
    }
    Ok(Fee {
        basis_points,
        fixed_cents,
    })
}

/// Parses an amount in rands (`3.50`, `3`) to cents.
pub fn parse_rands(value: &str) -> Option<i64> {
    let cents = hundredths(value.trim().trim_start_matches('R'))?;
    (cents <= 100_000_000).then_some(cents)
}

/// A non-negative decimal with at most two decimals, in hundredths.
fn hundredths(text: &str) -> Option<i64> {
    let (whole, part) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() || whole.len() > 9 || part.len() > 2 || !digits(whole) || !digits(part) {
        return None;
    }
    let whole: i64 = whole.parse().ok()?;
    let part: i64 = if part.is_empty() {
        0
    } else {
        format!("{part:0<2}").parse().ok()?
    };
    Some(whole * 100 + part)
}

fn fee_error(value: &str) -> String {
    format!("{value:?} is not a fee: write it as 2.95%+2.00 (percent plus rands), 2% or 9.00")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_written_forms_of_a_fee() {
        let fee = |basis_points, fixed_cents| Fee {
            basis_points,
            fixed_cents,
        };
        assert_eq!(parse_fee("2.95%+2.00"), Ok(fee(295, 200)));
        assert_eq!(parse_fee(" 2.95 % + R2 "), Ok(fee(295, 200)));
        assert_eq!(parse_fee("2%"), Ok(fee(200, 0)));
        assert_eq!(parse_fee("9.00"), Ok(fee(0, 900)));
        assert_eq!(parse_fee("0.5%+0.1"), Ok(fee(50, 10)));
        for bad in ["", "abc", "2.955%", "-1", "2%3", "2%+", "101%", "1.2.3"] {
            assert!(parse_fee(bad).is_err(), "{bad:?} passed");
        }
        assert_eq!(parse_rands("3.50"), Some(350));
        assert_eq!(parse_rands("x"), None);
    }

    #[test]
    fn the_defaults_are_the_documented_prices() {
        let defaults = FeeSchedule::default();
        assert_eq!(defaults.method(PaymentMethod::Card).of(10_000), 495);
        assert_eq!(defaults.payout_cents, 350);
    }
}
