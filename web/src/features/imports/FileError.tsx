import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import type { WireError } from "../../protocol/wire";

/** Why a file was refused; a missing or doubled column is named. */
export function FileError({ error }: { error: WireError }) {
  const { t } = useTranslation();
  const columns = (error.fields ?? []).filter((field) => field.field);
  return (
    <Alert testId="import-file-error">
      <span data-code={error.code}>{t(`errors.${error.code}`)}</span>
      {columns.length > 0 ? (
        <ul className="import-columns">
          {columns.map((column) => (
            <li key={`${column.field}-${column.code}`} data-testid="import-file-error-column">
              {t("imports.columnNamed", { column: column.field, problem: t(`errors.${column.code}`) })}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
