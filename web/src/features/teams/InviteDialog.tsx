import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { useCommand } from "../../live/useCommand";
import type { RoleList } from "../../protocol/wire";
import { RoleHint } from "./RoleHint";
import { roleOfChoice, roleOptions, type RoleChoice } from "./useRoles";

export function InviteDialog({ open, onOpenChange, roles }: { open: boolean; onOpenChange: (open: boolean) => void; roles?: RoleList }) {
  const { t } = useTranslation();
  const invite = useCommand();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<RoleChoice>("viewer");
  const fieldError = (name: string) => {
    const code = invite.error?.fields?.find((f) => f.field === name)?.code;
    return code ? t(`errors.${code}`) : undefined;
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reply = await invite.run({ t: "InviteMember", email, ...roleOfChoice(role) });
    if (reply) {
      setEmail("");
      onOpenChange(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("teams.invite.title")} description={t("teams.invite.body")} closeLabel={t("common.close")} testId="invite-dialog" size="sm" needs="team:write">
      <form onSubmit={submit} className="form" noValidate>
        {invite.error && !invite.error.fields?.length ? <ErrorAlert code={invite.error.code} /> : null}
        <TextField label={t("teams.fields.email")} type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError("email")} data-testid="invite-email" autoComplete="off" />
        <SelectField
          label={t("teams.fields.role")}
          value={role}
          onChange={(e) => setRole(e.target.value)}
          error={fieldError("role")}
          options={roleOptions(roles, (r) => t(`teams.roles.${r}`))}
          data-testid="invite-role"
        />
        <RoleHint roles={roles} choice={role} />
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={invite.busy} needs="team:write" data-testid="send-invite">
            {t("teams.invite.send")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
