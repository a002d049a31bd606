-- A payer who leaves at the 3-D Secure or bank step does not keep the
-- order pending for good: the step expires (30 minutes of the stream's
-- clock, in milliseconds; the test clock's in test mode) and the order is
-- abandoned. Attempts made before this fall back to their creation time.
ALTER TABLE pay_attempts ADD COLUMN expires_at BIGINT;
-- The scheduler's look for steps still waiting on a payer.
CREATE INDEX pay_attempts_waiting ON pay_attempts(status, merchant_id, mode);
