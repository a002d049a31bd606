import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import type { Customer, PaymentKind } from "../../protocol/wire";
import { NewPaymentDialog } from "./NewPaymentDialog";

/**
 * "New one-time payment" and "New recurring payment" on a customer's page: the form opens with
 * the customer chosen, their mandate (or, for a new mandate, their saved bank account) picked.
 */
export function NewPaymentForCustomer({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<PaymentKind | null>(null);
  // An archived customer is kept for the record, not charged again until restored.
  if (customer.archived) return null;
  return (
    <>
      <Button onClick={() => setKind("once")} needs="payments:write" data-testid="customer-new-payment-once">
        {t("payments.form.titleOnce")}
      </Button>
      <Button onClick={() => setKind("recurring")} needs="payments:write" data-testid="customer-new-payment-recurring">
        {t("payments.form.titleRecurring")}
      </Button>
      {kind ? <NewPaymentDialog kind={kind} customer={customer} open onOpenChange={(open) => setKind(open ? kind : null)} /> : null}
    </>
  );
}
