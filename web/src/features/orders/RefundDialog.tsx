import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { formatMoney } from "../../components/format";
import { centsToRand, randToCents } from "../../components/listView";
import { useCommand } from "../../live/useCommand";
import type { Order } from "../../protocol/wire";
import { ErrorAlert } from "../../components/ErrorAlert";

/** Refunds all or part of a paid order; the amount starts at what is left to refund. */
export function RefundDialog({ order, open, onClose }: { order: Order; open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const remaining = order.amountCents - order.refundedCents;
  const act = useCommand();
  const [amount, setAmount] = useState(() => centsToRand(remaining));
  const [typed, setTyped] = useState<"invalid" | null>(null);
  const placed = placeError(act.error, ["amountCents"] as const);
  const amountError = typed ? t("errors.invalid_amount") : placed.fields.amountCents ? t(`errors.${placed.fields.amountCents}`) : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const cents = randToCents(amount);
    if (cents === undefined || cents === "invalid") {
      setTyped("invalid");
      return;
    }
    setTyped(null);
    const reply = await act.run({ t: "ActOnOrder", orderId: order.id, action: "refund", amountCents: cents });
    if (reply) onClose();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          act.clearError();
          onClose();
        }
      }}
      size="sm"
      title={t("orders.confirm.refundTitle")}
      description={t("orders.refund.body", { remaining: formatMoney(remaining, language), payer: order.payerName })}
      closeLabel={t("common.close")}
      testId="order-confirm"
      needs="refunds:write"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label={t("orders.refund.amount")}
          inputMode="decimal"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={amountError}
          hint={t("orders.refund.hint", { remaining: formatMoney(remaining, language) })}
          data-testid="refund-amount"
        />
        {placed.general ? <ErrorAlert code={placed.general} /> : null}
        <div className="form-actions">
          <Button type="button" onClick={onClose} disabled={act.busy}>
            {t("collections.keep")}
          </Button>
          <Button type="submit" variant="danger" busy={act.busy} needs="refunds:write" data-testid="confirm-action">
            {t("orders.actions.refund")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
