import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { bankName } from "../../components/banks";
import { useAsk } from "../../live/ask";
import type { SortOrder, TransactionFilter } from "../../protocol/wire";
import { buildTransactionsCsv, CSV_COLUMNS, exportFileName, type CsvLabels } from "./csv";
import { downloadCsv } from "../../components/downloadCsv";
import { fetchForExport } from "./exportTransactions";

export type ExportOutcome = { tone: "success" | "warning" | "error"; text: string };

export type CsvExport = { busy: boolean; outcome: ExportOutcome | null; run: () => void };

/** Downloads the list as it is filtered and sorted now, every page of it up to the cap. */
export function useCsvExport(filter: TransactionFilter, sort: SortOrder): CsvExport {
  const { t } = useTranslation();
  const ask = useAsk();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);

  const run = useCallback(() => {
    setBusy(true);
    setOutcome(null);
    const labels: CsvLabels = {
      header: Object.fromEntries(CSV_COLUMNS.map((column) => [column, t(`transactions.csv.${column}`)])) as CsvLabels["header"],
      status: (status) => t(`collections.transactionStatus.${status}`),
      method: (method) => t(`collections.method.${method}`),
      bank: (bank) => (bank ? bankName(bank) : ""),
    };
    fetchForExport(ask, filter, sort)
      .then((rows) => {
        downloadCsv(buildTransactionsCsv(rows.items, labels), exportFileName(new Date()));
        setOutcome(
          rows.capped
            ? { tone: "warning", text: t("transactions.export.capped", { count: rows.items.length }) }
            : { tone: "success", text: t("transactions.export.done", { count: rows.items.length }) },
        );
      })
      .catch(() => setOutcome({ tone: "error", text: t("transactions.export.failed") }))
      .finally(() => setBusy(false));
  }, [ask, filter, sort, t]);

  return { busy, outcome, run };
}
