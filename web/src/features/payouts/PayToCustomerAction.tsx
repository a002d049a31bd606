import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { useCan } from "../../live/permissions";
import type { BankAccount } from "../../protocol/wire";
import { PayToCustomerDialog } from "./PayToCustomerDialog";

/** "Pay to customer" beside a customer's bank accounts, for members who may make payouts. */
export function PayToCustomerAction({ customerId, accounts }: { customerId: string; accounts: BankAccount[] }) {
  const { t } = useTranslation();
  const mayPay = useCan("payouts", "write");
  const [paying, setPaying] = useState(false);
  if (!mayPay) return null;
  return (
    <>
      <Button className="btn-sm" onClick={() => setPaying(true)} data-testid="pay-to-customer">
        {t("payouts.toCustomerDialog.open")}
      </Button>
      {paying ? <PayToCustomerDialog customerId={customerId} accounts={accounts} onClose={() => setPaying(false)} /> : null}
    </>
  );
}
