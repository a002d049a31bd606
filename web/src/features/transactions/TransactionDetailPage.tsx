import type { ReactNode } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { Badge } from "../../components/Badge";
import { bankName } from "../../components/banks";
import { EmptyState } from "../../components/EmptyState";
import { formatBusinessDate, formatDateTime, formatMoney } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { TransactionStatusBadge } from "../../components/TransactionStatusBadge";
import { RecordElsewhere } from "../../components/RecordElsewhere";
import type { Transaction } from "../../protocol/wire";
import { TransactionTimeline } from "./TransactionTimeline";
import { feeStanding } from "./transactionView";
import "./transactions.css";
import { UnpaidFollowUps } from "./UnpaidFollowUps";
import { UnpaidNote } from "./UnpaidNote";
import { transactionAtom } from "../../live/cache";
import { useRecord } from "../../live/useRecord";

/** `payouts`: the payouts made for the transaction and paying a debit order back (lazy, from the payouts feature). */
export function TransactionDetailPage({ payouts }: { payouts?: (transaction: Transaction) => ReactNode }) {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const view = useRecord(transactionAtom(id), { t: "GetTransaction", transactionId: id }, id);
  return (
    <section className="page" data-testid="transaction-detail">
      <Link to="/payments/transactions" className="back-link">
        ← {t("transactions.detail.back")}
      </Link>
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? (
        <EmptyState
          title={view.code === "not_found" ? t("transactions.detail.notFound") : t(`errors.${view.code}`)}
          action={view.code === "not_found" ? <RecordElsewhere recordId={id} /> : undefined}
          testId="transaction-missing"
        />
      ) : null}
      {view.state === "ready" ? <TransactionDetail transaction={view.record} payouts={payouts} /> : null}
    </section>
  );
}

function paymentPath(transaction: Transaction): string {
  return transaction.paymentKind === "once" ? `/payments/one-time/${transaction.paymentId}` : `/payments/recurring/${transaction.paymentId}`;
}

// A debit order links to its customer, payment and mandate; a pay-page charge to its order
// (and its customer when the payer is kept as one).
function links(transaction: Transaction, customer: string, payment: string, mandate: string, order: string): [string, ReactNode][] {
  const rows: [string, ReactNode][] = [];
  rows.push([
    customer,
    transaction.customerId ? (
      <Link to={`/customers/${transaction.customerId}`} className="table-link" data-testid="link-customer">
        {transaction.customerName}
      </Link>
    ) : (
      transaction.customerName
    ),
  ]);
  if (transaction.paymentId) {
    rows.push([
      payment,
      <Link to={paymentPath(transaction)} className="table-link cell-mono" data-testid="link-payment">
        {transaction.paymentId}
      </Link>,
    ]);
  }
  if (transaction.mandateId) {
    rows.push([
      mandate,
      <Link to={`/mandates/${transaction.mandateId}`} className="table-link cell-mono" data-testid="link-mandate">
        {transaction.mandateId}
      </Link>,
    ]);
  }
  if (transaction.orderId) {
    rows.push([
      order,
      <Link to={`/commerce/orders?order=${encodeURIComponent(transaction.orderId)}`} className="table-link cell-mono" data-testid="link-order">
        {transaction.orderId}
      </Link>,
    ]);
  }
  return rows;
}

/** The fee and what is left of the amount: as charged, as it will be once paid, or none at all. */
function feeRows(transaction: Transaction, t: TFunction, language: string): [string, ReactNode][] {
  const standing = feeStanding(transaction.status);
  if (standing === "none") {
    return [[t("transactions.detail.fields.fee"), <span data-testid="transaction-fee">{t("transactions.detail.noFee")}</span>]];
  }
  const whenPaid = standing === "whenPaid";
  return [
    [
      whenPaid ? t("transactions.detail.fields.feeWhenPaid") : t("transactions.detail.fields.fee"),
      <span data-testid="transaction-fee">{formatMoney(transaction.feeCents, language)}</span>,
    ],
    [
      whenPaid ? t("transactions.detail.fields.netWhenPaid") : t("transactions.detail.fields.net"),
      <span data-testid="transaction-net">{formatMoney(transaction.netCents, language)}</span>,
    ],
  ];
}

function TransactionDetail({ transaction, payouts }: { transaction: Transaction; payouts?: (transaction: Transaction) => ReactNode }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const sections: { title: string; rows: [string, ReactNode][] }[] = [
    {
      title: t("transactions.detail.sections.debit"),
      rows: [
        [t("transactions.detail.fields.actionDate"), formatBusinessDate(transaction.actionDate, language)],
        [t("transactions.detail.fields.method"), t(`collections.method.${transaction.method}`)],
        [t("transactions.detail.fields.kind"), t(`collections.kind.${transaction.paymentKind}`)],
        [t("transactions.detail.fields.reference"), <code className="cell-mono">{transaction.reference}</code>],
        ...feeRows(transaction, t, language),
        [t("transactions.detail.fields.attempt"), String(transaction.attempt)],
        ...(transaction.unpaidCode ? [[t("transactions.detail.fields.unpaidCode"), transaction.unpaidCode] as [string, ReactNode]] : []),
      ],
    },
    {
      title: t("transactions.detail.sections.account"),
      rows: [
        ...(transaction.bank ? [[t("transactions.detail.fields.bank"), bankName(transaction.bank)] as [string, ReactNode]] : []),
        ...(transaction.cardBrand ? [[t("transactions.detail.fields.card"), t(`cards.brand.${transaction.cardBrand}`)] as [string, ReactNode]] : []),
        ...(transaction.accountLastDigits ? [[t("transactions.detail.fields.account"), `•••• ${transaction.accountLastDigits}`] as [string, ReactNode]] : []),
        ...(transaction.failure ? [[t("transactions.detail.fields.failure"), t(`commerce.failure.${transaction.failure}`)] as [string, ReactNode]] : []),
      ],
    },
    {
      title: t("transactions.detail.sections.links"),
      rows: links(transaction, t("transactions.detail.fields.customer"), t("transactions.detail.fields.payment"), t("transactions.detail.fields.mandate"), t("transactions.detail.fields.order")),
    },
    {
      title: t("transactions.detail.sections.record"),
      rows: [
        [t("transactions.detail.fields.id"), <code className="cell-mono">{transaction.id}</code>],
        [t("transactions.detail.fields.created"), formatDateTime(transaction.createdAt, language)],
        [t("transactions.detail.fields.updated"), formatDateTime(transaction.updatedAt, language)],
      ],
    },
  ];

  return (
    <>
      <PageHeader title={transaction.customerName} subtitle={transaction.reference} />
      <div className="detail-meta">
        <span className="detail-amount" data-testid="transaction-detail-amount">
          {formatMoney(transaction.amountCents, language)}
        </span>
        <TransactionStatusBadge status={transaction.status} />
        {transaction.mode === "test" ? <Badge tone="amber">{t("transactions.detail.testData")}</Badge> : null}
      </div>
      {transaction.unpaidCode ? <UnpaidNote code={transaction.unpaidCode} /> : null}
      <UnpaidFollowUps transaction={transaction} />
      <div className="detail-grid">
        {sections.map((section) => (
          <div className="card" key={section.title}>
            <h2 className="card-title">{section.title}</h2>
            <dl className="detail-list">
              {section.rows.map(([label, value]) => (
                <div key={label} className="detail-row">
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
        {payouts?.(transaction)}
        <div className="card">
          <h2 className="card-title">{t("transactions.detail.history")}</h2>
          <TransactionTimeline steps={transaction.history} />
        </div>
      </div>
    </>
  );
}
