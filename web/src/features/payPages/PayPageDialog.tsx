import { useAtomValue } from "jotai";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { ConflictPanel, type Choices } from "../../components/ConflictPanel";
import { changedFields, mergedWithChoices, splitConflict, textOf } from "../../components/conflict";
import { SavedMeanwhile, whoSaved } from "../../components/SavedMeanwhile";
import { useLastEdit } from "../../live/useLastEdit";
import { Dialog } from "../../components/Dialog";
import { placeError } from "../../components/fieldErrors";
import { todayInSouthAfrica } from "../../components/format";
import { useRevealErrors } from "../../components/useRevealErrors";
import { businessDateAtom } from "../../live/cache";
import { useCommand } from "../../live/useCommand";
import type { EditConflict, ErrorCode, PayPage, PayPageInput } from "../../protocol/wire";
import { LogoField, type LogoChange } from "./LogoField";
import { PayPageFields } from "./PayPageFields";
import {
  draftFromPage,
  emptyPayPageDraft,
  PAY_PAGE_FIELDS,
  payPageInputFrom,
  type PayPageErrors,
  type PayPageField,
} from "./payPageForm";
import { ErrorAlert } from "../../components/ErrorAlert";

type PayPageDialogProps = {
  /** The page to edit; none to make a new one. */
  page?: PayPage;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

export function PayPageDialog({ page, open, onOpenChange }: PayPageDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={page ? t("payPages.form.editTitle") : t("payPages.form.newTitle")}
      description={t("payPages.form.intro")}
      closeLabel={t("common.close")}
      testId="pay-page-dialog"
      needs="pay_pages:write"
    >
      <PayPageForm page={page} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

// Codes that are about one field even when the server names none.
const BY_CODE: Partial<Record<ErrorCode, PayPageField>> = {
  invalid_image: "logo",
  image_too_large: "logo",
  method_not_enabled: "methods",
  method_not_for_page: "methods",
  minimum_above_maximum: "minCents",
  interval_required: "interval",
  invalid_colour: "colour",
  invalid_url: "successUrl",
};

/** The label of each field a conflict may name. */
const LABELS = {
  title: "payPages.form.title",
  description: "payPages.form.description",
  reference: "payPages.form.reference",
  amountMode: "payPages.form.amountMode",
  amountCents: "payPages.form.amount",
  minCents: "payPages.form.min",
  maxCents: "payPages.form.max",
  kind: "payPages.form.kind",
  interval: "payPages.form.interval",
  methods: "payPages.form.methods",
  expiresOn: "payPages.form.expiresOn",
  maxUses: "payPages.form.maxUses",
  successUrl: "payPages.form.successUrl",
  colour: "payPages.form.colour",
} as const;

function PayPageForm({ page, onDone }: { page?: PayPage; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useCommand();
  const [draft, setDraft] = useState(() => (page ? draftFromPage(page) : emptyPayPageDraft()));
  const [logo, setLogo] = useState<LogoChange>({ t: "keep" });
  const [local, setLocal] = useState<PayPageErrors>({});
  // A new page that saved but whose logo was refused is edited from then on, not made twice.
  const [savedId, setSavedId] = useState<string | undefined>(page?.id);
  // The version the form was filled from: a teammate's save since is a conflict, not overwritten.
  const [base, setBase] = useState(page?.version);
  // The page as the form was filled from it: what "the user changed a field" is measured against.
  const [start] = useState(page);
  // A save refused because a teammate saved first: what we sent, and the fields both changed.
  const [refused, setRefused] = useState<{ mine: PayPageInput; conflict: EditConflict } | null>(null);
  const changedElsewhere = page !== undefined && base !== undefined && page.version !== base && !save.busy;
  // Who saved meanwhile: asked when their save reaches the open form, or when ours is refused.
  const lastEdit = useLastEdit("pay_page", page?.id ?? "", refused?.conflict.version ?? (changedElsewhere ? page.version : undefined));
  const businessDate = useAtomValue(businessDateAtom);
  // After a refused press, the first field in error takes the cursor (and scrolls into view).
  const { form, refused: reveal } = useRevealErrors();

  const placed = placeError(save.error, PAY_PAGE_FIELDS, BY_CODE);
  const errors: PayPageErrors = { ...placed.fields, ...local };
  const errorOf = (field: PayPageField) => (errors[field] ? t(`errors.${errors[field]}`) : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    save.clearError();
    const built = payPageInputFrom(draft, businessDate ?? todayInSouthAfrica());
    setLocal(built.errors);
    if (!built.input) return reveal();
    await send(built.input, base);
  }

  // A refusal whose only clashes are fields the user left alone is saved again at once, with
  // the teammate's values there: at most this many times in a row, should they keep saving.
  async function send(input: PayPageInput, baseVersion: number | undefined, resends = 2): Promise<void> {
    const outcome = await save.attempt(savedId ? { t: "UpdatePayPage", pageId: savedId, input, baseVersion } : { t: "CreatePayPage", input });
    if ("error" in outcome) {
      const conflict = outcome.error.code === "edit_conflict" ? outcome.error.conflict : undefined;
      if (!conflict || !start) return reveal();
      const { merged, clashes } = splitConflict(input, start, conflict);
      if (clashes.fields.length === 0 && resends > 0) return send(merged, conflict.version, resends - 1);
      setRefused({ mine: merged, conflict: clashes });
      return;
    }
    const reply = outcome.ok;
    const pageId = savedId ?? (reply.t === "Committed" ? reply.id : undefined);
    if (!pageId) return reveal();
    setRefused(null);
    // Saved: a retry from this form (its logo refused) follows our own save, not a teammate's.
    if (reply.t === "Committed") setBase(undefined);
    setSavedId(pageId);
    if (logo.t !== "keep") {
      const data = logo.t === "set" ? new Uint8Array(await logo.file.arrayBuffer()) : new Uint8Array();
      const logoReply = await save.run({ t: "SetPayPageLogo", pageId, data });
      if (!logoReply) return reveal();
      setLogo({ t: "keep" });
    }
    onDone();
  }

  if (refused && page) {
    const rows = refused.conflict.fields.map(({ field, theirs }) => ({
      field,
      label: field in LABELS ? t(LABELS[field as keyof typeof LABELS]) : field,
      yours: textOf(refused.mine[field as keyof PayPageInput]),
      theirs,
    }));
    const resolve = (choices: Choices) => {
      const merged = mergedWithChoices(refused.mine, refused.conflict, choices);
      setDraft(draftFromPage({ ...page, ...merged }));
      void send(merged, refused.conflict.version);
    };
    return (
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
    );
  }

  return (
    <form ref={form} className="form pay-page-form" onSubmit={submit} noValidate data-testid="pay-page-form">
      <ErrorAlert code={placed.general} />
      {changedElsewhere && start ? (
        <SavedMeanwhile edit={lastEdit} labels={changedFields(start, page, Object.keys(LABELS)).map((field) => t(LABELS[field as keyof typeof LABELS]))} />
      ) : null}
      {savedId && !page ? <Alert tone="info">{t("payPages.form.savedWithoutLogo")}</Alert> : null}
      <fieldset className="form-fieldset" disabled={save.busy}>
        <PayPageFields draft={draft} errorOf={errorOf} onChange={setDraft} />
        <LogoField
          pageId={page?.id}
          logoVersion={page?.logoVersion}
          change={logo}
          onChange={setLogo}
          error={errorOf("logo")}
          onProblem={(problem) => {
            save.clearError();
            setLocal((current) => {
              const next = { ...current };
              if (problem) next.logo = problem;
              else delete next.logo;
              return next;
            });
          }}
        />
      </fieldset>
      <div className="form-actions">
        <Button onClick={onDone} disabled={save.busy}>
          {t("payPages.form.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={save.busy} needs="pay_pages:write" data-testid="page-submit">
          {save.busy ? t("payPages.form.saving") : page || savedId ? t("payPages.form.save") : t("payPages.form.create")}
        </Button>
      </div>
    </form>
  );
}
