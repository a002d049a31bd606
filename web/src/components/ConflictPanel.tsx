import { useContext, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./Button";
import { NeedContext } from "./useMay";

export type ConflictRow = { field: string; label: string; yours: string; theirs: string };
export type Choices = Record<string, "yours" | "theirs">;

type ConflictPanelProps = {
  rows: ConflictRow[];
  busy: boolean;
  onSave: (choices: Choices) => void;
  onCancel: () => void;
  /** Who saved meanwhile (`whoSaved`), when the form knows. */
  by?: string;
};

/**
 * A save refused because a teammate saved first: per field both of them changed,
 * the user's value beside theirs, to choose one each, then save again.
 */
export function ConflictPanel({ rows, busy, onSave, onCancel, by }: ConflictPanelProps) {
  const { t } = useTranslation();
  const [choices, setChoices] = useState<Choices>(() => Object.fromEntries(rows.map((row) => [row.field, "theirs"])));
  const empty = t("conflict.empty");
  // Saving the merge is the form's save: it needs what the form around it needs.
  const needs = useContext(NeedContext);
  return (
    <div className="conflict" data-testid="conflict">
      <p className="conflict-lead" data-testid="conflict-lead">
        {by ? t("conflict.leadBy", { name: by }) : t("errors.edit_conflict")}
      </p>
      {rows.map((row) => (
        <fieldset key={row.field} className="conflict-field" data-testid={`conflict-${row.field}`}>
          <legend>{row.label}</legend>
          {(["yours", "theirs"] as const).map((side) => (
            <label key={side} className="conflict-choice">
              <input
                type="radio"
                name={`conflict-${row.field}`}
                checked={choices[row.field] === side}
                onChange={() => setChoices((current) => ({ ...current, [row.field]: side }))}
                data-testid={`conflict-${row.field}-${side}`}
              />
              <span className="conflict-side">{t(`conflict.${side}`)}</span>
              <span className="conflict-value">{row[side] || empty}</span>
            </label>
          ))}
        </fieldset>
      ))}
      <div className="form-actions">
        <Button onClick={onCancel}>{t("conflict.cancel")}</Button>
        <Button variant="primary" busy={busy} onClick={() => onSave(choices)} needs={needs} data-testid="conflict-save">
          {t("conflict.save")}
        </Button>
      </div>
    </div>
  );
}
