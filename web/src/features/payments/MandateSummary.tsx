import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { bankName } from "../../components/banks";
import { MandateStatusBadge } from "../../components/CollectionBadges";
import { formatMoney } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import { mandateAtom } from "../../live/cache";
import { useRecord } from "../../live/useRecord";

/** The mandate a payment collects under, in short, with a way to it. */
export function MandateSummary({ mandateId }: { mandateId: string }) {
  const { t, i18n } = useTranslation();
  const view = useRecord(mandateAtom(mandateId), { t: "GetMandate", mandateId }, mandateId);
  return (
    <div className="card" data-testid="mandate-summary">
      <h2 className="card-title">{t("payments.sections.mandate")}</h2>
      {view.state === "loading" ? <Spinner label={t("app.loading")} /> : null}
      {view.state === "error" ? <p className="cell-muted">{t(`errors.${view.code}`)}</p> : null}
      {view.state === "ready" ? (
        <>
          <dl className="detail-list">
            <div className="detail-row">
              <dt>{t("payments.fields.mandateStatus")}</dt>
              <dd>
                <MandateStatusBadge status={view.record.status} archived={view.record.archived} />
              </dd>
            </div>
            <div className="detail-row">
              <dt>{t("payments.fields.method")}</dt>
              <dd>{t(`collections.method.${view.record.method}`)}</dd>
            </div>
            <div className="detail-row">
              <dt>{t("payments.fields.contractReference")}</dt>
              <dd className="cell-mono">{view.record.contractReference || "—"}</dd>
            </div>
            <div className="detail-row">
              <dt>{t("payments.fields.bankAccount")}</dt>
              <dd>{`${bankName(view.record.bank)} •••• ${view.record.accountLastDigits}`}</dd>
            </div>
            {view.record.maximumCollectionCents !== undefined ? (
              <div className="detail-row">
                <dt>{t("payments.fields.maximumCollection")}</dt>
                <dd>{formatMoney(view.record.maximumCollectionCents, i18n.language)}</dd>
              </div>
            ) : null}
          </dl>
          <Link to={`/mandates/${mandateId}`} className="link card-link" data-testid="mandate-link">
            {t("payments.openMandate")}
          </Link>
        </>
      ) : null}
    </div>
  );
}
