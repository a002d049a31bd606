import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { PagedList } from "../live/usePagedList";
import { Alert } from "./Alert";
import { Button } from "./Button";
import { Spinner } from "./Spinner";

type PagedTableProps = {
  list: PagedList;
  /** Shown when the list has loaded and holds nothing. */
  empty: ReactNode;
  testId: string;
  /** The header row's cells. */
  columns: ReactNode;
  row: (id: string) => ReactNode;
  loadMoreLabel: string;
  loadingMoreLabel: string;
};

/**
 * The body of a list screen: its error, a spinner on first load, the empty state, the table
 * (dimmed while a refetch runs, rows kept in view) and "load more".
 */
export function PagedTable({ list, empty, testId, columns, row, loadMoreLabel, loadingMoreLabel }: PagedTableProps) {
  const { t } = useTranslation();
  return (
    <>
      {list.error ? <Alert>{t(`errors.${list.error}`)}</Alert> : null}
      {list.loading && list.ids.length === 0 ? (
        <div className="table-placeholder">
          <Spinner label={t("app.loading")} />
        </div>
      ) : list.ids.length === 0 && !list.error ? (
        empty
      ) : list.ids.length === 0 ? null : (
        <div className={list.loading ? "table-card is-stale" : "table-card"} aria-busy={list.loading}>
          <table className="table" data-testid={testId}>
            <thead>
              <tr>{columns}</tr>
            </thead>
            <tbody>{list.ids.map(row)}</tbody>
          </table>
        </div>
      )}
      {list.hasMore ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={list.loadingMore} data-testid="load-more">
            {list.loadingMore ? loadingMoreLabel : loadMoreLabel}
          </Button>
        </div>
      ) : null}
    </>
  );
}
