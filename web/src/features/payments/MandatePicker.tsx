import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { bankName } from "../../components/banks";
import { MandateStatusBadge } from "../../components/CollectionBadges";
import { Spinner } from "../../components/Spinner";
import { useLiveQuery } from "../../live/useLiveQuery";
import type { Customer, Mandate, PaymentMethod, ReplyBody } from "../../protocol/wire";

type MandatePickerProps = {
  customer: Customer;
  methods: readonly PaymentMethod[];
  choice: "existing" | "new";
  mandateId: string;
  error?: string;
  onChoice: (choice: "existing" | "new") => void;
  onMandate: (mandate: Mandate | undefined) => void;
};

const pickMandates = (reply: ReplyBody) => (reply.t === "MandatePage" ? reply.items : undefined);

/** A mandate the payment can collect under: approved or awaiting approval, of this customer, of an enabled method. */
export function usable(mandate: Mandate, customerId: string, methods: readonly PaymentMethod[]): boolean {
  return (
    mandate.customerId === customerId &&
    !mandate.archived &&
    (mandate.status === "active" || mandate.status === "pending_authentication") &&
    methods.includes(mandate.method)
  );
}

/** Chooses between one of the customer's mandates and setting up a new one. */
export function MandatePicker({ customer, methods, choice, mandateId, error, onChoice, onMandate }: MandatePickerProps) {
  const { t } = useTranslation();
  // The search matches e-mail addresses; the customer id check below keeps only theirs.
  const view = useLiveQuery(
    { t: "ListMandates", filter: { search: customer.email, eMandatesOnly: false, archived: false }, sort: "newest", limit: 50 },
    { pick: pickMandates, follows: ["mandate"] },
  );
  const mandates = view.state === "ready" ? view.value.filter((mandate) => usable(mandate, customer.id, methods)) : [];

  // A customer who already has a mandate to collect under most likely means that one.
  const defaulted = useRef("");
  const first = mandates[0];
  const settled = view.state !== "loading";
  useEffect(() => {
    if (!settled || defaulted.current === customer.id) return;
    defaulted.current = customer.id;
    if (!first) return;
    onChoice("existing");
    onMandate(first);
  }, [settled, customer.id, first, onChoice, onMandate]);

  return (
    <div className="mandate-picker">
      <div className="segmented" role="radiogroup" aria-label={t("payments.form.mandateChoice")}>
        {(["new", "existing"] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={choice === value}
            className={choice === value ? "segment segment-on" : "segment"}
            onClick={() => {
              // The merchant chose: no default may override it when the list arrives.
              defaulted.current = customer.id;
              onChoice(value);
            }}
            data-testid={`mandate-choice-${value}`}
          >
            {t(`payments.form.mandateChoices.${value}`)}
          </button>
        ))}
      </div>
      {choice === "existing" ? (
        <div className={error ? "field field-invalid" : "field"} role="radiogroup" aria-label={t("payments.form.existingMandates")}>
          {view.state === "loading" ? <Spinner label={t("app.loading")} /> : null}
          {view.state === "error" ? <p className="field-error">{t(`errors.${view.code}`)}</p> : null}
          {view.state === "ready" && mandates.length === 0 ? <p className="cell-muted">{t("payments.form.noMandates")}</p> : null}
          {mandates.map((mandate) => (
            <label key={mandate.id} className="pick-option pick-radio" data-testid="mandate-option">
              <input
                type="radio"
                name="existing-mandate"
                checked={mandateId === mandate.id}
                onChange={() => onMandate(mandate)}
                aria-invalid={error ? true : undefined}
              />
              <span className="picked-name">{t(`collections.method.${mandate.method}`)}</span>
              <span className="cell-mono">{mandate.contractReference}</span>
              <span className="cell-muted">{`${bankName(mandate.bank)} •••• ${mandate.accountLastDigits}`}</span>
              <MandateStatusBadge status={mandate.status} />
            </label>
          ))}
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
