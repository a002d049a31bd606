-- More records carry the version an edit starts from (see 0030): the stream
-- seq of the event that last changed them, set by the one write path.

ALTER TABLE pay_pages ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE payment_method_settings ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
