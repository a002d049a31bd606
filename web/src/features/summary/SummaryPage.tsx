import { useAtomValue } from "jotai";
import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { formatBusinessDate, formatMoney, todayInSouthAfrica } from "../../components/format";
import { useBusinessToday } from "../../live/useBusinessToday";
import { PageSpinner } from "../../components/Spinner";
import { useFileDownload } from "../../components/useFileDownload";
import { identityAtom } from "../../live/atoms";
import { placeIn, withPlaceParams } from "../../live/place";
import { useLiveRead, type LiveView } from "../../live/useLiveQuery";
import type { Language, Statement, StatementBusiness, StatementFormat } from "../../protocol/wire";
import "./summary.css";
import { knownKind, readPeriod, readStatement, summaryRows, type Period } from "./summaryView";

/** Every entry of the period, read again whenever money moves (`FiguresMoved`). */
function useStatement(period: Period): LiveView<Statement> {
  return useLiveRead(`statement\u0000${period.from}\u0000${period.to}`, (ask) => readStatement(ask, period), { follows: ["figures"] });
}

/** The statement of a period, made to print on A4 or save as a PDF, and to download as CSV or xlsx. */
export function SummaryPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const identity = useAtomValue(identityAtom);
  const [params, setParams] = useSearchParams();
  // A period without dates in the address is this month by the stream's business date; until
  // the server says which day that is, the browser's day in South Africa stands in.
  const period = readPeriod(params, useBusinessToday() ?? todayInSouthAfrica());
  const view = useStatement(period);

  const fileLanguage: Language = language === "afr" ? "afr" : "en";
  const csvAt = useCallback(
    (offset: number) => ({ t: "DownloadStatement" as const, from: period.from, to: period.to, format: "csv" as StatementFormat, language: fileLanguage, offset }),
    [period.from, period.to, fileLanguage],
  );
  const xlsxAt = useCallback(
    (offset: number) => ({ t: "DownloadStatement" as const, from: period.from, to: period.to, format: "xlsx" as StatementFormat, language: fileLanguage, offset }),
    [period.from, period.to, fileLanguage],
  );
  const csv = useFileDownload(csvAt);
  const xlsx = useFileDownload(xlsxAt);
  const downloadError = csv.error ?? xlsx.error;

  return (
    <main className="summary" data-testid="summary-page">
      <nav className="summary-controls no-print" aria-label={t("summary.controls")}>
        <Link to="/payments/transactions" className="back-link">
          ← {t("summary.back")}
        </Link>
        <PeriodPicker key={`${period.from}:${period.to}`} period={period} onShow={(next) => setParams(withPlaceParams(new URLSearchParams(next), placeIn(params)))} />
        <div className="summary-actions">
          <Button onClick={() => window.print()} data-testid="summary-print">
            {t("summary.print")}
          </Button>
          <Button onClick={csv.run} busy={csv.busy} data-testid="summary-csv">
            {t("summary.downloadCsv")}
          </Button>
          <Button onClick={xlsx.run} busy={xlsx.busy} data-testid="summary-xlsx">
            {t("summary.downloadXlsx")}
          </Button>
        </div>
        {downloadError ? <Alert>{t(`errors.${downloadError}`)}</Alert> : null}
      </nav>

      <header className="summary-header">
        <h1 className="summary-title">{t("summary.title")}</h1>
        <p className="summary-merchant">
          {identity?.merchant.name}
          {identity?.mode === "test" ? <span className="summary-mode"> · {t("summary.testMode")}</span> : null}
        </p>
        {view.state === "ready" ? <BusinessDetails business={view.value.business} /> : null}
        <p className="summary-period-text" data-testid="summary-period">
          {t("summary.period", { from: formatBusinessDate(period.from, language), to: formatBusinessDate(period.to, language) })}
        </p>
      </header>

      {view.state === "loading" ? <PageSpinner label={t("app.loading")} /> : null}
      {view.state === "error" ? <Alert testId="summary-error">{t(`errors.${view.code}`)}</Alert> : null}
      {view.state === "ready" ? <StatementBody statement={view.value} /> : null}
    </main>
  );
}

