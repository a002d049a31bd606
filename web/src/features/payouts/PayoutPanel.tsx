import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Badge } from "../../components/Badge";
import { Dialog } from "../../components/Dialog";
import { formatBusinessDate, formatMoney } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import type { PayoutDetail } from "../../protocol/wire";
import { STATUS_TONE } from "./PayoutsPage";
import { usePayout } from "./usePayouts";

/** One payout beside the list (there is no route of its own): amounts, lines, status history. */
export function PayoutPanel({ payoutId, onClose }: { payoutId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = usePayout(payoutId);
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())} title={t("payouts.detail.title")} closeLabel={t("common.close")} testId="payout-panel">
      {!detail ? <Spinner label={t("app.loading")} /> : null}
      {detail && "error" in detail ? <Alert>{t(`errors.${detail.error}`)}</Alert> : null}
      {detail && "value" in detail ? <PayoutBody detail={detail.value} /> : null}
    </Dialog>
  );
}

function PayoutBody({ detail }: { detail: PayoutDetail }) {
  const { t, i18n } = useTranslation();
  const { payout, lines } = detail;
  const money = (cents: number) => formatMoney(cents, i18n.language);
  const total = lines.reduce((sum, line) => sum + line.amountCents, 0);
  return (
    <div className="form">
      <div className="detail-meta">
        <span data-testid="panel-status">
          <Badge tone={STATUS_TONE[payout.status]}>{t(`payouts.status.${payout.status}`)}</Badge>
        </span>
        <code className="cell-mono">{payout.id}</code>
      </div>
      {payout.failure ? <Alert>{t(`payouts.failures.${payout.failure}`, { defaultValue: payout.failure })}</Alert> : null}
      <dl className="detail-list">
        <div className="detail-row">
          <dt>{t("payouts.fields.amount")}</dt>
          <dd data-testid="panel-amount">{money(payout.amountCents)}</dd>
        </div>
        <div className="detail-row">
          <dt>{t("payouts.fields.fee")}</dt>
          <dd>{money(payout.feeCents)}</dd>
        </div>
        <div className="detail-row">
          <dt>{t("payouts.fields.net")}</dt>
          <dd>{money(payout.netCents)}</dd>
        </div>
        <div className="detail-row">
          <dt>{t("payouts.fields.to")}</dt>
          <dd>
            {payout.holderName} •••• {payout.accountLast4}
          </dd>
        </div>
        {payout.customerId ? (
          <div className="detail-row">
            <dt>{t("payouts.fields.customer")}</dt>
            <dd>
              <Link to={`/customers/${payout.customerId}`} className="table-link">
                {payout.reason ?? payout.customerId}
              </Link>
            </dd>
          </div>
        ) : null}
        {payout.transactionId ? (
          <div className="detail-row">
            <dt>{t("payouts.fields.transaction")}</dt>
            <dd>
              <Link to={`/payments/transactions/${payout.transactionId}`} className="table-link cell-mono" data-testid="panel-transaction">
                {payout.transactionId}
              </Link>
            </dd>
          </div>
        ) : null}
      </dl>
      <h3 className="payouts-section-title">{t("payouts.detail.history")}</h3>
      <ol className="payout-steps" data-testid="panel-steps">
        {payout.history.map((step) => (
          <li key={`${step.status}-${step.at}`}>
            {t(`payouts.status.${step.status}`)} · {formatBusinessDate(step.date, i18n.language)}
          </li>
        ))}
      </ol>
      <h3 className="payouts-section-title">{t("payouts.detail.lines")}</h3>
      <div className="table-card">
        <table className="table" data-testid="panel-lines">
          <thead>
            <tr>
              <th scope="col">{t("payouts.fields.date")}</th>
              <th scope="col">{t("payouts.fields.line")}</th>
              <th scope="col" className="cell-amount">
                {t("payouts.fields.amount")}
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.entryId}>
                <td>{formatBusinessDate(line.entryDate, i18n.language)}</td>
                <td>
                  {t(`payouts.kinds.${line.kind}`, { defaultValue: line.kind })}
                  {line.transactionId ? (
                    <Link to={`/payments/transactions/${line.transactionId}`} className="cell-sub">
                      {line.transactionId}
                    </Link>
                  ) : null}
                </td>
                <td className="cell-amount">{money(line.amountCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="payout-totals" data-testid="panel-total">
        <span>{t("payouts.detail.total")}</span>
        <span>{money(total)}</span>
      </div>
    </div>
  );
}
