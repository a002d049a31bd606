import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EditingToo } from "../../app/shell/OnThisPage";
import { ConflictPanel, type Choices, type ConflictRow } from "../../components/ConflictPanel";
import { Dialog } from "../../components/Dialog";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import { useEditingPresence } from "../../live/usePresence";
import type { Customer, CustomerInput, EditConflict, IdType } from "../../protocol/wire";
import { CustomerForm } from "./CustomerForm";
import { changedFields, splitConflict } from "../../components/conflict";
import { SavedMeanwhile, whoSaved } from "../../components/SavedMeanwhile";
import { useLastEdit } from "../../live/useLastEdit";
import { mergedInput, valueOf } from "./conflict";
import { draftFrom, EMPTY_DRAFT, inputFrom, type CustomerField } from "./fields";

const CUSTOMER_FIELDS = Object.keys(EMPTY_DRAFT) as CustomerField[];

type EditCustomerDialogProps = { customer: Customer; path: string; open: boolean; onOpenChange: (open: boolean) => void };

type Refused = { mine: CustomerInput; conflict: EditConflict };

export function EditCustomerDialog({ customer, path, open, onOpenChange }: EditCustomerDialogProps) {
  const { t } = useTranslation();
  useEditingPresence(path, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("customers.editTitle")} closeLabel={t("common.close")} testId="edit-customer-dialog" needs="customers:write">
      <EditingToo path={path} />
      <EditCustomerBody customer={customer} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

/** Mounted while the dialog is open: the version it starts from is the one the form showed first. */
function EditCustomerBody({ customer, onDone }: { customer: Customer; onDone: () => void }) {
  const { t } = useTranslation();
  const client = useLiveClient();
  // The customer as the form was filled from it: a teammate's save after its version is a
  // conflict, not overwritten, and "the user changed a field" is measured against it.
  const [start] = useState(customer);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [busy, setBusy] = useState(false);
  const changedElsewhere = customer.version !== start.version && !busy;
  // Who saved meanwhile: asked when their save reaches the open form, or when ours is refused.
  const lastEdit = useLastEdit("customer", customer.id, refused?.conflict.version ?? (changedElsewhere ? customer.version : undefined));

  // A refusal whose only clashes are fields the user left alone is saved again at once, with
  // the teammate's values there: at most this many times in a row, should they keep saving.
  async function send(input: CustomerInput, baseVersion: number, resends = 2): Promise<void> {
    try {
      // Not announced: a conflict is shown in the dialog itself, other errors go to the notice below.
      await client.command({ t: "UpdateCustomer", customerId: customer.id, input, baseVersion }, { announce: false });
      onDone();
    } catch (failure) {
      if (failure instanceof LiveError && failure.wire.code === "edit_conflict" && failure.wire.conflict) {
        const { merged, clashes } = splitConflict(input, inputFrom(draftFrom(start)), failure.wire.conflict);
        if (clashes.fields.length === 0 && resends > 0) return send(merged, clashes.version, resends - 1);
        setRefused({ mine: merged, conflict: clashes });
        return;
      }
      if (failure instanceof LiveError) client.announceError(failure.wire);
      throw failure;
    }
  }

  async function resolve(choices: Choices) {
    if (!refused) return;
    setBusy(true);
    try {
      await send(mergedInput(refused.mine, refused.conflict, choices), refused.conflict.version);
    } catch {
      // Shown by the global notice.
    } finally {
      setBusy(false);
    }
  }

  const shown = (field: string, value: string): string =>
    field === "idType" && value ? t(`customers.idTypes.${value as IdType}`) : value;
  const rows: ConflictRow[] = refused
    ? refused.conflict.fields.map(({ field, theirs }) => ({
        field,
        label: t(`customers.fields.${field as CustomerField}`),
        yours: shown(field, valueOf(refused.mine, field)),
        theirs: shown(field, theirs),
      }))
    : [];

  return refused ? (
    <ConflictPanel key={refused.conflict.version} rows={rows} busy={busy} onSave={resolve} onCancel={onDone} by={whoSaved(lastEdit, t)} />
  ) : (
    <>
      {changedElsewhere ? (
        <SavedMeanwhile edit={lastEdit} labels={changedFields(draftFrom(start), draftFrom(customer), CUSTOMER_FIELDS).map((field) => t(`customers.fields.${field as CustomerField}`))} />
      ) : null}
      <CustomerForm initial={draftFrom(start)} submitLabel={t("customers.save")} onSubmit={(input) => send(input, start.version)} onCancel={onDone} />
    </>
  );
}
