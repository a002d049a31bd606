import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { placeError, withoutEdited } from "../../components/fieldErrors";
import { useEditedFields } from "../../components/useEditedFields";
import { SettingsCard } from "../../components/SettingsCard";
import { useCommand } from "../../live/useCommand";
import { useAccountChanged } from "./useProfile";

const FIELDS = ["currentPassword", "newPassword"] as const;
type Field = (typeof FIELDS)[number];

export function PasswordCard() {
  const { t } = useTranslation();
  const change = useCommand();
  const accountChanged = useAccountChanged();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const [changed, setChanged] = useState(false);
  const { edited, markEdited, clearEdited } = useEditedFields<Field>();
  const placed = withoutEdited(
    placeError(change.error, FIELDS, {
      wrong_password: "currentPassword",
      weak_password: "newPassword",
      common_password: "newPassword",
      too_long: "newPassword",
    }),
    edited,
  );

  function edit(field: Field, value: string, set: (value: string) => void) {
    set(value);
    markEdited(field);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChanged(false);
    // A new try starts clean: the last answer is not about what is sent now.
    change.clearError();
    clearEdited();
    if (newPassword !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    const reply = await change.run({ t: "ChangePassword", currentPassword, newPassword });
    if (!reply) return;
    // A new password ends every other session: the sessions are read again.
    accountChanged();
    setChanged(true);
    setCurrentPassword("");
    setNewPassword("");
    setConfirm("");
  }

  const fieldError = (field: Field) => (placed.fields[field] ? t(`errors.${placed.fields[field]}`) : undefined);
  return (
    <SettingsCard title={t("profile.password.title")} testId="profile-password">
      {changed ? (
        <Alert tone="success" testId="password-changed">
          {t("profile.password.changed")}
        </Alert>
      ) : null}
      <form className="form" onSubmit={submit} noValidate>
        {placed.general ? <Alert>{t(`errors.${placed.general}`)}</Alert> : null}
        <TextField
          label={t("profile.password.current")}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(event) => edit("currentPassword", event.target.value, setCurrentPassword)}
          error={fieldError("currentPassword")}
        />
        <div className="form-grid">
          <TextField
            label={t("profile.password.new")}
            name="newPassword"
            type="password"
            autoComplete="new-password"
            hint={t("auth.passwordHint")}
            value={newPassword}
            onChange={(event) => edit("newPassword", event.target.value, setNewPassword)}
            error={fieldError("newPassword")}
          />
          <TextField
            label={t("profile.password.confirm")}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
            error={mismatch ? t("auth.passwordMismatch") : undefined}
          />
        </div>
        <div className="form-actions form-actions-start">
          <Button
            type="submit"
            variant="primary"
            busy={change.busy}
            disabled={!currentPassword || !newPassword || !confirm}
            data-testid="change-password"
          >
            {change.busy ? t("profile.password.submitting") : t("profile.password.submit")}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
