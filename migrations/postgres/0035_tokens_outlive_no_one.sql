-- A token lives no longer than whoever made it. Before this, removing a
-- member left the tokens they made working, and a token made by another
-- token kept working once its maker was revoked or had expired. Those
-- tokens, and every token they made in turn, are revoked now; from here
-- on a removal or a revocation revokes them itself, and a token makes no
-- token that outlives it.
WITH RECURSIVE orphaned(id) AS (
    SELECT t.id FROM api_tokens t
    WHERE NOT EXISTS (SELECT 1 FROM api_tokens maker WHERE maker.id = t.created_by)
      AND NOT EXISTS (SELECT 1 FROM memberships m
                      WHERE m.merchant_id = t.merchant_id AND m.user_id = t.created_by)
    UNION
    SELECT t.id FROM api_tokens t JOIN api_tokens maker ON maker.id = t.created_by
    WHERE maker.revoked_at IS NOT NULL
       OR maker.expires_at <= CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT)
    UNION
    SELECT t.id FROM api_tokens t JOIN orphaned o ON t.created_by = o.id
)
UPDATE api_tokens SET revoked_at = CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT),
    previous_secret_hash = NULL, previous_secret_until = NULL
WHERE revoked_at IS NULL AND id IN (SELECT id FROM orphaned);
