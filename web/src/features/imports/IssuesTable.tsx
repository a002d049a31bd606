import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import type { IssueList } from "./useIssuePages";

type IssuesTableProps = {
  list: IssueList;
  title: string;
  /** Two lists can share a screen (a preview's problems and its repeated rows). */
  testId?: string;
  /** Repeated rows name several columns at once: let them wrap in a narrow dialog. */
  wrapColumn?: boolean;
};

/** The problems found, one per row and column, in the interface language. */
export function IssuesTable({ list, title, testId = "import-issues", wrapColumn = false }: IssuesTableProps) {
  const { t } = useTranslation();
  const pages = list.pages;
  if (list.error) return <Alert>{t(`errors.${list.error}`)}</Alert>;
  if (!pages) return <Spinner label={t("app.loading")} />;
  if (pages.items.length === 0) {
    return (
      <p className="cell-muted" data-testid="import-issues-empty">
        {t("imports.issues.none")}
      </p>
    );
  }
  return (
    <>
      <div className="table-scroll import-issues-scroll">
        <table className="table" aria-label={title} data-testid={testId}>
          <thead>
            <tr>
              <th scope="col" className="cell-amount">{t("imports.issues.row")}</th>
              <th scope="col">{t("imports.issues.column")}</th>
              <th scope="col">{t("imports.issues.problem")}</th>
            </tr>
          </thead>
          <tbody>
            {pages.items.map((issue, index) => (
              <tr key={`${issue.row}-${issue.column}-${index}`} data-testid="import-issue" data-row={issue.row} data-code={issue.code}>
                <td className="cell-amount">{issue.row}</td>
                <td className={wrapColumn ? undefined : "cell-nowrap"}>{issue.column || "—"}</td>
                <td>{t(`errors.${issue.code}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="cell-muted import-issues-count">{t("imports.issues.shown", { shown: pages.items.length, total: pages.total })}</p>
      {pages.error ? <Alert>{t(`errors.${pages.error}`)}</Alert> : null}
      {pages.nextOffset !== undefined ? (
        <div className="load-more">
          <Button onClick={list.loadMore} busy={pages.loadingMore} data-testid="import-issues-more">
            {pages.loadingMore ? t("imports.issues.loadingMore") : t("imports.issues.loadMore")}
          </Button>
        </div>
      ) : null}
    </>
  );
}
