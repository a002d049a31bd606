import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { EmptyState } from "../../components/EmptyState";
import { formatDateTime } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import { useLiveQuery } from "../../live/useLiveQuery";
import type { HistoryDetail, ReplyBody } from "../../protocol/wire";
import "./history.css";
import { fieldLabel, fieldOrder, fieldValueText } from "./fieldLabels";
import { recordPath } from "./historyView";
import { actionLabel, recordLabel, recordNameLabel, shownRecordId, translatorOf, whoLabel } from "./labels";

const pickDetail = (reply: ReplyBody) => (reply.t === "HistoryEntry" ? reply.detail : undefined);

export function HistoryEntryPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  // An entry never changes once written: nothing to follow.
  const view = useLiveQuery({ t: "GetHistoryEntry", entryId: id }, { pick: pickDetail, follows: [] });
  return (
    <section className="page" data-testid="history-entry">
      <Link to="/account/history" className="back-link">
        ← {t("accountHistory.detail.back")}
      </Link>
      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? (
        <EmptyState title={view.code === "not_found" ? t("accountHistory.detail.notFound") : t(`errors.${view.code}`)} testId="history-entry-missing" />
      ) : null}
      {view.state === "ready" ? <EntryDetail detail={view.value} /> : null}
    </section>
  );
}

function EntryDetail({ detail }: { detail: HistoryDetail }) {
  const { t, i18n } = useTranslation();
  const { entry } = detail;
  const path = recordPath(detail);
  const changed = new Set(entry.fields);
  const translate = translatorOf(i18n);
  const recordId = shownRecordId(entry);
  const value = (field: string, json: string | undefined) =>
    fieldValueText(entry.recordKind, field, json, { translate, language: i18n.language });
  const rows: [string, string, string?][] = [
    [t("accountHistory.detail.who"), whoLabel(entry, t)],
    [t("accountHistory.detail.when"), formatDateTime(entry.at, i18n.language)],
    [t("accountHistory.detail.address"), entry.address ?? "—"],
    [t("accountHistory.detail.browser"), entry.userAgent || "—"],
    [t("accountHistory.detail.command"), detail.commandId ?? "—", "mono"],
  ];
  // What changed first, each group in the record's own order.
  const fields = [...detail.changes].sort(
    (a, b) => Number(changed.has(b.field)) - Number(changed.has(a.field)) || fieldOrder(entry.recordKind, a.field) - fieldOrder(entry.recordKind, b.field),
  );
  return (
    <>
      <PageHeader
        title={`${recordLabel(entry, t)} · ${actionLabel(entry, t)}`}
        subtitle={entry.recordName && recordId ? `${entry.recordName} · ${recordId}` : (entry.recordName ?? recordId)}
      />
      <div className="detail-grid">
        <div className="card">
          <h2 className="card-title">{t("accountHistory.detail.sections.who")}</h2>
          <dl className="detail-list">
            {rows.map(([label, value, style]) => (
              <div key={label} className="detail-row">
                <dt>{label}</dt>
                <dd className={style === "mono" ? "cell-mono" : undefined} data-testid={`entry-${label}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="card">
          <h2 className="card-title">{t("accountHistory.detail.sections.record")}</h2>
          <dl className="detail-list">
            {entry.recordName ? (
              <div className="detail-row">
                <dt>{recordNameLabel(entry, t, translate)}</dt>
                <dd className="history-record-name" data-testid="entry-record-name">
                  {entry.recordName}
                </dd>
              </div>
            ) : null}
            <div className="detail-row">
              <dt>{t("accountHistory.detail.record")}</dt>
              <dd>
                {path ? (
                  <Link to={path} className="table-link" data-testid="entry-record-link">
                    {recordId ?? recordLabel(entry, t)}
                  </Link>
                ) : (
                  (recordId ?? "—")
                )}
              </dd>
            </div>
            <div className="detail-row">
              <dt>{t("accountHistory.detail.entryId")}</dt>
              <dd className="cell-mono">{entry.id}</dd>
            </div>
          </dl>
        </div>
      </div>
      {fields.length > 0 ? (
        <div className="table-card history-changes">
          <table className="table" data-testid="history-changes">
            <thead>
              <tr>
                <th scope="col">{t("accountHistory.detail.field")}</th>
                <th scope="col">{t("accountHistory.detail.before")}</th>
                <th scope="col">{t("accountHistory.detail.after")}</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <tr key={field.field} className={changed.has(field.field) ? "is-changed" : undefined} data-testid="history-change" data-field={field.field}>
                  <td>
                    <span data-testid="history-field-label">{fieldLabel(entry.recordKind, field.field, translate)}</span>
                    {/* The protocol's own name, as the API and webhooks send it, for developers. */}
                    <span className="cell-sub cell-mono">{field.field}</span>
                  </td>
                  <td className="history-value">{value(field.field, field.before)}</td>
                  <td className="history-value">{value(field.field, field.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
