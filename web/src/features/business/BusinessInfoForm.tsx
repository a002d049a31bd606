import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { ConflictPanel, type Choices } from "../../components/ConflictPanel";
import { changedFields, mergedWithChoices, splitConflict } from "../../components/conflict";
import { SavedMeanwhile, whoSaved } from "../../components/SavedMeanwhile";
import { useLastEdit } from "../../live/useLastEdit";
import { TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { useCommand } from "../../live/useCommand";
import type { BusinessInfo, EditConflict, ErrorCode } from "../../protocol/wire";
import { BUSINESS_FIELDS, edit, FIELD_MAX, isDirty, NAME_FIELDS, receive, reload, saved, SECTIONS, startDraft, STATEMENT_NAME_MAX, trimmed, type BusinessField } from "./draft";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RoleLock } from "../../components/RoleLock";

type FieldSpec = { type?: string; inputMode?: "email" | "tel"; autoComplete?: string; wide?: boolean };

const SPECS: Partial<Record<BusinessField, FieldSpec>> = {
  supportEmail: { type: "email", inputMode: "email", autoComplete: "off" },
  supportPhone: { type: "tel", inputMode: "tel", autoComplete: "off" },
  physicalAddress: { wide: true },
};

export function BusinessInfoForm({ info }: { info: BusinessInfo }) {
  const { t } = useTranslation();
  const save = useCommand();
  const [form, setForm] = useState(() => startDraft(info));
  const [tooLong, setTooLong] = useState(false);
  const [justSaved, setJustSaved] = useState(false);
  // A save refused because a teammate saved first: what we sent and what they changed.
  const [refused, setRefused] = useState<{ mine: BusinessInfo; conflict: EditConflict } | null>(null);

  // A newer record (a teammate's save, our own, a refetch): fold it in while rendering.
  if (form.seen !== info) setForm(receive(form, info, save.busy));
  // Who saved meanwhile: asked when their save reaches the open form, or when ours is refused.
  const lastEdit = useLastEdit("business_info", "business_info", refused?.conflict.version ?? form.incoming?.version);

  const placed = placeError(save.error, BUSINESS_FIELDS);
  // Says what a field takes, where the error's own text could only say that it does not.
  const message = (field: BusinessField, code: ErrorCode): string => {
    const max = FIELD_MAX[field];
    if (code === "too_long" && max) return t("business.tooLong", { max });
    if (code === "invalid_characters" && field === "statementName") return t("business.statementCharacters");
    if (code === "invalid_characters" && NAME_FIELDS.includes(field)) return t("business.nameCharacters");
    return t(`errors.${code}`);
  };
  const fieldErrors: Partial<Record<BusinessField, ErrorCode>> = { ...placed.fields };
  if (tooLong) fieldErrors.statementName = "too_long";

  async function submit(event: FormEvent) {
    event.preventDefault();
    setJustSaved(false);
    const sent = trimmed(form.draft);
    // Sent even with a statement name over the limit: the server names every mistake in the
    // form at once, so the user fixes them all in one go rather than one save at a time.
    // The version the form was filled from: a teammate's save since is a conflict, not overwritten.
    await send(sent, form.baseline.version);
  }

  // A refusal whose only clashes are fields the user left alone is saved again at once, with
  // the teammate's values there: at most this many times in a row, should they keep saving.
  async function send(sent: BusinessInfo, baseVersion: number, resends = 2): Promise<void> {
    const outcome = await save.attempt({ t: "UpdateBusinessInfo", info: sent, baseVersion });
    if ("error" in outcome) {
      const conflict = outcome.error.code === "edit_conflict" ? outcome.error.conflict : undefined;
      if (!conflict) return;
      const { merged, clashes } = splitConflict(sent, form.baseline, conflict);
      if (clashes.fields.length === 0 && resends > 0) return send(merged, conflict.version, resends - 1);
      setRefused({ mine: merged, conflict: clashes });
      return;
    }
    setRefused(null);
    setForm((current) => saved(current, sent));
    setJustSaved(true);
  }

  function resolve(choices: Choices) {
    if (!refused) return;
    const merged = mergedWithChoices(refused.mine, refused.conflict, choices);
    setForm((current) => ({ ...current, draft: merged }));
    void send(merged, refused.conflict.version);
  }

  if (refused) {
    const rows = refused.conflict.fields.map(({ field, theirs }) => ({
      field,
      label: t(`business.fields.${field as BusinessField}`),
      yours: refused.mine[field as BusinessField] ?? "",
      theirs,
    }));
    return (
      <RoleLock needs="settings:write">
      <div className="card settings-card" data-testid="business-info-form">
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

  function change(field: BusinessField, value: string) {
    setForm((current) => edit(current, field, value));
    setJustSaved(false);
    if (field === "statementName") setTooLong(value.trim().length > STATEMENT_NAME_MAX);
  }

  const statementLength = form.draft.statementName.trim().length;
  return (
    // A role that only reads the settings sees the values read-only, with the reason.
    <RoleLock needs="settings:write" edited={isDirty(form)}>
    <form className="card settings-card" onSubmit={submit} noValidate data-testid="business-info-form">
      {form.incoming ? (
        <SavedMeanwhile edit={lastEdit} labels={changedFields(form.baseline, form.incoming, BUSINESS_FIELDS).map((field) => t(`business.fields.${field as BusinessField}`))}>
          <button type="button" className="link link-button" onClick={() => setForm(reload(form))} data-testid="reload-values">
            {t("business.reloadValues")}
          </button>
        </SavedMeanwhile>
      ) : null}
      <ErrorAlert code={placed.general} />
      <fieldset className="form-fieldset" disabled={save.busy}>
        {SECTIONS.map(({ section, fields }) => (
          <fieldset className="form-section" key={section}>
            <legend>{t(`business.sections.${section}`)}</legend>
            <div className="form-grid">
              {fields.map((field) => {
                const { wide, ...spec } = SPECS[field] ?? {};
                const statement = field === "statementName";
                return (
                  <div key={field} className={wide ? "form-wide" : undefined}>
                    <TextField
                      label={t(`business.fields.${field}`)}
                      name={field}
                      value={form.draft[field]}
                      onChange={(event) => change(field, event.target.value)}
                      error={fieldErrors[field] ? message(field, fieldErrors[field]) : undefined}
                      hint={statement ? t("business.statementHint") : undefined}
                      data-testid={`business-${field}`}
                      className={statement ? "input-code" : undefined}
                      {...spec}
                    />
                    {statement ? (
                      <p className={statementLength > STATEMENT_NAME_MAX ? "char-counter char-counter-over" : "char-counter"} data-testid="statement-counter" aria-live="polite">
                        {t("business.counter", { count: statementLength, max: STATEMENT_NAME_MAX })}
                      </p>
                    ) : null}
                  </div>
                );
              })}
            </div>
          </fieldset>
        ))}
      </fieldset>
      <div className="form-actions form-actions-start">
        <Button type="submit" variant="primary" busy={save.busy} disabled={!isDirty(form)} needs="settings:write" data-testid="save-business-info">
          {save.busy ? t("business.saving") : t("business.save")}
        </Button>
        {isDirty(form) ? (
          <Button onClick={() => setForm(reload(form))} disabled={save.busy} data-testid="discard-business-info">
            {t("business.discard")}
          </Button>
        ) : null}
        {justSaved && !isDirty(form) ? (
          <span className="saved-note" role="status" data-testid="business-info-saved">
            {t("business.saved")}
          </span>
        ) : null}
      </div>
    </form>
    </RoleLock>
  );
}
