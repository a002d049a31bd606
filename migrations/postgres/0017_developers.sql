-- Webhooks. An endpoint belongs to one merchant's mode. Its signing secret
-- must be read back to sign, so it is stored sealed under the server key
-- (never in clear); while a rolled secret is in its grace period the old
-- one is kept sealed beside it, until `previous_secret_until`.
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    url TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    -- Space-separated event types, from the documented list.
    event_types TEXT NOT NULL,
    enabled BIGINT NOT NULL DEFAULT 1,
    -- Why it stopped, when the system (not a person) paused it.
    disabled_reason TEXT,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_until BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_by_stream ON webhook_endpoints(merchant_id, mode, enabled);

-- One row per event per subscribed endpoint, written in the event's own
-- transaction: the durable queue the delivery job claims from. The payload
-- is fixed when the event is written, so every attempt sends the same bytes
-- under the same `webhook-id`.
CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    event_seq BIGINT NOT NULL,
    payload TEXT NOT NULL,
    -- pending, delivered or failed (gave up after the last attempt).
    state TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    last_attempt_at BIGINT,
    last_status BIGINT,
    last_duration_ms BIGINT,
    last_error TEXT,
    last_response TEXT,
    created_at BIGINT NOT NULL,
    delivered_at BIGINT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(merchant_id, mode, endpoint_id, id);
