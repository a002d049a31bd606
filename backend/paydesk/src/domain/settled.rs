//! What settled payments add up to, for the home screen and the insights.
//! Money in counts every method, paid and not taken back. The outcome ratios (success, unpaids,
//! disputes) count debit orders only: the banks' thresholds are about debits
//! drawn under a mandate, and a card declined at a pay page's checkout is not
//! an unpaid debit nor a reason to ask for a new mandate.

use protocol::PaymentMethod;

/// Outcome counts of settled payments.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcomes {
    /// Debit orders the bank paid.
    pub paid: u32,
    /// Debit orders returned unpaid, or rejected by the bank.
    pub unpaid: u32,
    /// Debit orders disputed; reversals count as disputes.
    pub disputed: u32,
    /// Payments of every method that brought money in and kept it: a
    /// disputed or reversed debit's money went back to the payer, as the
    /// balance (`ledger.rs`) takes it back.
    pub collected: u32,
    pub collected_cents: i64,
    /// Payments of every method that settled, paid or not (a declined card
    /// too), and those paid: the success rate's.
    pub payments_settled: u32,
    pub payments_paid: u32,
}

impl Outcomes {
    /// Debit orders settled: paid, unpaid or disputed.
    pub fn settled(&self) -> u32 {
        self.paid + self.unpaid + self.disputed
    }

    /// `part` of all settled debit orders, in basis points, rounded to the
    /// nearest (3 of 7 is 42.86 %, not 42.85 %).
    pub fn ratio_bp(&self, part: u32) -> u32 {
        match u64::from(self.settled()) {
            0 => 0,
            total => ((u64::from(part) * 10_000 + total / 2) / total) as u32,
        }
    }

    /// `part` of all settled debit orders in basis points, or none when no
    /// debit order settled: nothing to count is no ratio, not 0 %.
    pub fn ratio_of_settled(&self, part: u32) -> Option<u32> {
        (self.settled() > 0).then(|| self.ratio_bp(part))
    }

    /// Payments of every method paid, of those settled, in basis points;
    /// none when nothing settled.
    pub fn success_rate_bp(&self) -> Option<u32> {
        match u64::from(self.payments_settled) {
            0 => None,
            total => Some(((u64::from(self.payments_paid) * 10_000 + total / 2) / total) as u32),
        }
    }

    /// Adds `count` payments of `method` (its wire name) that settled with
    /// `status`, worth `cents` together.
    pub fn add(&mut self, method: &str, status: &str, count: u32, cents: i64) {
        if status == "paid" {
            self.collected += count;
            self.collected_cents += cents;
        }
        match status {
            "paid" => {
                self.payments_paid += count;
                self.payments_settled += count;
            }
            "disputed" | "reversed" | "unpaid" | "rejected_by_bank" => {
                self.payments_settled += count
            }
            _ => {}
        }
        if !PaymentMethod::parse(method).is_some_and(PaymentMethod::is_debit_order) {
            return;
        }
        match status {
            "paid" => self.paid += count,
            "disputed" | "reversed" => self.disputed += count,
            "unpaid" | "rejected_by_bank" => self.unpaid += count,
            _ => {}
        }
    }
}

/// A database count as a `u32`, never negative.
pub fn count_of(n: i64) -> u32 {
    n.clamp(0, i64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_count_debit_orders_and_money_counts_every_method() {
        let mut o = Outcomes::default();
        o.add("debicheck", "paid", 3, 300);
        o.add("eft_debit_order", "unpaid", 3, 300);
        o.add("registered_mandate", "reversed", 1, 100);
        o.add("card", "paid", 2, 200);
        o.add("card", "rejected_by_bank", 4, 400);
        o.add("instant_eft", "disputed", 1, 100);
        o.add("debicheck", "in_tracking", 5, 500);
        assert_eq!((o.paid, o.unpaid, o.disputed), (3, 3, 1));
        assert_eq!(o.settled(), 7);
        assert_eq!((o.collected, o.collected_cents), (5, 500));
        assert_eq!(o.ratio_bp(o.paid), 4_286);
        assert_eq!(o.ratio_bp(o.disputed), 1_429);
        assert_eq!(Outcomes::default().ratio_bp(0), 0);
    }

    /// The success rate counts every method; a bucket with nothing settled
    /// has no rate at all, whatever kinds of payment were only pending.
    #[test]
    fn success_counts_every_method_and_nothing_settled_is_no_rate() {
        let mut o = Outcomes::default();
        o.add("debicheck", "paid", 3, 300);
        o.add("eft_debit_order", "unpaid", 1, 100);
        o.add("card", "paid", 2, 200);
        o.add("card", "rejected_by_bank", 2, 200);
        o.add("instant_eft", "disputed", 1, 100);
        o.add("debicheck", "in_tracking", 5, 500);
        assert_eq!((o.payments_paid, o.payments_settled), (5, 9));
        assert_eq!(o.success_rate_bp(), Some(5_556));
        assert_eq!(o.ratio_of_settled(o.unpaid), Some(2_500));
        let mut quiet = Outcomes::default();
        assert_eq!(quiet.success_rate_bp(), None);
        quiet.add("card", "pending", 3, 300);
        quiet.add("debicheck", "submitted", 3, 300);
        assert_eq!(quiet.success_rate_bp(), None);
        assert_eq!(quiet.ratio_of_settled(0), None);
        let mut cards_only = Outcomes::default();
        cards_only.add("card", "paid", 1, 100);
        assert_eq!(cards_only.success_rate_bp(), Some(10_000));
        assert_eq!(
            cards_only.ratio_of_settled(0),
            None,
            "no debit order settled"
        );
    }
}
