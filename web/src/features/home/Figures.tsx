import { useTranslation } from "react-i18next";
import { formatBasisPoints, formatMoney } from "../../components/format";
import type { Dashboard } from "../../protocol/wire";
import { ratioLevel, thresholdShare, type RatioLevel } from "./thresholds";

function Stat({ label, value, note, testId }: { label: string; value: string; note?: string; testId: string }) {
  return (
    <div className="card stat" data-testid={testId}>
      <h2 className="card-title">{label}</h2>
      <p className="stat-value" data-testid={`${testId}-value`}>
        {value}
      </p>
      {note ? <p className="stat-note">{note}</p> : null}
    </div>
  );
}

type RatioProps = { label: string; ratioBp: number; thresholdBp: number; level: RatioLevel; testId: string };

function Ratio({ label, ratioBp, thresholdBp, level, testId }: RatioProps) {
  const { t, i18n } = useTranslation();
  const threshold = formatBasisPoints(thresholdBp, i18n.language);
  return (
    <div className={`card stat stat-ratio stat-${level}`} data-testid={testId} data-level={level}>
      <h2 className="card-title">{label}</h2>
      <p className="stat-value" data-testid={`${testId}-value`}>
        {formatBasisPoints(ratioBp, i18n.language)}
      </p>
      <div className="ratio-bar" aria-hidden="true">
        <span className="ratio-fill" style={{ width: `${thresholdShare(ratioBp, thresholdBp) * 100}%` }} />
      </div>
      <p className="stat-note">
        {level === "over" ? t("home.ratio.over", { threshold }) : level === "near" ? t("home.ratio.near", { threshold }) : t("home.ratio.ok", { threshold })}
      </p>
    </div>
  );
}

export function Figures({ dashboard }: { dashboard: Dashboard }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const settled = dashboard.settledThisMonth;
  return (
    <div className="stats">
      <Stat label={t("home.collectedToday")} value={formatMoney(dashboard.collectedTodayCents, language)} testId="collected-today" />
      <Stat label={t("home.collectedMonth")} value={formatMoney(dashboard.collectedMonthCents, language)} testId="collected-month" />
      <Stat
        label={t("home.successRate")}
        value={settled === 0 ? t("home.noRatio") : formatBasisPoints(dashboard.successRateBp, language)}
        note={t("home.settled", { count: settled })}
        testId="success-rate"
      />
      <Ratio
        label={t("home.unpaidRatio")}
        ratioBp={dashboard.unpaidRatioBp}
        thresholdBp={dashboard.unpaidThresholdBp}
        level={ratioLevel(dashboard.unpaidRatioBp, dashboard.unpaidThresholdBp, settled)}
        testId="unpaid-ratio"
      />
      <Ratio
        label={t("home.disputeRatio")}
        ratioBp={dashboard.disputeRatioBp}
        thresholdBp={dashboard.disputeThresholdBp}
        level={ratioLevel(dashboard.disputeRatioBp, dashboard.disputeThresholdBp, settled)}
        testId="dispute-ratio"
      />
    </div>
  );
}
