import { useAtomValue } from "jotai";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TestDataMarker } from "../../components/CollectionBadges";
import { EmptyState } from "../../components/EmptyState";
import { FilterBar } from "../../components/FilterBar";
import { isFiltered } from "../../components/listView";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { useUrlFilters } from "../../components/useUrlFilters";
import { identityAtom } from "../../live/atoms";
import { mandateUpsertsAtom } from "../../live/cache";
import { usePagedList } from "../../live/usePagedList";
import type { MandateFilter } from "../../protocol/wire";
import { EMandateRequests } from "./EMandateRequests";
import { EMandateRow } from "./EMandateRow";
import { MandateColumns, MandateRow } from "./MandateRow";
import { RequestEMandateDialog } from "./RequestEMandateDialog";
import "./mandates.css";
import { E_MANDATE_STATUSES, MANDATE_METHODS, MANDATE_STATUSES } from "./statuses";

const PAGE_SIZE = 25;

/** All mandates, or (e-mandates) only those that asked the payer to approve with their bank. */
export function MandatesPage({ eMandates = false }: { eMandates?: boolean }) {
  const { t } = useTranslation();
  const testMode = useAtomValue(identityAtom)?.mode === "test";
  const statuses = eMandates ? E_MANDATE_STATUSES : MANDATE_STATUSES;
  const { view, update, clear } = useUrlFilters(statuses);
  const filter = useMemo<MandateFilter>(() => {
    const search = view.search.trim();
    return {
      ...(view.status ? { status: view.status } : {}),
      ...(view.method && !eMandates ? { method: view.method } : {}),
      ...(search ? { search } : {}),
      eMandatesOnly: eMandates,
      archived: Boolean(view.archived),
    };
  }, [view, eMandates]);
  const sort = view.sort;
  const list = usePagedList({
    kind: "mandate",
    upserts: mandateUpsertsAtom,
    key: JSON.stringify([filter, sort]),
    query: (cursor) => ({ t: "ListMandates", filter, sort, cursor, limit: PAGE_SIZE }),
  });
  const filtered = isFiltered(view);
  const title = eMandates ? t("mandates.eTitle") : t("mandates.title");
  const prefix = eMandates ? "e-mandates" : "mandates";
  const [requesting, setRequesting] = useState(false);
  const actions =
    testMode || eMandates ? (
      <>
        {testMode ? <TestDataMarker /> : null}
        {eMandates ? (
          <Button variant="primary" onClick={() => setRequesting(true)} needs="mandates:write" data-testid="request-e-mandate">
            {t("eMandates.request")}
          </Button>
        ) : null}
      </>
    ) : undefined;

  return (
    <section className="page" data-testid={`${prefix}-page`}>
      <PageHeader title={title} subtitle={eMandates ? t("mandates.eSubtitle") : t("mandates.subtitle")} actions={actions} needs={eMandates ? "mandates:write" : undefined} />
      {eMandates ? <EMandateRequests /> : null}
      {eMandates ? <RequestEMandateDialog open={requesting} onOpenChange={setRequesting} /> : null}
      {eMandates ? (
        <h2 className="card-title e-mandate-section-title" id="e-mandate-authentication-title">
          {t("eMandates.authenticationTitle")}
        </h2>
      ) : null}
      <div className="segmented mandate-archive-switch" role="radiogroup" aria-label={t("mandates.show")}>
        {[false, true].map((archived) => (
          <button
            key={String(archived)}
            type="button"
            role="radio"
            aria-checked={Boolean(view.archived) === archived}
            className={Boolean(view.archived) === archived ? "segment segment-on" : "segment"}
            onClick={() => update({ archived: archived || undefined })}
            data-testid={archived ? "show-archived" : "show-current"}
          >
            {archived ? t("mandates.archivedOnes") : t("mandates.currentOnes")}
          </button>
        ))}
      </div>
      <FilterBar
        view={view}
        onChange={update}
        onClear={clear}
        statuses={statuses.map((status) => ({ value: status, label: t(`collections.mandateStatus.${status}`) }))}
        methods={eMandates ? [] : MANDATE_METHODS}
        dates={false}
        amounts={false}
        searchPlaceholder={t("mandates.searchPlaceholder")}
        testId="mandate-filters"
      />
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.loading && list.ids.length === 0 ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : list.ids.length === 0 && !list.error ? (
        <EmptyState
          testId={`${prefix}-empty`}
          title={filtered ? t("mandates.noMatches") : eMandates ? t("mandates.eEmpty") : t("mandates.empty")}
          body={filtered ? undefined : eMandates ? t("mandates.eEmptyHint") : t("mandates.emptyHint")}
        />
      ) : list.ids.length === 0 ? null : (
        <div className="table-card table-scroll" aria-busy={list.loading}>
          <table className={eMandates ? "table e-mandate-table" : "table"} aria-label={title} data-testid="mandate-table">
            <thead>
              {eMandates ? (
                <tr>
                  <th scope="col">{t("mandates.columns.customer")}</th>
                  <th scope="col" className="hide-sm">{t("mandates.columns.contractReference")}</th>
                  <th scope="col">{t("mandates.columns.status")}</th>
                  <th scope="col" className="cell-number">{t("mandates.columns.requests")}</th>
                  <th scope="col" className="hide-sm">{t("mandates.columns.due")}</th>
                  <th scope="col" className="hide-md">{t("mandates.columns.approvalWindow")}</th>
                  <th scope="col" aria-label={t("mandates.columns.actions")} />
                </tr>
              ) : (
                <tr>
                  <MandateColumns />
                </tr>
              )}
            </thead>
            <tbody>
              {list.ids.map((id) =>
                eMandates ? <EMandateRow key={id} id={id} archived={Boolean(view.archived)} /> : <MandateRow key={id} id={id} archived={Boolean(view.archived)} />,
              )}
            </tbody>
          </table>
        </div>
      )}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="load-more">
            {list.loadingMore ? t("mandates.loadingMore") : t("mandates.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
