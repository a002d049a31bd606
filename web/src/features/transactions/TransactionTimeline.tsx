import { useTranslation } from "react-i18next";
import { formatBusinessDate } from "../../components/format";
import { TransactionStatusBadge } from "../../components/TransactionStatusBadge";
import type { TransactionStep } from "../../protocol/wire";

/** The steps a debit went through, oldest first, each on its business date. */
export function TransactionTimeline({ steps }: { steps: TransactionStep[] }) {
  const { t, i18n } = useTranslation();
  if (steps.length === 0) return <p className="cell-muted">{t("transactions.detail.historyEmpty")}</p>;
  return (
    <ol className="timeline" data-testid="transaction-history">
      {steps.map((step, index) => (
        <li className="timeline-step" key={`${index}-${step.status}`} data-testid="history-step">
          <span className="timeline-dot" aria-hidden="true" />
          <time className="timeline-date" dateTime={step.date}>
            {formatBusinessDate(step.date, i18n.language)}
          </time>
          <TransactionStatusBadge status={step.status} />
          {step.unpaidCode ? <span className="cell-mono">{step.unpaidCode}</span> : null}
        </li>
      ))}
    </ol>
  );
}
