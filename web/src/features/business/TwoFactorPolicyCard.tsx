import { useTranslation } from "react-i18next";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Badge } from "../../components/Badge";
import { SettingsCard } from "../../components/SettingsCard";
import { Switch } from "../../components/Switch";
import { useCommand } from "../../live/useCommand";

/** The team's two-factor rule: owners switch it; everyone else sees where it stands. */
export function TwoFactorPolicyCard({ required, isOwner }: { required: boolean; isOwner: boolean }) {
  const { t } = useTranslation();
  const change = useCommand();
  const label = t("business.security.requireTwoFactor");
  return (
    <SettingsCard title={t("business.security.title")} testId="two-factor-policy">
      <ErrorAlert code={change.error?.code} needs="owner" />
      <div className="settings-row">
        <div>
          <p className="field-label" id="require-two-factor-label">
            {label}
          </p>
          <p className="field-hint">{t("business.security.requireBody")}</p>
          {isOwner ? null : <p className="field-hint">{t("business.security.ownersOnly")}</p>}
        </div>
        {isOwner ? (
          <Switch
            checked={required}
            labelledBy="require-two-factor-label"
            busy={change.busy}
            onChange={(next) => void change.run({ t: "RequireTwoFactor", required: next })}
            testId="require-two-factor"
            needs="owner"
          />
        ) : (
          <span data-testid="require-two-factor-state">
            {required ? <Badge tone="green">{t("business.security.on")}</Badge> : <Badge tone="zinc">{t("business.security.off")}</Badge>}
          </span>
        )}
      </div>
    </SettingsCard>
  );
}
