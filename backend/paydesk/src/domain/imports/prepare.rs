//! What the commit makes of a checked row without the database: its
//! mandate's id, status and approval date, and its payment's status and
//! first debit. The reader makes these while the batch before is being
//! written, so the writer only joins each row to its customer and account.

use protocol::{MandateStatus, Mode, PaymentMethod};
use time::Date;

use super::rows::ValidRow;
use crate::domain::calendar::iso_date;
use crate::domain::mandates::{authentication_due, initial_status};
use crate::domain::payments::{NewPayment, new_payment_record};
use crate::ids::{new_id, now_ms};
use crate::store::payments::PaymentRecord;

/// What every row of one import shares.
pub struct RowPlan {
    pub mode: Mode,
    pub method: PaymentMethod,
    /// The day the file was checked against.
    pub today: Date,
    pub import_id: String,
    /// How far the stream's clock runs ahead of the wall clock (the test
    /// clock's days; 0 in live mode): rows are stamped by the stream's clock.
    pub clock_ahead_ms: i64,
}

pub struct PreparedRow {
    pub row: ValidRow,
    pub mandate_id: String,
    pub mandate_status: MandateStatus,
    pub authentication_due: Option<String>,
    /// Made before its customer is known: the batch that writes it gives
    /// the customer's id beside it.
    pub payment: PaymentRecord,
}

pub fn prepare_row(plan: &RowPlan, row: ValidRow) -> PreparedRow {
    let mandate_status = initial_status(plan.method);
    let authentication_due = (mandate_status == MandateStatus::PendingAuthentication)
        .then(|| iso_date(authentication_due(row.mandate.approval_window, plan.today)));
    let mandate_id = new_id("man");
    let mut payment = new_payment_record(&NewPayment {
        input: &row.payment,
        mode: plan.mode,
        customer_id: "",
        customer_name: &row.customer.name,
        mandate_id: mandate_id.clone(),
        method: plan.method,
        allow_date_adjustment: row.mandate.allow_date_adjustment,
        mandate_status,
        amount_cents: row.amount_cents,
        first: row.first,
        today: plan.today,
        now: now_ms().saturating_add(plan.clock_ahead_ms),
    });
    payment.view.import_id = Some(plan.import_id.clone());
    payment.view.import_row = Some(row.number);
    PreparedRow {
        row,
        mandate_id,
        mandate_status,
        authentication_due,
        payment,
    }
}
