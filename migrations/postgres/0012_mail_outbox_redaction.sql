-- A message's bodies hold live links (password reset, e-mail verification):
-- the outbox keeps them only until delivery. Sent messages, and messages
-- abandoned after their last failed attempt, keep who, what subject, when
-- and the last error, with empty bodies.
ALTER TABLE mail_outbox ADD COLUMN abandoned_at BIGINT;

-- Earlier versions gave up by pushing the next attempt out of reach.
UPDATE mail_outbox SET abandoned_at = (EXTRACT(EPOCH FROM now()) * 1000)::BIGINT
WHERE sent_at IS NULL AND next_attempt_at >= 4611686018427387903;

UPDATE mail_outbox SET text_body = '', html_body = ''
WHERE sent_at IS NOT NULL OR abandoned_at IS NOT NULL;
