-- Roles: the preset roles (owner, admin, operations, finance, developer,
-- support, viewer) are named in memberships.role; a role a merchant
-- defines itself is a matrix of sections x access kept here, and its
-- members have role 'custom' and name it in custom_role_id.
CREATE TABLE custom_roles (
    id TEXT PRIMARY KEY,
    merchant_id TEXT NOT NULL REFERENCES merchants(id),
    name TEXT NOT NULL,
    -- JSON of the sections' access, e.g. {"customers":"write"}.
    permissions TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX custom_roles_by_merchant_name ON custom_roles(merchant_id, name);

ALTER TABLE memberships ADD COLUMN custom_role_id TEXT REFERENCES custom_roles(id);

-- Members could change everything but settings and refunds; the closest
-- preset is Operations.
UPDATE memberships SET role = 'operations' WHERE role = 'member';
