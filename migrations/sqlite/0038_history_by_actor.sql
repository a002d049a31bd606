-- The history's Person filter lists the people removed from the team whose
-- entries remain, and filters by one person: both look entries up by who
-- made them.
CREATE INDEX history_by_actor ON history_entries(merchant_id, mode, actor_id);
