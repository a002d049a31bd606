import { useState, type FormEvent } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { placeError, withoutEdited } from "../../components/fieldErrors";
import { useEditedFields } from "../../components/useEditedFields";
import { SettingsCard } from "../../components/SettingsCard";
import { useCommand } from "../../live/useCommand";
import type { Profile } from "../../protocol/wire";
import { useAccountChanged } from "./useProfile";

const FIELDS = ["newEmail", "currentPassword"] as const;
type Field = (typeof FIELDS)[number];

export function EmailCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const change = useCommand();
  const accountChanged = useAccountChanged();
  const [newEmail, setNewEmail] = useState("");
  const [currentPassword, setCurrentPassword] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { edited, markEdited, clearEdited } = useEditedFields<Field>();
  const placed = withoutEdited(
    placeError(change.error, FIELDS, {
      wrong_password: "currentPassword",
      same_email: "newEmail",
      email_taken: "newEmail",
      invalid_email: "newEmail",
      blocked_email_domain: "newEmail",
    }),
    edited,
  );

  function edit(field: Field, value: string, set: (value: string) => void) {
    set(value);
    markEdited(field);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSentTo(null);
    clearEdited();
    const address = newEmail.trim();
    const reply = await change.run({ t: "ChangeEmail", newEmail: address, currentPassword });
    if (!reply) return;
    setSentTo(address);
    setNewEmail("");
    setCurrentPassword("");
    accountChanged();
  }

  const fieldError = (field: Field) => (placed.fields[field] ? t(`errors.${placed.fields[field]}`) : undefined);
  return (
    <SettingsCard title={t("profile.email.title")} testId="profile-email">
      <div className="settings-row">
        <div>
          <p className="field-label">{t("profile.email.current")}</p>
          <p className="settings-value" data-testid="current-email">
            {profile.user.email}
          </p>
        </div>
        {profile.emailVerified ? (
          <Badge tone="green">{t("profile.email.verified")}</Badge>
        ) : (
          <Badge tone="amber">{t("profile.email.unverified")}</Badge>
        )}
      </div>
      {sentTo ? (
        <Alert tone="success" testId="email-change-sent">
          {t("profile.email.sent", { email: sentTo })}
        </Alert>
      ) : profile.pendingEmail ? (
        <Alert tone="info" testId="pending-email">
          <Trans i18nKey="profile.email.pending" values={{ email: profile.pendingEmail }} components={{ strong: <strong /> }} />
        </Alert>
      ) : null}
      <form className="form" onSubmit={submit} noValidate>
        {placed.general ? <Alert>{t(`errors.${placed.general}`)}</Alert> : null}
        <div className="form-grid">
          <TextField
            label={t("profile.email.newEmail")}
            name="newEmail"
            type="email"
            autoComplete="email"
            value={newEmail}
            onChange={(event) => edit("newEmail", event.target.value, setNewEmail)}
            error={fieldError("newEmail")}
          />
          <TextField
            label={t("profile.email.currentPassword")}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => edit("currentPassword", event.target.value, setCurrentPassword)}
            error={fieldError("currentPassword")}
          />
        </div>
        <div className="form-actions form-actions-start">
          <Button type="submit" variant="primary" busy={change.busy} disabled={!newEmail.trim() || !currentPassword} data-testid="change-email">
            {change.busy ? t("profile.email.submitting") : t("profile.email.submit")}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
