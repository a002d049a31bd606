import { useId, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Button } from "./Button";
import { DraftInput } from "./DraftInput";
import "./filterBar.css";
import { isFiltered, PAYMENT_METHODS, SORT_ORDERS, type AmountField, type ListView } from "./listView";
import type { PaymentMethod } from "../protocol/wire";

type Option<T extends string> = { value: T; label: string };

/** The methods of a method filter, each named as the lists name it. */
export function methodOptions(methods: readonly PaymentMethod[], t: TFunction): Option<PaymentMethod>[] {
  return methods.map((method) => ({ value: method, label: t(`collections.method.${method}`) }));
}

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

/** A list's search field: the list follows once typing pauses. */
export function FilterSearch({ value, placeholder, onCommit }: { value: string; placeholder: string; onCommit: (search: string) => void }) {
  const { t } = useTranslation();
  return (
    <DraftInput
      type="search"
      className="input filter-search"
      aria-label={t("collections.filters.search")}
      placeholder={placeholder}
      value={value}
      onCommit={onCommit}
      data-testid="filter-search"
    />
  );
}

type FilterSelectProps<T extends string> = {
  label: string;
  value: T | undefined;
  options: readonly Option<T>[];
  onChange: (value: T | undefined) => void;
  testId: string;
};

/** One labelled choice of a filter bar; its first option, "any", filters nothing. */
export function FilterSelect<T extends string>({ label, value, options, onChange, testId }: FilterSelectProps<T>) {
  const { t } = useTranslation();
  return (
    <label className="filter-item">
      <span className="filter-label">{label}</span>
      <select
        className="input select"
        value={value ?? ""}
        onChange={(event) => onChange(options.find((option) => option.value === event.target.value)?.value)}
        data-testid={testId}
      >
        <option value="">{t("collections.filters.any")}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Clears a filter bar; shown only while something is filtered. */
export function FilterClear({ shown, onClear }: { shown: boolean; onClear: () => void }) {
  const { t } = useTranslation();
  return shown ? (
    <Button variant="ghost" className="filter-clear" onClick={onClear} data-testid="filter-clear">
      {t("collections.filters.clear")}
    </Button>
  ) : null;
}

/** Search, status, method, date and amount filters and the sort of one list, all in the URL. */
export function FilterBar<S extends string>(props: FilterBarProps<S>) {
  const { view, onChange, onClear, statuses, searchPlaceholder, methods = PAYMENT_METHODS, dates = true, amounts = true, invalid = [], testId, fromLabel, toLabel } = props;
  const { t } = useTranslation();
  const id = useId();
  // On a phone all but the search fold away behind one button, so the list starts on the first
  // screen; wider screens always show them (the button is hidden there, see filterBar.css).
  const [unfolded, setUnfolded] = useState(false);
  const chosen = [view.status, view.method, view.from, view.to, view.min, view.max].filter(Boolean).length + (view.sort !== "newest" ? 1 : 0);

  return (
    <div className={unfolded ? "filter-bar" : "filter-bar filter-bar-folded"} role="search" aria-label={t("collections.filters.label")} data-testid={testId}>
      <FilterSearch value={view.search} placeholder={searchPlaceholder} onCommit={(search) => onChange({ search } as Partial<ListView<S>>)} />
      <Button className="filter-toggle" aria-expanded={unfolded} aria-controls={`${id}-more`} onClick={() => setUnfolded(!unfolded)} data-testid="filter-toggle">
        {chosen > 0 ? t("collections.filters.toggleChosen", { count: chosen }) : t("collections.filters.toggle")}
      </Button>
      <div className="filter-more" id={`${id}-more`}>
        <FilterSelect
          label={t("collections.filters.status")}
          value={view.status}
          options={statuses}
          onChange={(status) => onChange({ status } as Partial<ListView<S>>)}
          testId="filter-status"
        />
        {methods.length > 0 ? (
          <FilterSelect
            label={t("collections.filters.method")}
            value={view.method}
            options={methodOptions(methods, t)}
            onChange={(method) => onChange({ method } as Partial<ListView<S>>)}
            testId="filter-method"
          />
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
        <FilterClear shown={isFiltered(view) || view.sort !== "newest"} onClear={onClear} />
      </div>
    </div>
  );
}
