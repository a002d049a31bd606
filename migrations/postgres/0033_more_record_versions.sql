-- More records carry the version an edit starts from (see 0030): the stream
-- seq of the event that last changed them, set by the one write path.

ALTER TABLE pay_pages ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE payment_method_settings ADD COLUMN version BIGINT NOT NULL DEFAULT 0;

-- Business details are shared by test and live mode, whose seqs are
-- unrelated: their version counts their saves instead.
ALTER TABLE merchants ADD COLUMN business_info_version BIGINT NOT NULL DEFAULT 0;
