import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { useCommand } from "../../live/useCommand";
import type { CustomRole, Member, Permissions } from "../../protocol/wire";
import { MATRIX_SECTIONS } from "../../live/permissions";
import { RoleEditor } from "./RoleEditor";
import type { LoadedRoles } from "./useRoles";

/** What a role may do, in words: the sections it changes, then those it only reads. */
function Summary({ grants }: { grants: Permissions }) {
  const { t } = useTranslation();
  const names = (level: "read" | "write") =>
    MATRIX_SECTIONS.filter((s) => grants[s] === level)
      .map((s) => t(`developers.tokens.sections.${s}`))
      .join(", ");
  const [write, read] = [names("write"), names("read")];
  if (!write && !read) return <>{t("teams.rolesList.nothing")}</>;
  return (
    <>
      {write ? <div>{t("teams.rolesList.changes", { sections: write })}</div> : null}
      {read ? <div className="cell-sub">{t("teams.rolesList.reads", { sections: read })}</div> : null}
    </>
  );
}

/** The merchant's own roles: who holds each, what it grants, and (for Team write) make, change, delete. */
export function RolesSection({ loaded, members, mayManage }: { loaded: LoadedRoles; members: Member[]; mayManage: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<CustomRole | "new" | null>(null);
  const [deleting, setDeleting] = useState<CustomRole | null>(null);
  const remove = useCommand();
  const custom = loaded && "roles" in loaded ? loaded.roles.custom : [];

  async function confirmDelete() {
    if (deleting && (await remove.run({ t: "DeleteRole", roleId: deleting.id }))) setDeleting(null);
  }

  return (
    <section aria-labelledby="roles-title" data-testid="roles-section">
      <div className="team-section-head">
        <h2 className="team-section-title" id="roles-title">
          {t("teams.rolesList.title")}
        </h2>
        <Button onClick={() => setEditing("new")} needs="team:write" data-testid="new-role">
          {t("teams.rolesList.new")}
        </Button>
      </div>
      {loaded && "error" in loaded ? <Alert>{t(`errors.${loaded.error}`)}</Alert> : null}
      {custom.length === 0 ? (
        <p className="card-empty" data-testid="no-roles">
          {t("teams.rolesList.none")}
        </p>
      ) : (
        <div className="table-card">
          <table className="table" data-testid="roles-table">
            <thead>
              <tr>
                <th scope="col">{t("teams.rolesList.name")}</th>
                <th scope="col">{t("teams.rolesList.grants")}</th>
                <th scope="col">{t("teams.rolesList.members")}</th>
                {mayManage ? <th scope="col" aria-label={t("teams.fields.actions")} /> : null}
              </tr>
            </thead>
            <tbody>
              {custom.map((role) => (
                <tr key={role.id} data-testid={`role-${role.name}`}>
                  <td>{role.name}</td>
                  <td>
                    <Summary grants={role.grants} />
                  </td>
                  <td>{members.filter((m) => m.roleId === role.id).length}</td>
                  {mayManage ? (
                    <td>
                      <div className="team-actions">
                        <Button onClick={() => setEditing(role)} needs="team:write" whenRefused="hide" data-testid="edit-role">
                          {t("teams.rolesList.edit")}
                        </Button>
                        <Button variant="danger" onClick={() => setDeleting(role)} needs="team:write" whenRefused="hide" data-testid="delete-role">
                          {t("teams.rolesList.delete")}
                        </Button>
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? <RoleEditor role={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={t("teams.rolesList.deleteTitle", { name: deleting?.name ?? "" })}
        body={t("teams.rolesList.deleteBody")}
        confirmLabel={t("teams.rolesList.delete")}
        busy={remove.busy}
        error={remove.error}
        variant="danger"
        testId="delete-role-dialog"
        needs="team:write"
        onConfirm={() => void confirmDelete()}
      />
    </section>
  );
}
