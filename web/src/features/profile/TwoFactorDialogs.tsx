import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { useCommand } from "../../live/useCommand";

type DialogProps = { open: boolean; onOpenChange: (open: boolean) => void };

function CodeField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t("profile.twoFactor.code")}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      className="input-code"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      data-testid="dialog-code"
    />
  );
}

export function TurnOffDialog({ open, onOpenChange, onDone }: DialogProps & { onDone: () => void }) {
  const { t } = useTranslation();
  const turnOff = useCommand();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const placed = placeError(turnOff.error, ["password", "code"] as const, { wrong_password: "password", invalid_code: "code" });

  function close(next: boolean) {
    if (!next) {
      setPassword("");
      setCode("");
      turnOff.clearError();
    }
    onOpenChange(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reply = await turnOff.run({ t: "DisableTwoFactor", password, code: code.replace(/\s+/g, "") });
    if (!reply) return;
    close(false);
    onDone();
  }

  return (
    <Dialog open={open} onOpenChange={close} size="sm" title={t("profile.twoFactor.turnOffTitle")} description={t("profile.twoFactor.turnOffBody")} closeLabel={t("common.close")} testId="turn-off-dialog">
      <form className="form" onSubmit={submit} noValidate>
        {placed.general ? <Alert>{t(`errors.${placed.general}`)}</Alert> : null}
        <TextField
          label={t("profile.twoFactor.password")}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={placed.fields.password ? t(`errors.${placed.fields.password}`) : undefined}
        />
        <CodeField value={code} onChange={setCode} error={placed.fields.code ? t(`errors.${placed.fields.code}`) : undefined} />
        <div className="form-actions">
          <Button onClick={() => close(false)} disabled={turnOff.busy}>
            {t("profile.cancel")}
          </Button>
          <Button type="submit" variant="danger" busy={turnOff.busy} disabled={!password || code.trim().length < 6} data-testid="confirm-turn-off">
            {turnOff.busy ? t("profile.twoFactor.turningOff") : t("profile.twoFactor.turnOff")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function RegenerateCodesDialog({ open, onOpenChange, onCodes }: DialogProps & { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const regenerate = useCommand();
  const [code, setCode] = useState("");
  const placed = placeError(regenerate.error, ["code"] as const, { invalid_code: "code" });

  function close(next: boolean) {
    if (!next) {
      setCode("");
      regenerate.clearError();
    }
    onOpenChange(next);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reply = await regenerate.run({ t: "RegenerateBackupCodes", code: code.replace(/\s+/g, "") });
    if (reply?.t !== "BackupCodes") return;
    close(false);
    onCodes(reply.codes);
  }

  return (
    <Dialog open={open} onOpenChange={close} size="sm" title={t("profile.twoFactor.newCodesTitle")} description={t("profile.twoFactor.newCodesBody")} closeLabel={t("common.close")} testId="regenerate-dialog">
      <form className="form" onSubmit={submit} noValidate>
        {placed.general ? <Alert>{t(`errors.${placed.general}`)}</Alert> : null}
        <CodeField value={code} onChange={setCode} error={placed.fields.code ? t(`errors.${placed.fields.code}`) : undefined} />
        <div className="form-actions">
          <Button onClick={() => close(false)} disabled={regenerate.busy}>
            {t("profile.cancel")}
          </Button>
          <Button type="submit" variant="primary" busy={regenerate.busy} disabled={code.trim().length < 6} data-testid="confirm-regenerate">
            {regenerate.busy ? t("profile.twoFactor.making") : t("profile.twoFactor.newCodesSubmit")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
