import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { useCommand } from "../../live/useCommand";
import type { Payment, PaymentAction } from "../../protocol/wire";
import { paymentActions } from "./paymentActions";

const DANGEROUS: readonly PaymentAction[] = ["cancel"];

/** The payment's actions for its status, each behind a confirmation. */
export function PaymentActions({ payment }: { payment: Payment }) {
  const { t } = useTranslation();
  const command = useCommand();
  const [asking, setAsking] = useState<PaymentAction | null>(null);
  const actions = paymentActions(payment);

  function open(action: PaymentAction) {
    command.clearError();
    setAsking(action);
  }

  async function confirm() {
    if (!asking) return;
    const reply = await command.run({ t: "ActOnPayment", paymentId: payment.id, action: asking });
    if (reply) setAsking(null);
  }

  return (
    <>
      {actions.map((action) => (
        <Button key={action} variant={DANGEROUS.includes(action) ? "danger" : "secondary"} onClick={() => open(action)} needs="payments:write" data-testid={`payment-${action}`}>
          {t(`payments.actions.${action}.button`)}
        </Button>
      ))}
      {asking ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (open ? null : setAsking(null))}
          title={t(`payments.actions.${asking}.title`)}
          body={t(`payments.actions.${asking}.body`, { name: payment.customerName })}
          confirmLabel={t(`payments.actions.${asking}.confirm`)}
          onConfirm={confirm}
          busy={command.busy}
          error={command.error}
          variant={DANGEROUS.includes(asking) ? "danger" : "primary"}
          needs="payments:write"
        />
      ) : null}
    </>
  );
}
