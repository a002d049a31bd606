import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { PaymentStatusBadge } from "../../components/CollectionBadges";
import { formatMoney } from "../../components/format";
import { paymentAtom } from "../../live/cache";
import { createdPaymentPath } from "./paths";

/** A payment an import made, with the spreadsheet row it came from. */
export function ImportPaymentRow({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const payment = useAtomValue(paymentAtom(id));
  if (!payment) return null;
  return (
    <tr data-testid="import-payment-row" data-payment-id={id}>
      <td className="cell-amount cell-muted">{payment.importRow ?? "—"}</td>
      <td>
        <Link to={createdPaymentPath(payment.kind, id)} className="table-link">
          {payment.customerName || t("payments.noName")}
        </Link>
        {payment.transactionReference ? <div className="cell-sub cell-mono">{payment.transactionReference}</div> : null}
      </td>
      <td className="cell-amount">{formatMoney(payment.amountCents, i18n.language)}</td>
      <td>
        <PaymentStatusBadge status={payment.status} />
      </td>
    </tr>
  );
}
