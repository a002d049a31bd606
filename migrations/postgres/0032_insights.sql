-- The insights screen and the home figures count a merchant's debits by the
-- date the bank settled them, over a period: without this index each of
-- those range queries reads every debit of the merchant and mode.
CREATE INDEX transactions_by_settled_on ON transactions(merchant_id, mode, settled_on);
