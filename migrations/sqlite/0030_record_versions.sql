-- A record's version is the stream seq of the event that last changed it,
-- set by the one write path in that event's transaction. An edit names the
-- version it started from; saving over a newer one is refused as a conflict
-- instead of overwriting a teammate's change.

ALTER TABLE customers ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
