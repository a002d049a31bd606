import type { ReactNode } from "react";
import type { PagedList } from "../live/usePagedList";
import { PagedTable } from "./PagedTable";
import "./relatedList.css";

type RelatedListProps = {
  title: string;
  testId: string;
  list: PagedList;
  /** The table's test id, as on the list's own screen. */
  tableTestId: string;
  columns: ReactNode;
  row: (id: string) => ReactNode;
  /** One line, not a full empty state: a record page holds several of these. */
  emptyText: string;
  loadMoreLabel: string;
  loadingMoreLabel: string;
};

/** A titled section listing the records that belong to the one on screen, such as a customer's mandates. */
export function RelatedList({ title, testId, list, tableTestId, columns, row, emptyText, loadMoreLabel, loadingMoreLabel }: RelatedListProps) {
  return (
    <section className="related-list" aria-label={title} data-testid={testId}>
      <h2 className="card-title">{title}</h2>
      <PagedTable
        list={list}
        testId={tableTestId}
        empty={<p className="related-list-empty">{emptyText}</p>}
        columns={columns}
        row={row}
        loadMoreLabel={loadMoreLabel}
        loadingMoreLabel={loadingMoreLabel}
      />
    </section>
  );
}
