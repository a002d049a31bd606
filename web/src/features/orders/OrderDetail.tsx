import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Dialog } from "../../components/Dialog";
import { formatBusinessDate, formatDateTime, formatMoney } from "../../components/format";
import { RecordElsewhere } from "../../components/RecordElsewhere";
import { PageSpinner } from "../../components/Spinner";
import { orderAtom } from "../../live/cache";
import { useCommand } from "../../live/useCommand";
import { useRecord } from "../../live/useRecord";
import type { Order, OrderAction } from "../../protocol/wire";
import { orderActions } from "./orderView";
import { OrderStatusBadge } from "./OrderStatusBadge";
import { RefundDialog } from "./RefundDialog";

/** One order in a dialog over the list, opened by `?order={id}`. */
export function OrderDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const view = useRecord(orderAtom(id), { t: "GetOrder", orderId: id }, id);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={view.state === "ready" ? t("orders.detail.title", { reference: view.record.reference }) : t("orders.detail.titleLoading")}
      closeLabel={t("common.close")}
      testId="order-detail"
    >
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? <Alert>{t(`errors.${view.code}`)}</Alert> : null}
      {/* The dialog covers the header's switches: the way to the order's business or mode is here. */}
      {view.state === "error" && view.code === "not_found" ? <RecordElsewhere recordId={id} /> : null}
      {view.state === "ready" ? <OrderBody order={view.record} /> : null}
    </Dialog>
  );
}

function OrderBody({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const act = useCommand();
  const [confirming, setConfirming] = useState<OrderAction | null>(null);
  const [refunding, setRefunding] = useState(false);

  async function confirm() {
    if (!confirming) return;
    const reply = await act.run({ t: "ActOnOrder", orderId: order.id, action: confirming });
    if (reply) setConfirming(null);
  }

  const rows: [string, ReactNode][] = [
    [t("orders.detail.payer"), order.payerEmail ? `${order.payerName} · ${order.payerEmail}` : order.payerName],
    [t("orders.detail.method"), t(`collections.method.${order.method}`)],
    [t("orders.detail.reference"), <code className="cell-mono">{order.reference}</code>],
    ...(order.failure ? [[t("orders.detail.failure"), <span data-testid="order-failure">{t(`commerce.failure.${order.failure}`)}</span>] as [string, ReactNode]] : []),
    ...(order.customerId
      ? [
          [
            t("orders.detail.customer"),
            <Link to={`/customers/${encodeURIComponent(order.customerId)}`} className="table-link">
              {order.payerName}
            </Link>,
          ] as [string, ReactNode],
        ]
      : []),
    [
      t("orders.detail.transaction"),
      order.transactionId ? (
        <Link to={`/payments/transactions/${encodeURIComponent(order.transactionId)}`} className="table-link cell-mono" data-testid="order-transaction">
          {order.transactionId}
        </Link>
      ) : (
        <span className="cell-muted">{t("orders.detail.noTransaction")}</span>
      ),
    ],
    [t("orders.detail.fee"), <span data-testid="order-fee">{formatMoney(order.feeCents, language)}</span>],
    ...(order.refundedCents > 0
      ? [[t("orders.detail.refunded"), <span data-testid="order-refunded">{formatMoney(order.refundedCents, language)}</span>] as [string, ReactNode]]
      : []),
    [t("orders.detail.net"), <span data-testid="order-net">{formatMoney(order.netCents, language)}</span>],
    [t("orders.detail.id"), <code className="cell-mono">{order.id}</code>],
    [t("orders.detail.created"), formatDateTime(order.createdAt, language)],
    [t("orders.detail.updated"), formatDateTime(order.updatedAt, language)],
  ];

  return (
    <div className="order-body">
      <div className="detail-meta">
        <span className="detail-amount" data-testid="order-detail-amount">
          {formatMoney(order.amountCents, language)}
        </span>
        <OrderStatusBadge status={order.status} />
      </div>
      <table className="table order-items" data-testid="order-items">
        <thead>
          <tr>
            <th scope="col">{t("orders.detail.item")}</th>
            <th scope="col" className="cell-amount">{t("orders.detail.quantity")}</th>
            <th scope="col" className="cell-amount">{t("orders.detail.unit")}</th>
            <th scope="col" className="cell-amount">{t("orders.detail.total")}</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item, index) => (
            <tr key={index}>
              <td>{item.description}</td>
              <td className="cell-amount">{item.quantity}</td>
              <td className="cell-amount">{formatMoney(item.unitCents, language)}</td>
              <td className="cell-amount">{formatMoney(item.unitCents * item.quantity, language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="detail-list">
        {rows.map(([label, value]) => (
          <div key={label} className="detail-row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {order.refunds.length > 0 ? (
        <table className="table order-items" data-testid="order-refunds">
          <caption className="table-caption">{t("orders.refund.listTitle")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("orders.refund.date")}</th>
              <th scope="col" className="cell-amount">{t("orders.refund.feeReturned")}</th>
              <th scope="col" className="cell-amount">{t("orders.columns.amount")}</th>
            </tr>
          </thead>
          <tbody>
            {order.refunds.map((refund) => (
              <tr key={refund.id} data-refund-id={refund.id}>
                <td>{formatBusinessDate(refund.refundedOn, language)}</td>
                <td className="cell-amount">{formatMoney(refund.feeReturnCents, language)}</td>
                <td className="cell-amount">{formatMoney(refund.amountCents, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {orderActions(order.status).length > 0 ? (
        <div className="form-actions">
          {orderActions(order.status).map((action) => (
            <Button
              key={action}
              variant="danger"
              onClick={() => (action === "refund" ? setRefunding(true) : setConfirming(action))}
              // Money going back out is the refunds section's; the rest of an order's life the orders section's.
              needs={action === "refund" ? "refunds:write" : "orders:write"}
              data-testid={`order-${action}`}
            >
              {t(`orders.actions.${action}`)}
            </Button>
          ))}
        </div>
      ) : null}
      {refunding ? <RefundDialog order={order} open onClose={() => setRefunding(false)} /> : null}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) {
            setConfirming(null);
            act.clearError();
          }
        }}
        title={confirming ? t(`orders.confirm.${confirming}Title`) : ""}
        body={confirming ? t(`orders.confirm.${confirming}Body`, { amount: formatMoney(order.amountCents, language), payer: order.payerName }) : ""}
        confirmLabel={confirming ? t(`orders.actions.${confirming}`) : ""}
        onConfirm={() => void confirm()}
        busy={act.busy}
        error={act.error}
        variant="danger"
        testId="order-confirm"
        needs="orders:write"
      />
    </div>
  );
}
