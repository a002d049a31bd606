-- Any node may write a confirmed import, and take over one whose node
-- stopped: the node writing an import holds a lease on it, renewed with each
-- batch, and claims are taken with FOR UPDATE SKIP LOCKED on PostgreSQL. A
-- committing import whose lease has run out (or that never had one) is free
-- for the next node's import job to claim.

ALTER TABLE imports ADD COLUMN lease_until BIGINT;
