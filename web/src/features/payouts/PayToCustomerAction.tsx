import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import type { BankAccount } from "../../protocol/wire";
import { PayToCustomerDialog } from "./PayToCustomerDialog";

/** "Pay to customer" beside a customer's bank accounts: refused to a role that reads payouts only. */
export function PayToCustomerAction({ customerId, accounts }: { customerId: string; accounts: BankAccount[] }) {
  const { t } = useTranslation();
  const [paying, setPaying] = useState(false);
  return (
    <>
      <Button className="btn-sm" onClick={() => setPaying(true)} needs="payouts:write" data-testid="pay-to-customer">
        {t("payouts.toCustomerDialog.open")}
      </Button>
      {paying ? <PayToCustomerDialog customerId={customerId} accounts={accounts} onClose={() => setPaying(false)} /> : null}
    </>
  );
}
