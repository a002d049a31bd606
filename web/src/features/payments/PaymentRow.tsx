import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { PaymentStatusBadge } from "../../components/CollectionBadges";
import { formatBusinessDate, formatDate, formatMoney } from "../../components/format";
import { paymentAtom } from "../../live/cache";
import type { PaymentKind } from "../../protocol/wire";
import { paymentPath } from "./paths";
import { nextDebitDate } from "./schedule";

export function PaymentRow({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const payment = useAtomValue(paymentAtom(id));
  if (!payment) return null;
  const language = i18n.language;
  const next = nextDebitDate(payment);
  const when =
    payment.kind === "once"
      ? payment.dateToProcess && formatBusinessDate(payment.dateToProcess, language)
      : [payment.interval && t(`collections.interval.${payment.interval}`), next && t("payments.nextOn", { date: formatBusinessDate(next, language) })]
          .filter(Boolean)
          .join(" · ");
  return (
    <tr data-testid="payment-row" data-payment-id={id}>
      <td>
        <Link to={paymentPath(payment.kind, id)} className="table-link">
          {payment.customerName || t("payments.noName")}
        </Link>
        {payment.transactionReference ? <div className="cell-sub cell-mono">{payment.transactionReference}</div> : null}
      </td>
      <td className="cell-muted hide-sm">{t(`collections.method.${payment.method}`)}</td>
      <td className="cell-amount" data-testid="payment-amount">
        {formatMoney(payment.amountCents, language)}
      </td>
      <td className="cell-muted hide-sm">{when || "—"}</td>
      <td>
        <PaymentStatusBadge status={payment.status} />
      </td>
      <td className="cell-muted hide-md">{formatDate(payment.createdAt, language)}</td>
    </tr>
  );
}

/** The header cells of a table of `PaymentRow`s of one kind. */
export function PaymentColumns({ kind }: { kind: PaymentKind }) {
  const { t } = useTranslation();
  return (
    <>
      <th scope="col">{t("payments.columns.customer")}</th>
      <th scope="col" className="hide-sm">{t("payments.columns.method")}</th>
      <th scope="col" className="cell-amount">{t("payments.columns.amount")}</th>
      <th scope="col" className="hide-sm">{kind === "once" ? t("payments.columns.dateToProcess") : t("payments.columns.schedule")}</th>
      <th scope="col">{t("payments.columns.status")}</th>
      <th scope="col" className="hide-md">{t("payments.columns.created")}</th>
    </>
  );
}
