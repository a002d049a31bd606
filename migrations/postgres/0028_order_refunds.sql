-- Refunds of card and instant-EFT orders, in full or in part: each refund is
-- a record of its own, linked to its order (and the order's transaction),
-- whose money leaves the ledger as entries with the refund's id as their
-- source. What an order has refunded is the sum of these rows.
CREATE TABLE order_refunds (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    mode TEXT NOT NULL,
    order_id TEXT NOT NULL REFERENCES orders(id),
    transaction_id TEXT,
    amount_cents BIGINT NOT NULL,
    -- The part of the order's fee the refund gave back.
    fee_return_cents BIGINT NOT NULL,
    -- The business day of the refund.
    refunded_on TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX order_refunds_by_order ON order_refunds(merchant_id, mode, order_id, created_at);

-- Refunds made before partial refunds existed refunded a whole order with the
-- order's id as their ledger source: each becomes the order's one refund.
INSERT INTO order_refunds (id, merchant_id, mode, order_id, transaction_id, amount_cents,
    fee_return_cents, refunded_on, created_at)
SELECT 'rfd_' || l.id, l.merchant_id, l.mode, l.order_id, l.transaction_id, -l.amount_cents,
    COALESCE((SELECT f.amount_cents FROM ledger_entries f
              WHERE f.merchant_id = l.merchant_id AND f.mode = l.mode
                AND f.source_id = l.source_id AND f.kind = 'refund_fee_return'), 0),
    l.entry_date, l.created_at
FROM ledger_entries l
WHERE l.kind = 'refund' AND l.order_id IS NOT NULL;
