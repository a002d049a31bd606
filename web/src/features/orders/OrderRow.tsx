import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatMoney } from "../../components/format";
import { orderAtom } from "../../live/cache";
import { OrderStatusBadge } from "./OrderStatusBadge";

export function OrderRow({ id, onOpen }: { id: string; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const order = useAtomValue(orderAtom(id));
  if (!order) return null;
  const items = order.items.reduce((count, item) => count + item.quantity, 0);
  return (
    <tr data-testid="order-row" data-order-id={id}>
      <td className="cell-nowrap">
        <button type="button" className="table-link link-button" onClick={() => onOpen(id)} data-testid="order-open">
          {formatDateTime(order.createdAt, i18n.language)}
        </button>
      </td>
      <td>
        {order.payerName}
        {order.payerEmail ? <span className="cell-sub">{order.payerEmail}</span> : null}
      </td>
      <td className="cell-mono hide-sm">
        {order.reference}
        <span className="cell-sub">{t("orders.itemCount", { count: items })}</span>
      </td>
      <td className="cell-muted hide-md">{t(`collections.method.${order.method}`)}</td>
      <td className="cell-amount" data-testid="order-amount">
        {formatMoney(order.amountCents, i18n.language)}
      </td>
      <td>
        <OrderStatusBadge status={order.status} />
        {order.failure ? <span className="cell-sub">{t(`commerce.failure.${order.failure}`)}</span> : null}
      </td>
    </tr>
  );
}
