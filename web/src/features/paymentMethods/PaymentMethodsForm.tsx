import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { CheckboxField } from "../../components/CheckboxField";
import { ConflictPanel, type Choices } from "../../components/ConflictPanel";
import { changedFields, mergedWithChoices, splitConflict, textOf } from "../../components/conflict";
import { SavedMeanwhile, whoSaved } from "../../components/SavedMeanwhile";
import { useLastEdit } from "../../live/useLastEdit";
import { SelectField, TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { PAYMENT_METHODS } from "../../components/listView";
import { SettingsCard } from "../../components/SettingsCard";
import { useCommand } from "../../live/useCommand";
import type { ApprovalWindow, EditConflict, PaymentMethod, PaymentMethodSettings } from "../../protocol/wire";
import { fromDraft, sameSettings, toDraft, type SettingsDraft } from "./settingsDraft";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RoleLock } from "../../components/RoleLock";

const FIELDS = ["enabled", "debicheckApprovalWindow", "debicheckTrackingDays", "debicheckAbbreviatedName"] as const;
/** The label of each field a conflict may name. */
const LABELS = {
  enabled: "paymentMethods.methodsTitle",
  debicheckApprovalWindow: "paymentMethods.approvalWindow",
  debicheckAllowTracking: "paymentMethods.allowTracking",
  debicheckTrackingDays: "paymentMethods.trackingDays",
  debicheckAllowDateAdjustment: "paymentMethods.allowDateAdjustment",
  debicheckAbbreviatedName: "paymentMethods.abbreviatedName",
} as const;
const APPROVAL_WINDOWS: readonly ApprovalWindow[] = ["tt1_real_time", "tt1_delayed", "tt2_batch"];

