-- Who caused each event of a merchant's stream: the base of the account
-- history and of webhooks. `actor_kind` is user, api_token, scheduler,
-- import or payer; `actor_id` the user, token, import or pay page; events
-- written before causes were recorded say 'unrecorded'.
ALTER TABLE events ADD COLUMN actor_kind TEXT NOT NULL DEFAULT 'unrecorded';
ALTER TABLE events ADD COLUMN actor_id TEXT;
ALTER TABLE events ADD COLUMN session_id TEXT;
ALTER TABLE events ADD COLUMN command_id TEXT;
ALTER TABLE events ADD COLUMN client_address TEXT;
