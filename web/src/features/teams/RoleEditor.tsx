import { useAtomValue } from "jotai";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/Field";
import { useRevealErrors } from "../../components/useRevealErrors";
import { identityAtom } from "../../live/atoms";
import { useCommand } from "../../live/useCommand";
import type { Access, CustomRole, Permissions } from "../../protocol/wire";
import { MATRIX_SECTIONS, accessChoices, noAccess } from "../../live/permissions";

const LEVELS: Access[] = ["none", "read", "write"];

/**
 * Makes or changes a custom role: its name and, per section, none / read / write as a radio
 * group. Accesses above the member's own are shown but cannot be chosen (the server refuses them too).
 */
export function RoleEditor({ role, onClose }: { role?: CustomRole; onClose: () => void }) {
  const { t } = useTranslation();
  const own = useAtomValue(identityAtom)?.merchant.permissions;
  const save = useCommand();
  const [name, setName] = useState(role?.name ?? "");
  const [grants, setGrants] = useState<Permissions>(role?.grants ?? noAccess());
  const [nameBlank, setNameBlank] = useState(false);
  // The save button is at the foot of a long dialog; the name field and alerts are at its head.
  const { form, refused } = useRevealErrors();
  const fieldCode = (field: string) => save.error?.fields?.find((f) => f.field === field)?.code;
  const nameCode = nameBlank ? "required" : fieldCode("name");
  const general = save.error && !save.error.fields?.length ? save.error.code : fieldCode("grants");

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      save.clearError();
      setNameBlank(true);
      refused();
      return;
    }
    const reply = role
      ? await save.run({ t: "UpdateRole", roleId: role.id, name: name.trim(), grants })
      : await save.run({ t: "CreateRole", name: name.trim(), grants });
    if (reply) onClose();
    else refused();
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onClose())}
      title={role ? t("teams.roleEditor.editTitle", { name: role.name }) : t("teams.roleEditor.newTitle")}
      description={t("teams.roleEditor.body")}
      closeLabel={t("common.close")}
      testId="role-editor"
      needs="team:write"
    >
      <form className="form" onSubmit={submit} noValidate ref={form}>
        <ErrorAlert code={general} />
        <TextField
          label={t("teams.roleEditor.name")}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setNameBlank(false);
          }}
          error={nameCode ? t(`errors.${nameCode}`) : undefined}
          autoComplete="off"
          required
          data-testid="role-name"
        />
        <div className="role-matrix" data-testid="role-matrix">
          <div className="role-matrix-head" aria-hidden="true">
            <span />
            {LEVELS.map((level) => (
              <span key={level}>{t(`teams.roleEditor.level.${level}`)}</span>
            ))}
          </div>
          {MATRIX_SECTIONS.map((section) => {
            const allowed = accessChoices(own?.[section] ?? "none");
            const label = t(`developers.tokens.sections.${section}`);
            return (
              <fieldset key={section} className="role-matrix-row" data-testid={`role-access-${section}`}>
                <legend>{label}</legend>
                {LEVELS.map((level) => (
                  <label key={level} className="role-matrix-choice">
                    <input
                      type="radio"
                      name={`role-${section}`}
                      value={level}
                      checked={grants[section] === level}
                      disabled={!allowed.includes(level)}
                      onChange={() => setGrants((current) => ({ ...current, [section]: level }))}
                      data-testid={`role-access-${section}-${level}`}
                    />
                    <span className="role-matrix-level">{t(`teams.roleEditor.level.${level}`)}</span>
                  </label>
                ))}
              </fieldset>
            );
          })}
        </div>
        <p className="field-hint">{t("teams.roleEditor.ceiling")}</p>
        <div className="form-actions">
          <Button onClick={onClose}>{t("teams.roleEditor.cancel")}</Button>
          <Button type="submit" variant="primary" busy={save.busy} needs="team:write" data-testid="save-role-matrix">
            {role ? t("teams.roleEditor.save") : t("teams.roleEditor.create")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
