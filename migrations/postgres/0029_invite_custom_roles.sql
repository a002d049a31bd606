-- An invite may offer one of the merchant's custom roles: its role is
-- 'custom' and it names the role here, as memberships do.
ALTER TABLE invites ADD COLUMN custom_role_id TEXT REFERENCES custom_roles(id);
