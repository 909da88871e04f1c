-- The identity tables' indexes that only the API uses: the projector finds users, organizations, members and
-- invitations by their keys. A normal start applies this file right after schema.sql; a rebuild applies it
-- once its replay reached the head (docs/projection.md, "Lean rebuilds").
-- Applied with search_path on the read schema, statement by statement: names no schema.

-- A user by email (sign-in, invitations).
CREATE INDEX IF NOT EXISTS users_email ON users (lower(email));
-- "My organizations" of users/me and organization/list.
CREATE INDEX IF NOT EXISTS org_members_user ON org_members (user_id, org_id);
-- An organization's invitations, and those sent to one email.
CREATE INDEX IF NOT EXISTS org_invitations_org ON org_invitations (org_id, created_at);
CREATE INDEX IF NOT EXISTS org_invitations_email ON org_invitations (email, created_at);
