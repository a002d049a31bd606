-- An unpaid 02 is presented again on a business day of its own: never
-- beside another debit of the same mandate, so the payer is not debited
-- twice on one day. The day it goes, and the day it was due when it moved.
ALTER TABLE payments ADD COLUMN rerun_date TEXT;
ALTER TABLE payments ADD COLUMN rerun_moved_from TEXT;
-- A re-run already waiting was due on the payment's next date; the
-- scheduler moves it off that day when it comes.
UPDATE payments SET rerun_date = next_action_date WHERE rerun_cents IS NOT NULL AND rerun_date IS NULL;
-- Raising the day's re-presentations, and the debits a mandate already has on a day.
CREATE INDEX payments_representations_due ON payments(merchant_id, mode, status, rerun_date);
CREATE INDEX transactions_by_mandate ON transactions(merchant_id, mode, mandate_id, action_date);
