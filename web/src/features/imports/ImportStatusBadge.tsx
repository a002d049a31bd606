import { useTranslation } from "react-i18next";
import { Badge } from "../../components/Badge";
import type { Import } from "../../protocol/wire";

/** Importing: blue; done: green; done but some rows could not be written: amber. */
export function ImportStatusBadge({ entry }: { entry: Pick<Import, "status" | "failed"> }) {
  const { t } = useTranslation();
  const shown = entry.status === "committing" ? "committing" : entry.failed > 0 ? "completedWithFailures" : "completed";
  const tone = shown === "committing" ? "blue" : shown === "completed" ? "green" : "amber";
  return (
    <span data-testid="import-status" data-status={entry.status}>
      <Badge tone={tone}>{t(`imports.status.${shown}`)}</Badge>
    </span>
  );
}