/** Whose statement it is, as the business's details say: its legal name, registration and VAT numbers. */
function BusinessDetails({ business }: { business: StatementBusiness }) {
  const { t } = useTranslation();
  const numbers = [
    business.registrationNumber ? t("summary.registrationNumber", { number: business.registrationNumber }) : "",
    business.vatNumber ? t("summary.vatNumber", { number: business.vatNumber }) : "",
  ].filter(Boolean);
  if (!business.legalName && numbers.length === 0) return null;
  return (
    <p className="summary-business" data-testid="summary-business">
      {[business.legalName, ...numbers].filter(Boolean).join(" · ")}
    </p>
  );
}

/** The period's two dates, kept in the address once shown (so a printed or shared link keeps them). */
function PeriodPicker({ period, onShow }: { period: Period; onShow: (period: Period) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(period);
  function show(event: FormEvent) {
    event.preventDefault();
    onShow(draft);
  }
  return (
    <form className="summary-period" onSubmit={show} noValidate>
      <TextField label={t("summary.from")} type="date" value={draft.from} max={draft.to} onChange={(event) => setDraft({ ...draft, from: event.target.value })} data-testid="summary-from" />
      <TextField label={t("summary.to")} type="date" value={draft.to} min={draft.from} onChange={(event) => setDraft({ ...draft, to: event.target.value })} data-testid="summary-to" />
      <Button type="submit" data-testid="summary-show">
        {t("summary.show")}
      </Button>
    </form>
  );
}

function StatementBody({ statement }: { statement: Statement }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const kind = (name: string) => {
    const known = knownKind(name);
    return known ? t(`summary.kinds.${known}`) : name;
  };
  const rows = summaryRows(statement, (row) => {
    if (row.t === "collected") return t("summary.rows.collected", { method: t(`collections.method.${row.method}`), count: row.count });
    if (row.t === "kind") return kind(row.kind);
    return t(`summary.rows.${row.t}`);
  });
  return (
    <>
      <section className="summary-section" aria-labelledby="summary-totals-title">
        <h2 id="summary-totals-title" className="summary-section-title">
          {t("summary.totalsTitle")}
        </h2>
        <table className="summary-table" data-testid="summary-totals">
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className={row.strong ? "summary-strong" : undefined} data-testid={`summary-${row.key}`} data-cents={row.cents}>
                <th scope="row">{row.label}</th>
                <td className="cell-amount">{formatMoney(row.cents, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="summary-section summary-entries" aria-labelledby="summary-entries-title">
        <h2 id="summary-entries-title" className="summary-section-title">
          {t("summary.entriesTitle", { count: statement.linesTotal })}
        </h2>
        {statement.lines.length === 0 ? (
          <p className="cell-muted" data-testid="summary-no-entries">
            {t("summary.noEntries")}
          </p>
        ) : (
          <table className="summary-table summary-lines" data-testid="summary-lines">
            <thead>
              <tr>
                <th scope="col">{t("summary.columns.date")}</th>
                <th scope="col">{t("summary.columns.kind")}</th>
                <th scope="col">{t("summary.columns.method")}</th>
                <th scope="col">{t("summary.columns.name")}</th>
                <th scope="col">{t("summary.columns.reference")}</th>
                <th scope="col" className="cell-amount">
                  {t("summary.columns.amount")}
                </th>
              </tr>
            </thead>
            <tbody>
              {statement.lines.map((line) => (
                <tr key={line.id} data-testid="summary-line" data-kind={line.kind} data-cents={line.amountCents} data-transaction-id={line.transactionId}>
                  <td>{formatBusinessDate(line.date, language)}</td>
                  <td>{kind(line.kind)}</td>
                  <td>{line.method ? t(`collections.method.${line.method}`) : ""}</td>
                  <td>{line.name}</td>
                  <td className="cell-mono">{line.reference}</td>
                  <td className="cell-amount">{formatMoney(line.amountCents, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
