import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { formatDateTime } from "../../components/format";
import { importAtom } from "../../live/cache";
import { importPath } from "./paths";
import { ImportStatusBadge } from "./ImportStatusBadge";

export function ImportRow({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const entry = useAtomValue(importAtom(id));
  if (!entry) return null;
  return (
    <tr data-testid="import-row" data-import-id={id}>
      <td>
        <Link to={importPath(entry.kind, id)} className="table-link">
          {entry.fileName}
        </Link>
        <div className="cell-sub">{t(`collections.method.${entry.template}`)}</div>
      </td>
      <td className="cell-muted hide-sm">
        {formatDateTime(entry.createdAt, i18n.language)}
        <div className="cell-sub">{entry.createdByName}</div>
      </td>
      <td>
        <ImportStatusBadge entry={entry} />
      </td>
      <td className="cell-amount" data-testid="import-row-committed">
        {t("imports.list.committedOf", { committed: entry.committed, valid: entry.valid })}
      </td>
      <td className="cell-amount hide-sm" data-testid="import-row-invalid">
        {entry.invalid}
      </td>
    </tr>
  );
}
