import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { bankName } from "../../components/banks";
import { MandateStatusBadge, TestDataMarker } from "../../components/CollectionBadges";
import { EmptyState } from "../../components/EmptyState";
import { formatBusinessDate, formatDateTime, formatMoney } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { RecordElsewhere } from "../../components/RecordElsewhere";
import { mandateAtom } from "../../live/cache";
import { useRecord } from "../../live/useRecord";
import type { Mandate } from "../../protocol/wire";
import { MandateActionButtons } from "./MandateActions";
import "./mandates.css";
import { mandateActions } from "./mandateActions";

export function MandateDetailPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const view = useRecord(mandateAtom(id), { t: "GetMandate", mandateId: id }, id);
  return (
    <section className="page" data-testid="mandate-detail">
      <Link to="/mandates" className="back-link">
        ← {t("mandates.back")}
      </Link>
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? (
        <EmptyState
          title={view.code === "not_found" ? t("mandates.notFound") : t(`errors.${view.code}`)}
          action={view.code === "not_found" ? <RecordElsewhere recordId={id} /> : undefined}
          testId="mandate-missing"
        />
      ) : null}
      {view.state === "ready" ? <MandateDetail mandate={view.record} /> : null}
    </section>
  );
}

function MandateDetail({ mandate }: { mandate: Mandate }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const money = (cents: number | undefined) => (cents === undefined ? "" : formatMoney(cents, language));
  const yesNo = (value: boolean) => (value ? t("mandates.yes") : t("mandates.no"));
  const debicheck = mandate.method === "debicheck";

  const sections: { title: string; rows: [string, string][] }[] = [
    {
      title: t("mandates.sections.authority"),
      rows: [
        [t("mandates.fields.method"), t(`collections.method.${mandate.method}`)],
        [t("mandates.fields.contractReference"), mandate.contractReference],
        [t("mandates.fields.clientType"), t(`collections.clientType.${mandate.clientType}`)],
        [t("mandates.fields.industry"), t(`collections.industry.${mandate.industry}`)],
        [t("mandates.fields.abbreviatedName"), mandate.abbreviatedName],
        [t("mandates.fields.endDate"), mandate.endDate ? formatBusinessDate(mandate.endDate, language) : t("mandates.noEnd")],
      ],
    },
    {
      title: t("mandates.sections.amounts"),
      rows: [
        [t("mandates.fields.amount"), money(mandate.amountCents)],
        [t("mandates.fields.maximumCollection"), money(mandate.maximumCollectionCents)],
        [t("mandates.fields.variableAmount"), yesNo(mandate.variableAmount)],
        [t("mandates.fields.adjustmentCategory"), t(`collections.adjustmentCategory.${mandate.adjustmentCategory}`)],
        ...(mandate.adjustmentType
          ? ([
              [t("mandates.fields.adjustmentType"), t(`collections.adjustmentType.${mandate.adjustmentType}`)],
              mandate.adjustmentType === "rate"
                ? [t("mandates.fields.adjustmentRate"), `${mandate.adjustmentRate} %`]
                : [t("mandates.fields.adjustmentAmount"), money(mandate.adjustmentAmountCents)],
            ] as [string, string][])
          : []),
      ],
    },
    {
      title: t("mandates.sections.collection"),
      rows: [
        [t("mandates.fields.bankAccount"), `${bankName(mandate.bank)} •••• ${mandate.accountLastDigits}`],
        [t("mandates.fields.allowTracking"), mandate.allowTracking ? t("mandates.trackingFor", { count: mandate.trackingDays ?? 0 }) : t("mandates.no")],
        [t("mandates.fields.allowDateAdjustment"), yesNo(mandate.allowDateAdjustment)],
      ],
    },
    ...(debicheck
      ? [
          {
            title: t("mandates.sections.approval"),
            rows: [
              [t("mandates.fields.approvalWindow"), mandate.approvalWindow ? t(`collections.approvalWindow.${mandate.approvalWindow}`) : ""],
              [t("mandates.fields.requests"), String(mandate.authenticationRequests)],
              [t("mandates.fields.due"), mandate.authenticationDue ? formatBusinessDate(mandate.authenticationDue, language) : ""],
            ] as [string, string][],
          },
        ]
      : []),
    {
      title: t("mandates.sections.record"),
      rows: [
        [t("mandates.fields.createdAt"), formatDateTime(mandate.createdAt, language)],
        [t("mandates.fields.updatedAt"), formatDateTime(mandate.updatedAt, language)],
      ],
    },
  ];

  return (
    <>
      <PageHeader title={mandate.customerName} subtitle={t(`collections.method.${mandate.method}`)} actions={<MandateActionButtons mandate={mandate} />}
        needs={mandateActions(mandate).length > 0 ? "mandates:write" : undefined}
      />
      <div className="detail-meta">
        <MandateStatusBadge status={mandate.status} archived={mandate.archived} />
        {mandate.mode === "test" ? <TestDataMarker /> : null}
        <code className="cell-mono">{mandate.id}</code>
        <Link to={`/customers/${mandate.customerId}`} className="link" data-testid="mandate-customer">
          {mandate.customerEmail || mandate.customerName}
        </Link>
      </div>
      {mandate.status === "no_reply" ? <p className="e-mandate-note">{t("mandates.noReplyNote")}</p> : null}
      {mandate.status === "pending_authentication" ? (
        <p className="e-mandate-note" data-testid="awaiting-approval">
          {mandate.authenticationDue
            ? t("mandates.awaitingUntil", { date: formatBusinessDate(mandate.authenticationDue, language) })
            : t("mandates.awaiting")}
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
      </div>
    </>
  );
}
