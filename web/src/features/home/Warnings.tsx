import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { formatBasisPoints } from "../../components/format";
import type { Dashboard } from "../../protocol/wire";
import { thresholdWarnings } from "./thresholds";

/** A crossed (or nearly crossed) regulator threshold, said in words above the figures. */
export function Warnings({ dashboard }: { dashboard: Dashboard }) {
  const { t, i18n } = useTranslation();
  const warnings = thresholdWarnings(dashboard);
  if (warnings.length === 0) return null;
  return (
    <div className="home-warnings">
      {warnings.map((warning) => {
        const values = {
          ratio: formatBasisPoints(warning.ratioBp, i18n.language),
          threshold: formatBasisPoints(warning.thresholdBp, i18n.language),
        };
        return (
          <Alert key={warning.kind} tone={warning.level === "over" ? "error" : "warning"} testId={`warning-${warning.kind}`}>
            <strong>{t(`home.warning.${warning.kind}.${warning.level}`, values)}</strong> {t(`home.warning.${warning.kind}.advice`)}
          </Alert>
        );
      })}
    </div>
  );
}
