import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./Button";
import { DraftInput } from "./DraftInput";
import "./filterBar.css";
import { isFiltered, PAYMENT_METHODS, SORT_ORDERS, type AmountField, type ListView } from "./listView";
import type { PaymentMethod } from "../protocol/wire";

type Option<T extends string> = { value: T; label: string };

type FilterBarProps<S extends string> = {
  view: ListView<S>;
  onChange: (patch: Partial<ListView<S>>) => void;
  onClear: () => void;
  statuses: readonly Option<S>[];
  searchPlaceholder: string;
  /** Methods offered in the method filter; all by default, none hides it. */
  methods?: readonly PaymentMethod[];
  /** Created/action date range and amount range; lists without them leave them out. */
  dates?: boolean;
  amounts?: boolean;
  /** The date range's labels, when it is not about creation (e.g. action dates). */
  fromLabel?: string;
  toLabel?: string;
  /** Amount fields that do not read as rand, marked beside the field. */
  invalid?: readonly AmountField[];
  testId?: string;
};

/** Search, status, method, date and amount filters and the sort of one list, all in the URL. */
export function FilterBar<S extends string>(props: FilterBarProps<S>) {
  const { view, onChange, onClear, statuses, searchPlaceholder, methods = PAYMENT_METHODS, dates = true, amounts = true, invalid = [], testId, fromLabel, toLabel } = props;
  const { t } = useTranslation();
  const id = useId();
  const any = t("collections.filters.any");

  return (
    <div className="filter-bar" role="search" aria-label={t("collections.filters.label")} data-testid={testId}>
      <DraftInput
        type="search"
        className="input filter-search"
        aria-label={t("collections.filters.search")}
        placeholder={searchPlaceholder}
        value={view.search}
        onCommit={(search) => onChange({ search } as Partial<ListView<S>>)}
        data-testid="filter-search"
      />
      <label className="filter-item">
        <span className="filter-label">{t("collections.filters.status")}</span>
        <select
          className="input select"
          value={view.status ?? ""}
          onChange={(event) => onChange({ status: (event.target.value || undefined) as S | undefined } as Partial<ListView<S>>)}
          data-testid="filter-status"
        >
          <option value="">{any}</option>
          {statuses.map((status) => (
            <option key={status.value} value={status.value}>
              {status.label}
            </option>
          ))}
        </select>
      </label>
      {methods.length > 0 ? (
        <label className="filter-item">
          <span className="filter-label">{t("collections.filters.method")}</span>
          <select
            className="input select"
            value={view.method ?? ""}
            onChange={(event) => onChange({ method: (event.target.value || undefined) as PaymentMethod | undefined } as Partial<ListView<S>>)}
            data-testid="filter-method"
          >
            <option value="">{any}</option>
            {methods.map((method) => (
              <option key={method} value={method}>
                {t(`collections.method.${method}`)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {dates ? (
        <>
          <label className="filter-item">
            <span className="filter-label">{fromLabel ?? t("collections.filters.from")}</span>
            <input
              type="date"
              className="input"
              value={view.from ?? ""}
              max={view.to}
              onChange={(event) => onChange({ from: event.target.value || undefined } as Partial<ListView<S>>)}
              data-testid="filter-from"
            />
          </label>
          <label className="filter-item">
            <span className="filter-label">{toLabel ?? t("collections.filters.to")}</span>
            <input
              type="date"
              className="input"
              value={view.to ?? ""}
              min={view.from}
              onChange={(event) => onChange({ to: event.target.value || undefined } as Partial<ListView<S>>)}
              data-testid="filter-to"
            />
          </label>
        </>
      ) : null}
      {amounts
        ? (["min", "max"] as const).map((field) => (
            <label key={field} className="filter-item filter-amount">
              <span className="filter-label" id={`${id}-${field}`}>
                {t(`collections.filters.${field}`)}
              </span>
              <DraftInput
                className="input"
                inputMode="decimal"
                placeholder="0.00"
                aria-invalid={invalid.includes(field) || undefined}
                aria-describedby={invalid.includes(field) ? `${id}-${field}-error` : undefined}
                value={view[field]}
                onCommit={(value) => onChange({ [field]: value } as Partial<ListView<S>>)}
                data-testid={`filter-${field}`}
              />
              {invalid.includes(field) ? (
                <span className="field-error" id={`${id}-${field}-error`}>
                  {t("collections.filters.invalidAmount")}
                </span>
              ) : null}
            </label>
          ))
        : null}
      <label className="filter-item">
        <span className="filter-label">{t("collections.filters.sort")}</span>
        <select
          className="input select"
          value={view.sort}
          onChange={(event) => onChange({ sort: event.target.value } as Partial<ListView<S>>)}
          data-testid="filter-sort"
        >
          {SORT_ORDERS.map((sort) => (
            <option key={sort} value={sort}>
              {t(`collections.sort.${sort}`)}
            </option>
          ))}
        </select>
      </label>
      {isFiltered(view) || view.sort !== "newest" ? (
        <Button variant="ghost" className="filter-clear" onClick={onClear} data-testid="filter-clear">
          {t("collections.filters.clear")}
        </Button>
      ) : null}
    </div>
  );
}
