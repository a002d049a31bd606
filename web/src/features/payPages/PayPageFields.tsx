import { useTranslation } from "react-i18next";
import { CheckboxField } from "../../components/CheckboxField";
import { SelectField, TextField } from "../../components/Field";
import { PAGE_METHODS } from "../../components/payPageMethods";
import type { AmountMode, PageInterval, PaymentKind } from "../../protocol/wire";
import {
  DESCRIPTION_MAX,
  isColour,
  PAGE_INTERVALS,
  REFERENCE_MAX,
  TITLE_MAX,
  toggleMethod,
  withKind,
  type PayPageDraft,
  type PayPageField,
} from "./payPageForm";
import { Segmented } from "../../components/Segmented";

type PayPageFieldsProps = {
  draft: PayPageDraft;
  errorOf: (field: PayPageField) => string | undefined;
  onChange: (next: PayPageDraft) => void;
};

/** Everything a pay page asks of the merchant except its logo. */
export function PayPageFields({ draft, errorOf, onChange }: PayPageFieldsProps) {
  const { t } = useTranslation();
  const patch = (change: Partial<PayPageDraft>) => onChange({ ...draft, ...change });
  const methodsError = errorOf("methods");
  return (
    <>
      <fieldset className="form-section">
        <legend>{t("payPages.form.pageSection")}</legend>
        <div className="form-grid">
          <TextField
            label={t("payPages.form.title")}
            value={draft.title}
            onChange={(event) => patch({ title: event.target.value })}
            error={errorOf("title")}
            maxLength={TITLE_MAX}
            required
            data-testid="page-title-input"
          />
          <TextField
            label={t("payPages.form.reference")}
            value={draft.reference}
            onChange={(event) => patch({ reference: event.target.value })}
            error={errorOf("reference")}
            hint={t("payPages.form.referenceHint")}
            maxLength={REFERENCE_MAX}
            autoComplete="off"
            required
            data-testid="page-reference-input"
          />
        </div>
        <div className={errorOf("description") ? "field field-invalid" : "field"}>
          <label className="field-label" htmlFor="page-description">
            {t("payPages.form.description")}
          </label>
          <textarea
            id="page-description"
            className="input textarea"
            rows={3}
            value={draft.description}
            maxLength={DESCRIPTION_MAX}
            onChange={(event) => patch({ description: event.target.value })}
            aria-invalid={errorOf("description") ? true : undefined}
            data-testid="page-description-input"
          />
          {errorOf("description") ? (
            <p className="field-error" role="alert">
              {errorOf("description")}
            </p>
          ) : (
            <p className="field-hint">{t("payPages.form.descriptionHint", { left: DESCRIPTION_MAX - [...draft.description].length })}</p>
          )}
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>{t("payPages.form.amountSection")}</legend>
        <Segmented<AmountMode>
          label={t("payPages.form.amountMode")}
          value={draft.amountMode}
          options={[
            { value: "fixed", label: t("payPages.amountMode.fixed") },
            { value: "payer_chosen", label: t("payPages.amountMode.payer_chosen") },
          ]}
          onChange={(amountMode) => patch({ amountMode })}
          testId="page-amount-mode"
        />
        {draft.amountMode === "fixed" ? (
          <div className="form-grid">
            <TextField
              label={t("payPages.form.amount")}
              value={draft.amount}
              onChange={(event) => patch({ amount: event.target.value })}
              error={errorOf("amountCents")}
              inputMode="decimal"
              placeholder="0.00"
              required
              data-testid="page-amount-input"
            />
          </div>
        ) : (
          <div className="form-grid">
            <TextField
              label={t("payPages.form.min")}
              value={draft.min}
              onChange={(event) => patch({ min: event.target.value })}
              error={errorOf("minCents")}
              inputMode="decimal"
              placeholder="0.00"
              required
              data-testid="page-min-input"
            />
            <TextField
              label={t("payPages.form.max")}
              value={draft.max}
              onChange={(event) => patch({ max: event.target.value })}
              error={errorOf("maxCents")}
              inputMode="decimal"
              placeholder="0.00"
              required
              data-testid="page-max-input"
            />
          </div>
        )}
      </fieldset>

      <fieldset className="form-section">
        <legend>{t("payPages.form.collectionSection")}</legend>
        <div className="form-grid">
          <Segmented<PaymentKind>
            label={t("payPages.form.kind")}
            value={draft.kind}
            options={[
              { value: "once", label: t("payPages.kind.once") },
              { value: "recurring", label: t("payPages.kind.recurring") },
            ]}
            onChange={(kind) => onChange(withKind(draft, kind))}
            testId="page-kind"
          />
          {draft.kind === "recurring" ? (
            <SelectField
              label={t("payPages.form.interval")}
              value={draft.interval}
              onChange={(event) => patch({ interval: event.target.value as PageInterval })}
              error={errorOf("interval")}
              options={PAGE_INTERVALS.map((interval) => ({ value: interval, label: t(`payPages.interval.${interval}`) }))}
              data-testid="page-interval-input"
            />
          ) : null}
        </div>
        <div className={methodsError ? "field field-invalid" : "field"} role="group" aria-label={t("payPages.form.methods")} data-testid="page-methods">
          <span className="field-label">{t("payPages.form.methods")}</span>
          <div className="page-methods">
            {PAGE_METHODS[draft.kind].map((method) => (
              <CheckboxField
                key={method}
                label={t(`collections.method.${method}`)}
                checked={draft.methods.includes(method)}
                onChange={(on) => onChange(toggleMethod(draft, method, on))}
                testId={`page-method-${method}`}
              />
            ))}
          </div>
          {methodsError ? (
            <p className="field-error" role="alert">
              {methodsError}
            </p>
          ) : (
            <p className="field-hint">{draft.kind === "once" ? t("payPages.form.methodsHintOnce") : t("payPages.form.methodsHintRecurring")}</p>
          )}
        </div>
      </fieldset>

      <fieldset className="form-section">
        <legend>{t("payPages.form.limitsSection")}</legend>
        <div className="form-grid">
          <TextField
            label={t("payPages.form.expiresOn")}
            type="date"
            value={draft.expiresOn}
            onChange={(event) => patch({ expiresOn: event.target.value })}
            error={errorOf("expiresOn")}
            hint={t("payPages.form.optional")}
            data-testid="page-expires-input"
          />
          <TextField
            label={t("payPages.form.maxUses")}
            value={draft.maxUses}
            onChange={(event) => patch({ maxUses: event.target.value })}
            error={errorOf("maxUses")}
            hint={t("payPages.form.optional")}
            inputMode="numeric"
            data-testid="page-max-uses-input"
          />
        </div>
        <TextField
          label={t("payPages.form.successUrl")}
          type="url"
          value={draft.successUrl}
          onChange={(event) => patch({ successUrl: event.target.value })}
          error={errorOf("successUrl")}
          hint={t("payPages.form.successUrlHint")}
          placeholder="https://"
          data-testid="page-success-url-input"
        />
      </fieldset>

      <fieldset className="form-section">
        <legend>{t("payPages.form.lookSection")}</legend>
        <div className={errorOf("colour") ? "field field-invalid" : "field"}>
          <label className="field-label" htmlFor="page-colour-text">
            {t("payPages.form.colour")}
          </label>
          <div className="colour-field">
            <input
              type="color"
              className="colour-swatch"
              aria-label={t("payPages.form.colourPicker")}
              value={isColour(draft.colour) ? draft.colour.trim().toLowerCase() : "#000000"}
              onChange={(event) => patch({ colour: event.target.value })}
              data-testid="page-colour-picker"
            />
            <input
              id="page-colour-text"
              className="input colour-text"
              value={draft.colour}
              maxLength={7}
              spellCheck={false}
              onChange={(event) => patch({ colour: event.target.value })}
              aria-invalid={errorOf("colour") ? true : undefined}
              data-testid="page-colour-input"
            />
          </div>
          {errorOf("colour") ? (
            <p className="field-error" role="alert">
              {errorOf("colour")}
            </p>
          ) : null}
        </div>
      </fieldset>
    </>
  );
}
