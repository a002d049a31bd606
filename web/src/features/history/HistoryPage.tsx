import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { FilterClear, FilterSelect } from "../../components/FilterBar";
import { formatDateTime } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { useAddressView } from "../../components/useAddressView";
import { useHistoryPages } from "../../live/useHistoryPages";
import type { HistoryEntry, HistoryPerson, Language } from "../../protocol/wire";
import "./history.css";
import {
  EMPTY_VIEW,
  HISTORY_ACTIONS,
  RECORD_KINDS,
  historyFilter,
  matchesFilter,
  readHistoryView,
  writeHistoryView,
  type HistoryView,
} from "./historyView";
import { changedFieldsLabel } from "./fieldLabels";
import { actionLabel, namesFields, recordLabel, shownRecordId, translatorOf, whoLabel } from "./labels";
import { useHistoryExport } from "./useHistoryExport";

// Entries asked for at a time; more load on request.
const PAGE_SIZE = 50;

export function HistoryPage() {
  const { t, i18n } = useTranslation();
  const { view, change } = useAddressView(readHistoryView, writeHistoryView);
  const update = useCallback((patch: Partial<HistoryView>) => change((latest) => ({ ...latest, ...patch })), [change]);
  const clear = useCallback(() => change(() => EMPTY_VIEW), [change]);
  const filter = useMemo(() => historyFilter(view), [view]);
  const filterKey = writeHistoryView(view).toString();
  const matches = useCallback((entry: HistoryEntry) => matchesFilter(entry, filter), [filter]);
  const list = useHistoryPages({ filter, key: filterKey, matches, limit: PAGE_SIZE });
  const filtered = filterKey !== "";
  const translate = translatorOf(i18n);
  const fileLanguage: Language = i18n.language === "afr" ? "afr" : "en";
  // The whole filtered range, not only the entries loaded on screen.
  const exported = useHistoryExport(filter, fileLanguage);
  const personLabel = (person: HistoryPerson) => (person.former ? t("accountHistory.filters.former", { name: person.name }) : person.name);

  return (
    <section className="page" data-testid="history-page">
      <PageHeader
        title={t("accountHistory.title")}
        subtitle={t("accountHistory.subtitle")}
        actions={
          <Button onClick={exported.run} busy={exported.busy} disabled={list.items.length === 0} data-testid="export-csv">
            {t("accountHistory.export")}
          </Button>
        }
      />
      <div className="filter-bar" role="search" aria-label={t("collections.filters.label")} data-testid="history-filters">
        <FilterSelect
          label={t("accountHistory.filters.person")}
          value={view.person || undefined}
          options={list.people.map((person) => ({ value: person.userId, label: personLabel(person) }))}
          onChange={(person) => update({ person: person ?? "" })}
          testId="filter-person"
        />
        <FilterSelect
          label={t("accountHistory.filters.record")}
          value={view.record || undefined}
          options={RECORD_KINDS.map((kind) => ({ value: kind, label: t(`accountHistory.record.${kind}`) }))}
          onChange={(record) => update({ record: record ?? "" })}
          testId="filter-record"
        />
        <FilterSelect
          label={t("accountHistory.filters.action")}
          value={view.action || undefined}
          options={HISTORY_ACTIONS.map((action) => ({ value: action, label: t(`accountHistory.action.${action}`) }))}
          onChange={(action) => update({ action: action ?? "" })}
          testId="filter-action"
        />
        <label className="filter-item">
          <span className="filter-label">{t("accountHistory.filters.from")}</span>
          <input type="date" className="input" value={view.from} max={view.to || undefined} onChange={(event) => update({ from: event.target.value })} data-testid="filter-from" />
        </label>
        <label className="filter-item">
          <span className="filter-label">{t("accountHistory.filters.to")}</span>
          <input type="date" className="input" value={view.to} min={view.from || undefined} onChange={(event) => update({ to: event.target.value })} data-testid="filter-to" />
        </label>
        <FilterClear shown={filtered} onClear={clear} />
      </div>
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {exported.error ? <Alert testId="history-export-error">{t(`errors.${exported.error}`)}</Alert> : null}
      {list.loading && list.items.length === 0 ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : list.items.length === 0 && !list.error ? (
        <EmptyState testId="history-empty" title={filtered ? t("accountHistory.noMatches") : t("accountHistory.empty")} />
      ) : list.items.length === 0 ? null : (
        <div className={list.loading ? "table-card is-stale" : "table-card"} aria-busy={list.loading}>
          <table className="table" data-testid="history-table">
            <thead>
              <tr>
                <th scope="col">{t("accountHistory.columns.when")}</th>
                <th scope="col">{t("accountHistory.columns.who")}</th>
                <th scope="col">{t("accountHistory.columns.what")}</th>
                <th scope="col" className="hide-sm">{t("accountHistory.columns.fields")}</th>
                <th scope="col" className="hide-md">{t("accountHistory.columns.where")}</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((entry) => (
                <tr key={entry.id} data-testid="history-row" data-entry-id={entry.id}>
                  <td className="cell-nowrap">
                    <Link to={`/account/history/${entry.id}`} className="table-link">
                      {formatDateTime(entry.at, i18n.language)}
                    </Link>
                  </td>
                  <td data-testid="history-who">{whoLabel(entry, t)}</td>
                  <td>
                    <span className="history-action" data-testid="history-what">
                      {recordLabel(entry, t)} · {actionLabel(entry, t)}
                    </span>
                    {entry.recordName ? (
                      <span className="cell-sub history-record-name" data-testid="history-record-name">
                        {entry.recordName}
                      </span>
                    ) : null}
                    {shownRecordId(entry) ? <span className="cell-sub cell-mono">{shownRecordId(entry)}</span> : null}
                  </td>
                  <td className="hide-sm cell-muted history-fields">{namesFields(entry) ? changedFieldsLabel(entry, translate) : "—"}</td>
                  <td className="hide-md cell-muted">{entry.address ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="load-more">
            {list.loadingMore ? t("accountHistory.loadingMore") : t("accountHistory.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
