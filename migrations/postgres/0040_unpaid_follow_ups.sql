-- What the merchant did about a debit returned unpaid (presented again,
-- a pay link, a new mandate asked for, a mail to the payer), newest last,
-- as the JSON list the transaction carries on the wire.
ALTER TABLE transactions ADD COLUMN follow_ups TEXT NOT NULL DEFAULT '[]';
