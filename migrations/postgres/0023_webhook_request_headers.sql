-- The headers an attempt sent (one `name: value` a line), so the endpoint
-- page's log shows the request as the receiver got it. The signature in it
-- is no secret: it only proves the body came from us.
ALTER TABLE webhook_deliveries ADD COLUMN last_request_headers TEXT;
