import { useCallback, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { TextField } from "../../components/Field";
import { todayInSouthAfrica } from "../../components/format";
import { useFileDownload } from "../../components/useFileDownload";
import { useBusinessToday } from "../../live/useBusinessToday";

function monthStart(isoDay: string): string {
  return `${isoDay.slice(0, 8)}01`;
}

/** The paid debits of a date range as a bank-statement CSV for Xero and Sage, made by the server. */
export function AccountingExport() {
  const { t } = useTranslation();
  // This month by the stream's business date, until the person picks other dates.
  const today = useBusinessToday() ?? todayInSouthAfrica();
  const [picked, setPicked] = useState<{ from?: string; to?: string }>({});
  const from = picked.from ?? monthStart(today);
  const to = picked.to ?? today;
  const setFrom = (value: string) => setPicked((now) => ({ ...now, from: value }));
  const setTo = (value: string) => setPicked((now) => ({ ...now, to: value }));
  const queryAt = useCallback((offset: number) => ({ t: "DownloadAccountingExport" as const, from, to, offset }), [from, to]);
  const download = useFileDownload(queryAt);

  function submit(event: FormEvent) {
    event.preventDefault();
    download.run();
  }

  return (
    <section className="card integration-section" aria-labelledby="accounting-export-title" data-testid="accounting-export">
      <h2 id="accounting-export-title" className="card-title">
        {t("developers.integrations.export.title")}
      </h2>
      <p className="cell-muted">{t("developers.integrations.export.body")}</p>
      <form className="export-form" onSubmit={submit} noValidate>
        <TextField label={t("developers.integrations.export.from")} type="date" value={from} max={to} onChange={(event) => setFrom(event.target.value)} data-testid="export-from" />
        <TextField label={t("developers.integrations.export.to")} type="date" value={to} min={from} onChange={(event) => setTo(event.target.value)} data-testid="export-to" />
        <Button type="submit" variant="primary" busy={download.busy} data-testid="export-download">
          {t("developers.integrations.export.download")}
        </Button>
      </form>
      {download.error ? <Alert>{t(`errors.${download.error}`)}</Alert> : null}
      <p className="field-hint">{t("developers.integrations.export.columns")}</p>
    </section>
  );
}
