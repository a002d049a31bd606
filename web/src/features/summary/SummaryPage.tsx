import { useAtomValue } from "jotai";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
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
import { entityVersionAtom, topicVersionsAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import { pacer, type Pacer } from "../../live/pacer";
import { placeIn, withPlaceParams } from "../../live/place";
import type { ErrorCode, Language, Statement, StatementFormat } from "../../protocol/wire";
import "./summary.css";
import { knownKind, readPeriod, summaryRows, type Period } from "./summaryView";

type Loaded = { key: string; statement?: Statement; error?: ErrorCode };

// A burst of money moving (a test clock month) reads the statement again at most this often.
const FOLLOW_GAP_MS = 250;

/**
 * Every entry of the period: the statement asks for its entries a page at a time, and again
 * whenever money moves (`FiguresMoved`, a teammate's collection, refund or payout included).
 */
function useStatement(period: Period): Loaded | null {
  const client = useLiveClient();
  const mode = useAtomValue(identityAtom)?.mode;
  // Another business or mode, or a resync, starts over; money moving only reads it again.
  const data = useAtomValue(entityVersionAtom);
  const figures = useAtomValue(topicVersionsAtom).figures;
  const key = `${mode ?? ""}:${data}:${period.from}:${period.to}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const pace = useRef<Pacer | null>(null);
  useEffect(() => {
    let current = true;
    async function load(): Promise<Statement> {
      const pages: Statement[] = [];
      let offset: number | undefined = 0;
      while (offset !== undefined) {
        const body = await client.query({ t: "GetStatement", from: period.from, to: period.to, offset });
        if (body.t !== "Statement") throw new Error(`unexpected reply ${body.t}`);
        pages.push(body.statement);
        const next: number | undefined = body.statement.nextOffset;
        // An offset that does not move on would ask for the same page for ever.
        offset = next !== undefined && next > offset ? next : undefined;
      }
      const [first] = pages;
      if (!first) throw new Error("no statement");
      return { ...first, lines: pages.flatMap((page) => page.lines) };
    }
    const ask = () =>
      load().then(
        (statement) => {
          if (current) setLoaded({ key, statement });
        },
        (error: unknown) => {
          const code = error instanceof LiveError ? (error.wire.fields?.[0]?.code ?? error.wire.code) : "internal";
          // A failed refresh keeps the statement on screen; only a first read shows the error.
          if (current) setLoaded((known) => (known?.key === key && known.statement ? known : { key, error: code }));
        },
      );
    const own = pacer(ask, FOLLOW_GAP_MS);
    pace.current = own;
    own.changed();
    return () => {
      current = false;
      own.stop();
    };
  }, [client, key, period.from, period.to]);

  const handled = useRef(figures);
  useEffect(() => {
    if (handled.current === figures) return;
    handled.current = figures;
    pace.current?.changed();
  }, [figures]);
  return loaded?.key === key ? loaded : null;
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
        <p className="summary-period-text" data-testid="summary-period">
          {t("summary.period", { from: formatBusinessDate(period.from, language), to: formatBusinessDate(period.to, language) })}
        </p>
      </header>

      {view === null ? <PageSpinner label={t("app.loading")} /> : null}
      {view?.error ? <Alert testId="summary-error">{t(`errors.${view.error}`)}</Alert> : null}
      {view?.statement ? <StatementBody statement={view.statement} /> : null}
    </main>
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
