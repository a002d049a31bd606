import { useTranslation } from "react-i18next";
import { EditingToo } from "../../app/shell/OnThisPage";
import { Dialog } from "../../components/Dialog";
import { useLiveClient } from "../../live/context";
import { useEditingPresence } from "../../live/usePresence";
import type { Customer, CustomerInput } from "../../protocol/wire";
import { CustomerForm } from "./CustomerForm";
import { draftFrom } from "./fields";

type EditCustomerDialogProps = { customer: Customer; path: string; open: boolean; onOpenChange: (open: boolean) => void };

export function EditCustomerDialog({ customer, path, open, onOpenChange }: EditCustomerDialogProps) {
  const { t } = useTranslation();
  const client = useLiveClient();
  useEditingPresence(path, open);

  async function save(input: CustomerInput) {
    await client.command({ t: "UpdateCustomer", customerId: customer.id, input });
    onOpenChange(false);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("customers.editTitle")} closeLabel={t("common.close")} testId="edit-customer-dialog">
      <EditingToo path={path} />
      <CustomerForm initial={draftFrom(customer)} submitLabel={t("customers.save")} onSubmit={save} onCancel={() => onOpenChange(false)} />
    </Dialog>
  );
}
