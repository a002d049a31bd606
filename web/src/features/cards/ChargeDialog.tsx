import { useAtomValue } from "jotai";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { formatMoney } from "../../components/format";
import { Spinner } from "../../components/Spinner";
import { orderAtom } from "../../live/cache";
import { useCommand } from "../../live/useCommand";
import type { Card, ErrorCode } from "../../protocol/wire";
import { CHARGE_REFERENCE_MAX, chargeFrom, formatExpiry, type ChargeDraft, type ChargeErrors, type ChargeField } from "./cardView";
import { ErrorAlert } from "../../components/ErrorAlert";

type ChargeDialogProps = { card: Card; onClose: () => void };

const FIELDS: readonly ChargeField[] = ["amountCents", "reference"];
const BY_CODE: Partial<Record<ErrorCode, ChargeField>> = { invalid_amount: "amountCents" };

/** Charges a card on file once; the outcome shows when the order it makes is settled. */
export function ChargeDialog({ card, onClose }: ChargeDialogProps) {
  const { t } = useTranslation();
  const [orderId, setOrderId] = useState<string | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="sm"
      title={t("cards.charge.title")}
      description={t("cards.charge.body", { brand: t(`cards.brand.${card.brand}`), last: card.lastFour, expiry: formatExpiry(card), name: card.customerName })}
      closeLabel={t("common.close")}
      testId="charge-dialog"
      needs="payments:write"
    >
      {orderId ? <ChargeOutcome orderId={orderId} onClose={onClose} /> : <ChargeForm card={card} onCharged={setOrderId} onCancel={onClose} />}
    </Dialog>
  );
}

function ChargeForm({ card, onCharged, onCancel }: { card: Card; onCharged: (orderId: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const charge = useCommand();
  const [draft, setDraft] = useState<ChargeDraft>({ amount: "", reference: "" });
  const [local, setLocal] = useState<ChargeErrors>({});
  const placed = placeError(charge.error, FIELDS, BY_CODE);
  const errors: ChargeErrors = { ...placed.fields, ...local };
  const errorOf = (field: ChargeField) => (errors[field] ? t(`errors.${errors[field]}`) : undefined);

  async function submit(event: FormEvent) {
    event.preventDefault();
    charge.clearError();
    const built = chargeFrom(card.id, draft);
    setLocal(built.errors);
    if (!built.command) return;
    const reply = await charge.run(built.command);
    if (reply?.t === "Committed" && reply.id) onCharged(reply.id);
  }

  return (
    <form className="form" onSubmit={submit} noValidate data-testid="charge-form">
      <ErrorAlert code={placed.general} />
      <TextField
        label={t("cards.charge.amount")}
        value={draft.amount}
        onChange={(event) => setDraft({ ...draft, amount: event.target.value })}
        error={errorOf("amountCents")}
        inputMode="decimal"
        placeholder="0.00"
        required
        autoFocus
        data-testid="charge-amount"
      />
      <TextField
        label={t("cards.charge.reference")}
        value={draft.reference}
        onChange={(event) => setDraft({ ...draft, reference: event.target.value })}
        error={errorOf("reference")}
        hint={t("cards.charge.referenceHint")}
        maxLength={CHARGE_REFERENCE_MAX}
        autoComplete="off"
        required
        data-testid="charge-reference"
      />
      <div className="form-actions">
        <Button onClick={onCancel} disabled={charge.busy}>
          {t("cards.charge.cancel")}
        </Button>
        <Button type="submit" variant="primary" busy={charge.busy} needs="payments:write" data-testid="charge-submit">
          {charge.busy ? t("cards.charge.charging") : t("cards.charge.submit")}
        </Button>
      </div>
    </form>
  );
}

function ChargeOutcome({ orderId, onClose }: { orderId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  // The order arrives by delta; the card's bank may still be answering.
  const order = useAtomValue(orderAtom(orderId));
  const link = (
    <Link to={`/commerce/orders?order=${encodeURIComponent(orderId)}`} className="table-link" data-testid="charge-order-link">
      {t("cards.charge.viewOrder")}
    </Link>
  );
  return (
    <div className="form" data-testid="charge-outcome" data-status={order?.status ?? "pending"}>
      {!order || order.status === "pending" ? (
        <div className="charge-waiting">
          <Spinner label={t("cards.charge.waiting")} />
          <span>{t("cards.charge.waiting")}</span>
        </div>
      ) : order.status === "paid" ? (
        <Alert tone="success">{t("cards.charge.paid", { amount: formatMoney(order.amountCents, i18n.language) })}</Alert>
      ) : order.status === "failed" ? (
        <Alert>{t("cards.charge.failed", { reason: order.failure ? t(`commerce.failure.${order.failure}`) : t("orders.status.failed") })}</Alert>
      ) : (
        <Alert tone="info">{t(`orders.status.${order.status}`)}</Alert>
      )}
      <div className="form-actions charge-actions">
        {link}
        <Button variant="primary" onClick={onClose} data-testid="charge-done">
          {t("cards.charge.done")}
        </Button>
      </div>
    </div>
  );
}
