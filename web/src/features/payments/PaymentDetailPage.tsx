import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { PaymentStatusBadge, TestDataMarker } from "../../components/CollectionBadges";
import { EmptyState } from "../../components/EmptyState";
import { formatBusinessDate, formatDateTime, formatMoney } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { RecordElsewhere } from "../../components/RecordElsewhere";
import { paymentAtom, transactionUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import { useRecord } from "../../live/useRecord";
import type { Payment, PaymentKind } from "../../protocol/wire";
import { MandateSummary } from "./MandateSummary";
import { PaymentActions } from "./PaymentActions";
import { paymentsPath } from "./paths";
import { PaymentTransactions } from "./PaymentTransactions";
import "./payments.css";
import { describeDayToProcess, localeOf, nextDebitDate, representationOf } from "./schedule";
import { paymentActions } from "./paymentActions";

export function PaymentDetailPage({ kind }: { kind: PaymentKind }) {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const view = useRecord(paymentAtom(id), { t: "GetPayment", paymentId: id }, id);
  // A payment of the other kind is not found here: its address is the other list's.
  const wrongKind = view.state === "ready" && view.record.kind !== kind;

  return (
    <section className="page" data-testid="payment-detail">
      <Link to={paymentsPath(kind)} className="back-link">
        ← {kind === "once" ? t("payments.backOnce") : t("payments.backRecurring")}
      </Link>
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" || wrongKind ? (
        <EmptyState
          title={wrongKind || (view.state === "error" && view.code === "not_found") ? t("payments.notFound") : t(`errors.${view.state === "error" ? view.code : "internal"}`)}
          action={view.state === "error" && view.code === "not_found" ? <RecordElsewhere recordId={id} /> : undefined}
          testId="payment-missing"
        />
      ) : null}
      {view.state === "ready" && !wrongKind ? <PaymentDetail payment={view.record} /> : null}
    </section>
  );
}

const TRANSACTION_PAGE = 20;

function PaymentDetail({ payment }: { payment: Payment }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const transactions = usePagedList({
    kind: "transaction",
    upserts: transactionUpsertsAtom,
    key: payment.id,
    query: (cursor) => ({ t: "ListTransactions", filter: { paymentId: payment.id }, sort: "newest", cursor, limit: TRANSACTION_PAGE }),
  });
  const money = (cents: number | undefined) => (cents === undefined ? "" : formatMoney(cents, language));
  const date = (value: string | undefined) => (value ? formatBusinessDate(value, language) : "");
  const next = payment.status === "paused" ? t("payments.whenResumed") : date(nextDebitDate(payment));
  const again = representationText(payment, t, money, date);

  const schedule: [string, string][] =
    payment.kind === "once"
      ? [
          [t("payments.fields.dateToProcess"), date(payment.dateToProcess)],
          [t("payments.fields.transactionReference"), payment.transactionReference],
          [t("payments.fields.nextActionDate"), next],
          ...again,
        ]
      : [
          [t("payments.fields.interval"), payment.interval ? t(`collections.interval.${payment.interval}`) : ""],
          [t("payments.fields.dayToProcess"), payment.dayToProcess ? dayText(payment, t, language) : ""],
          [t("payments.fields.startDate"), date(payment.startDate)],
          [t("payments.fields.endDate"), date(payment.endDate) || t("payments.noEnd")],
          [t("payments.fields.nextActionDate"), next],
          ...again,
        ];

  const sections: { title: string; rows: [string, string][] }[] = [
    {
      title: t("payments.sections.amounts"),
      rows: [
        [t("payments.fields.amount"), money(payment.amountCents)],
        ...(payment.kind === "recurring" ? [[t("payments.fields.firstCollection"), money(payment.firstCollectionCents)] as [string, string]] : []),
        [t("payments.fields.collected"), money(payment.collectedCents)],
        [t("payments.fields.attempts"), String(payment.attempts)],
        [t("payments.fields.consecutiveUnpaids"), String(payment.consecutiveUnpaids)],
      ],
    },
    { title: t("payments.sections.schedule"), rows: schedule },
    {
      title: t("payments.sections.record"),
      rows: [
        [t("payments.fields.method"), t(`collections.method.${payment.method}`)],
        [t("payments.fields.createdAt"), formatDateTime(payment.createdAt, language)],
        [t("payments.fields.updatedAt"), formatDateTime(payment.updatedAt, language)],
      ],
    },
  ];

  return (
    <>
      <PageHeader
        title={t("payments.detailTitle", { amount: money(payment.amountCents), name: payment.customerName })}
        subtitle={t(`collections.kind.${payment.kind}`)}
        actions={<PaymentActions payment={payment} />}
        needs={paymentActions(payment).length > 0 ? "payments:write" : undefined}
      />
      <div className="detail-meta">
        <PaymentStatusBadge status={payment.status} />
        {payment.mode === "test" ? <TestDataMarker /> : null}
        <code className="cell-mono">{payment.id}</code>
        <Link to={`/customers/${payment.customerId}`} className="link" data-testid="payment-customer">
          {payment.customerName}
        </Link>
      </div>
      {(payment.status === "stopped" || payment.status === "paused") && payment.stopReason ? (
        <p className="stop-reason" data-testid="stop-reason">
          {t(payment.status === "stopped" ? "payments.stoppedBecause" : "payments.pausedBecause", {
            reason: stopReasonText(payment.stopReason, t),
          })}
        </p>
      ) : null}
      <div className="detail-grid">
        {sections.map((section) => (
          <div className="card" key={section.title}>
            <h2 className="card-title">{section.title}</h2>
            <dl className="detail-list">
              {section.rows.map(([label, value]) => (
                <div key={label} className="detail-row">
                  <dt>{label}</dt>
                  <dd>{value || "—"}</dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
        <MandateSummary mandateId={payment.mandateId} />
      </div>
      <PaymentTransactions list={transactions} />
    </>
  );
}

type Translate = TFunction;

/** The re-presentation of an unpaid 02 waiting to go again, as rows of the schedule. */
function representationText(
  payment: Payment,
  t: Translate,
  money: (cents: number | undefined) => string,
  date: (value: string | undefined) => string,
): [string, string][] {
  const again = representationOf(payment);
  if (!again) return [];
  const amount = money(again.cents);
  const text = again.on ? t("payments.representationOn", { amount, date: date(again.on) }) : t("payments.representationWaiting", { amount });
  const rows: [string, string][] = [[t("payments.fields.representation"), text]];
  if (again.movedFrom) rows.push([t("payments.fields.representationMovedFrom"), t("payments.representationMoved", { date: date(again.movedFrom) })]);
  return rows;
}

function dayText(payment: Payment, t: Translate, language: string): string {
  const described = describeDayToProcess(payment.interval, payment.dayToProcess ?? 1, localeOf(language));
  switch (described.key) {
    case "weekday":
      return described.weekday;
    case "fortnightDay":
      return t("payments.fortnightDay", { day: described.day });
    case "lastDay":
      return t("payments.lastDay");
    case "monthDay":
      return t("payments.monthDay", { day: described.day });
  }
}

const KNOWN_CODES = ["02", "03", "04", "06", "08", "10", "12", "14", "16", "18", "22", "26", "28", "30", "32", "34", "36", "50", "56", "60"] as const;

function stopReasonText(reason: string, t: Translate): string {
  if (reason === "mandate_ended") return t("collections.unpaidCode.mandate_ended");
  const code = KNOWN_CODES.find((known) => known === reason);
  return code ? `${code} · ${t(`collections.unpaidCode.${code}`)}` : reason;
}
