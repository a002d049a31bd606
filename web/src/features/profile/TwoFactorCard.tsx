import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { SettingsCard } from "../../components/SettingsCard";
import { useCommand } from "../../live/useCommand";
import type { Profile } from "../../protocol/wire";
import { BackupCodesPanel } from "./BackupCodesPanel";
import { RegenerateCodesDialog, TurnOffDialog } from "./TwoFactorDialogs";
import { TwoFactorEnrolment, type Enrolment } from "./TwoFactorEnrolment";
import { useAccountChanged } from "./useProfile";

// Few enough left that the user should make new ones before they run out.
const LOW_CODES = 3;

export function TwoFactorCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const begin = useCommand();
  const accountChanged = useAccountChanged();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  // Shown once, straight from the reply: never stored anywhere else.
  const [codes, setCodes] = useState<string[] | null>(null);
  const [dialog, setDialog] = useState<"off" | "codes" | null>(null);

  async function start() {
    const reply = await begin.run({ t: "BeginTwoFactor" });
    if (reply?.t === "TwoFactorEnrolment") setEnrolment({ secret: reply.secret, otpauthUrl: reply.otpauthUrl });
  }

  function confirmed(backupCodes: string[]) {
    setEnrolment(null);
    setCodes(backupCodes);
    accountChanged();
  }

  function codesSaved() {
    setCodes(null);
    accountChanged();
  }

  const status = profile.twoFactorEnabled ? (
    <Badge tone="green">{t("profile.twoFactor.on")}</Badge>
  ) : (
    <Badge tone="zinc">{t("profile.twoFactor.off")}</Badge>
  );

  return (
    <SettingsCard
      title={t("profile.twoFactor.title")}
      description={profile.twoFactorEnabled ? t("profile.twoFactor.onBody") : t("profile.twoFactor.offBody")}
      status={<span data-testid="two-factor-status">{status}</span>}
      testId="profile-two-factor"
    >
      {codes ? (
        <BackupCodesPanel codes={codes} email={profile.user.email} onSaved={codesSaved} />
      ) : enrolment ? (
        <TwoFactorEnrolment enrolment={enrolment} onConfirmed={confirmed} onCancel={() => setEnrolment(null)} />
      ) : profile.twoFactorEnabled ? (
        <>
          <p className="settings-value" data-testid="backup-codes-left">
            {t("profile.twoFactor.codesLeft", { count: profile.backupCodesLeft })}
          </p>
          {profile.backupCodesLeft <= LOW_CODES ? <Alert tone="warning">{t("profile.twoFactor.codesLow")}</Alert> : null}
          <div className="form-actions form-actions-start">
            <Button onClick={() => setDialog("codes")} data-testid="new-backup-codes">
              {t("profile.twoFactor.newCodes")}
            </Button>
            <Button variant="danger" onClick={() => setDialog("off")} data-testid="turn-off-two-factor">
              {t("profile.twoFactor.turnOff")}
            </Button>
          </div>
        </>
      ) : (
        <>
          {begin.error ? <Alert>{t(`errors.${begin.error.code}`)}</Alert> : null}
          <div className="form-actions form-actions-start">
            <Button variant="primary" onClick={start} busy={begin.busy} data-testid="turn-on-two-factor">
              {begin.busy ? t("profile.twoFactor.starting") : t("profile.twoFactor.turnOn")}
            </Button>
          </div>
        </>
      )}
      <TurnOffDialog
        open={dialog === "off"}
        onOpenChange={(open) => setDialog(open ? "off" : null)}
        onDone={accountChanged}
      />
      <RegenerateCodesDialog
        open={dialog === "codes"}
        onOpenChange={(open) => setDialog(open ? "codes" : null)}
        onCodes={confirmed}
      />
    </SettingsCard>
  );
}