export function PaymentMethodsForm({ settings }: { settings: PaymentMethodSettings }) {
  const { t } = useTranslation();
  const save = useCommand();
  const [base, setBase] = useState(settings);
  const [draft, setDraft] = useState<SettingsDraft>(() => toDraft(settings));
  const [saved, setSaved] = useState(false);
  const dirty = !sameSettings(fromDraft(draft), base);
  // A change saved elsewhere (another tab, a team mate) shows at once unless this form holds edits.
  if (settings !== base && !dirty) {
    setBase(settings);
    setDraft(toDraft(settings));
  }
  const changedElsewhere = settings !== base && dirty && !save.busy;

  const placed = placeError(save.error, FIELDS);
  const errorOf = (field: (typeof FIELDS)[number]) => (placed.fields[field] ? t(`errors.${placed.fields[field]}`) : undefined);
  const set = (patch: Partial<SettingsDraft>) => {
    setSaved(false);
    setDraft((current) => ({ ...current, ...patch }));
  };
  const toggle = (method: PaymentMethod, on: boolean) =>
    set({ enabled: PAYMENT_METHODS.filter((known) => (known === method ? on : draft.enabled.includes(known))) });

  // A save refused because a teammate saved first: what we sent, and the fields both changed.
  const [refused, setRefused] = useState<{ mine: PaymentMethodSettings; conflict: EditConflict } | null>(null);
  // Who saved meanwhile: asked when their save reaches the open form, or when ours is refused.
  const lastEdit = useLastEdit("payment_method_settings", "payment_method_settings", refused?.conflict.version ?? (changedElsewhere ? settings.version : undefined));

  // A refusal whose only clashes are fields the user left alone is saved again at once, with
  // the teammate's values there: at most this many times in a row, should they keep saving.
  async function send(next: PaymentMethodSettings, baseVersion: number, resends = 2): Promise<void> {
    const outcome = await save.attempt({ t: "UpdatePaymentMethodSettings", settings: next, baseVersion });
    if ("error" in outcome) {
      const conflict = outcome.error.code === "edit_conflict" ? outcome.error.conflict : undefined;
      if (!conflict) return;
      const { merged, clashes } = splitConflict(next, base, conflict);
      if (clashes.fields.length === 0 && resends > 0) return send(merged, conflict.version, resends - 1);
      setRefused({ mine: merged, conflict: clashes });
      return;
    }
    setRefused(null);
    setBase(next);
    setSaved(true);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The version the form was filled from: a teammate's save since is a conflict, not overwritten.
    await send(fromDraft(draft), base.version);
  }

  if (refused) {
    const rows = refused.conflict.fields.map(({ field, theirs }) => ({
      field,
      label: field in LABELS ? t(LABELS[field as keyof typeof LABELS]) : field,
      yours: textOf(refused.mine[field as keyof PaymentMethodSettings]),
      theirs,
    }));
    const resolve = (choices: Choices) => {
      const merged = mergedWithChoices(refused.mine, refused.conflict, choices);
      setDraft(toDraft(merged));
      void send(merged, refused.conflict.version);
    };
    return (
      <RoleLock needs="settings:write">
      <div className="card settings-card" data-testid="payment-methods-form">
        <ConflictPanel
          key={refused.conflict.version}
          rows={rows}
          busy={save.busy}
          onSave={resolve}
          by={whoSaved(lastEdit, t)}
          onCancel={() => {
            setRefused(null);
            save.clearError();
          }}
        />
      </div>
      </RoleLock>
    );
  }

  return (
    // A role that only reads the settings sees them read-only, with the reason.
    <RoleLock needs="settings:write" edited={dirty}>
    <form className="settings-stack" onSubmit={submit} noValidate data-testid="payment-methods-form">
      <ErrorAlert code={placed.general} />
      {changedElsewhere ? (
        <SavedMeanwhile edit={lastEdit} labels={changedFields(base, settings, Object.keys(LABELS)).map((field) => t(LABELS[field as keyof typeof LABELS]))}>
          <button
            type="button"
            className="link link-button"
            onClick={() => {
              setBase(settings);
              setDraft(toDraft(settings));
            }}
          >
            {t("paymentMethods.loadLatest")}
          </button>
        </SavedMeanwhile>
      ) : null}
      <SettingsCard title={t("paymentMethods.methodsTitle")} description={t("paymentMethods.methodsDescription")} testId="methods-card">
        <fieldset className="method-list" disabled={save.busy} aria-describedby={errorOf("enabled") ? "methods-error" : undefined}>
          <legend className="sr-only-text">{t("paymentMethods.methodsTitle")}</legend>
          {PAYMENT_METHODS.map((method) => (
            <CheckboxField
              key={method}
              label={t(`collections.method.${method}`)}
              hint={t(`paymentMethods.methodHints.${method}`)}
              checked={draft.enabled.includes(method)}
              onChange={(on) => toggle(method, on)}
              testId={`method-${method}`}
            />
          ))}
          {errorOf("enabled") ? (
            <p className="field-error" id="methods-error" role="alert">
              {errorOf("enabled")}
            </p>
          ) : null}
        </fieldset>
      </SettingsCard>
      <SettingsCard title={t("paymentMethods.debicheckTitle")} description={t("paymentMethods.debicheckDescription")} testId="debicheck-card">
        <fieldset className="form-grid plain-fieldset" disabled={save.busy}>
          <SelectField
            label={t("paymentMethods.approvalWindow")}
            value={draft.debicheckApprovalWindow}
            onChange={(event) => set({ debicheckApprovalWindow: event.target.value as ApprovalWindow })}
            error={errorOf("debicheckApprovalWindow")}
            options={APPROVAL_WINDOWS.map((window) => ({ value: window, label: t(`collections.approvalWindow.${window}`) }))}
            data-testid="debicheck-approvalWindow"
          />
          <TextField
            label={t("paymentMethods.abbreviatedName")}
            value={draft.debicheckAbbreviatedName}
            onChange={(event) => set({ debicheckAbbreviatedName: event.target.value })}
            error={errorOf("debicheckAbbreviatedName")}
            hint={t("paymentMethods.abbreviatedNameHint")}
            autoComplete="off"
            data-testid="debicheck-abbreviatedName"
          />
          <CheckboxField
            label={t("paymentMethods.allowTracking")}
            checked={draft.debicheckAllowTracking}
            onChange={(debicheckAllowTracking) => set({ debicheckAllowTracking })}
            hint={t("paymentMethods.allowTrackingHint")}
            testId="debicheck-allowTracking"
          />
          <TextField
            label={t("paymentMethods.trackingDays")}
            type="number"
            min={1}
            max={10}
            value={draft.debicheckTrackingDays}
            disabled={!draft.debicheckAllowTracking}
            onChange={(event) => set({ debicheckTrackingDays: event.target.value })}
            error={errorOf("debicheckTrackingDays")}
            hint={t("paymentMethods.trackingDaysHint")}
            data-testid="debicheck-trackingDays"
          />
          <div className="form-wide">
            <CheckboxField
              label={t("paymentMethods.allowDateAdjustment")}
              checked={draft.debicheckAllowDateAdjustment}
              onChange={(debicheckAllowDateAdjustment) => set({ debicheckAllowDateAdjustment })}
              hint={t("paymentMethods.allowDateAdjustmentHint")}
              testId="debicheck-allowDateAdjustment"
            />
          </div>
        </fieldset>
      </SettingsCard>
      <div className="form-actions form-actions-start">
        <Button type="submit" variant="primary" busy={save.busy} disabled={!dirty} needs="settings:write" data-testid="save-payment-methods">
          {save.busy ? t("paymentMethods.saving") : t("paymentMethods.save")}
        </Button>
        {saved && !dirty ? (
          <span className="saved-note" role="status" data-testid="payment-methods-saved">
            {t("paymentMethods.saved")}
          </span>
        ) : null}
      </div>
    </form>
    </RoleLock>
  );
}
