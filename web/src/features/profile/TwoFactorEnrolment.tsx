import QRCode from "qrcode";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { useCommand } from "../../live/useCommand";

export type Enrolment = { secret: string; otpauthUrl: string };

// Groups of four are easier to type into an app by hand.
function grouped(secret: string): string {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

type EnrolmentProps = { enrolment: Enrolment; onConfirmed: (codes: string[]) => void; onCancel: () => void };

export function TwoFactorEnrolment({ enrolment, onConfirmed, onCancel }: EnrolmentProps) {
  const { t } = useTranslation();
  const confirm = useCommand();
  const [qr, setQr] = useState<{ url: string; image: string } | null>(null);
  const [code, setCode] = useState("");
  const placed = placeError(confirm.error, ["code"] as const, { invalid_code: "code" });

  useEffect(() => {
    let current = true;
    // Drawn in the browser: the secret in the link never goes to a third party.
    void QRCode.toDataURL(enrolment.otpauthUrl, { margin: 1, width: 176, errorCorrectionLevel: "M" }).then((image) => {
      if (current) setQr({ url: enrolment.otpauthUrl, image });
    });
    return () => {
      current = false;
    };
  }, [enrolment.otpauthUrl]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const reply = await confirm.run({ t: "ConfirmTwoFactor", code: code.replace(/\s+/g, "") });
    if (reply?.t === "BackupCodes") onConfirmed(reply.codes);
  }

  const image = qr?.url === enrolment.otpauthUrl ? qr.image : null;
  return (
    <div className="enrolment" data-testid="two-factor-enrolment">
      <div className="enrolment-qr">
        {image ? <img src={image} alt={t("profile.twoFactor.qrAlt")} width={176} height={176} data-testid="two-factor-qr" /> : <div className="qr-placeholder" />}
      </div>
      <div className="enrolment-steps">
        <p>{t("profile.twoFactor.scan")}</p>
        <p className="field-hint">{t("profile.twoFactor.manual")}</p>
        <code className="secret" data-testid="two-factor-secret" data-secret={enrolment.secret}>
          {grouped(enrolment.secret)}
        </code>
        <p>{t("profile.twoFactor.enterCode")}</p>
        <form className="form" onSubmit={submit} noValidate>
          {placed.general ? <Alert>{t(`errors.${placed.general}`)}</Alert> : null}
          <TextField
            label={t("profile.twoFactor.code")}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className="input-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={placed.fields.code ? t(`errors.${placed.fields.code}`) : undefined}
            data-testid="enrolment-code"
          />
          <div className="form-actions form-actions-start">
            <Button type="submit" variant="primary" busy={confirm.busy} disabled={code.trim().length < 6} data-testid="confirm-two-factor">
              {confirm.busy ? t("profile.twoFactor.confirming") : t("profile.twoFactor.confirm")}
            </Button>
            <Button onClick={onCancel} disabled={confirm.busy}>
              {t("profile.cancel")}
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}
