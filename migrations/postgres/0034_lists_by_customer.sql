-- The customer page lists one customer's mandates and transactions
-- (payments already have payments_by_customer).
CREATE INDEX mandates_by_customer ON mandates(merchant_id, mode, customer_id);
CREATE INDEX transactions_by_customer ON transactions(merchant_id, mode, customer_id);
