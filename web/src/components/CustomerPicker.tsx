import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./Button";
import { Spinner } from "./Spinner";
import { useDebouncedValue } from "./useDebouncedValue";
import { useLiveQuery } from "../live/useLiveQuery";
import type { Customer, ErrorCode, ReplyBody } from "../protocol/wire";

const RESULTS = 8;

type CustomerPickerProps = { customer: Customer | null; onChoose: (customer: Customer | null) => void; error?: string };

/** Finds an active customer by name, e-mail or reference, and shows the one chosen. */
export function CustomerPicker({ customer, onChoose, error }: CustomerPickerProps) {
  const { t } = useTranslation();
  if (customer) {
    return (
      <div className="picked" data-testid="picked-customer">
        <div>
          <div className="picked-name">{customer.name}</div>
          <div className="cell-muted">{customer.email}</div>
        </div>
        <Button variant="ghost" onClick={() => onChoose(null)} data-testid="change-customer">
          {t("payments.form.changeCustomer")}
        </Button>
      </div>
    );
  }
  return <CustomerSearch onChoose={onChoose} error={error} />;
}

const pickCustomers = (reply: ReplyBody) => (reply.t === "CustomerPage" ? reply.items : undefined);

// Settled results with the search they answer: kept on screen while the next search is asked.
type Found = { search: string; customers: Customer[]; error?: ErrorCode };
// One empty list for every failed search, so a failure settles once rather than on every render.
const NO_CUSTOMERS: Customer[] = [];

function CustomerSearch({ onChoose, error }: { onChoose: (customer: Customer) => void; error?: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState("");
  const search = useDebouncedValue(text.trim(), 250);
  const view = useLiveQuery(
    { t: "ListCustomers", search: search || undefined, status: "active", limit: RESULTS },
    { pick: pickCustomers, follows: ["customer"] },
  );
  const settled: Found | null =
    view.state === "ready" ? { search, customers: view.value } : view.state === "error" ? { search, customers: NO_CUSTOMERS, error: view.code } : null;
  const [last, setLast] = useState<Found | null>(null);
  // Kept while rendering (React's way to hold on to a value of an earlier render).
  if (settled && (last?.search !== settled.search || last.customers !== settled.customers || last.error !== settled.error)) setLast(settled);
  const found = settled ?? last;

  return (
    <div className={error ? "field field-invalid" : "field"}>
      <label className="field-label" htmlFor={id}>
        {t("payments.form.customer")}
      </label>
      <input
        id={id}
        type="search"
        className="input"
        value={text}
        placeholder={t("payments.form.customerPlaceholder")}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-controls={`${id}-results`}
        data-testid="customer-picker-search"
      />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div id={`${id}-results`} className="pick-list" role="group" aria-label={t("payments.form.customerResults")} aria-busy={found?.search !== search}>
        {!found ? <Spinner label={t("app.loading")} /> : null}
        {found?.error ? <p className="field-error">{t(`errors.${found.error}`)}</p> : null}
        {found && !found.error && found.customers.length === 0 ? <p className="cell-muted">{t("payments.form.noCustomers")}</p> : null}
        {found?.customers.map((customer) => (
          <button key={customer.id} type="button" className="pick-option" onClick={() => onChoose(customer)} data-testid="customer-option">
            <span className="picked-name">{customer.name}</span>
            <span className="cell-muted">{customer.email}</span>
          </button>
        ))}
      </div>
    </div>
  );
}
