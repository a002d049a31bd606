import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { useErrorText } from "../../components/useMay";
import type { WireError } from "../../protocol/wire";

/** Why a file was refused; each missing or doubled column is named with its problem. */
export function FileError({ error }: { error: WireError }) {
  const { t } = useTranslation();
  const errorText = useErrorText("imports:write");
  const columns = (error.fields ?? []).filter((field) => field.field);
  return (
    <Alert testId="import-file-error">
      <span data-code={error.code}>{columns.length > 0 ? t("imports.columnsIntro") : errorText(error.code)}</span>
      {columns.length > 0 ? (
        <ul className="import-columns">
          {columns.map((column) => (
            <li key={`${column.field}-${column.code}`} data-testid="import-file-error-column" data-code={column.code}>
              {t("imports.columnNamed", { column: column.field, problem: t(`errors.${column.code}`) })}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
