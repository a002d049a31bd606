import { useTranslation } from "react-i18next";
import { useNavigate } from "../../components/placeLinks";
import { Dialog } from "../../components/Dialog";
import { useLiveClient } from "../../live/context";
import type { CustomerInput } from "../../protocol/wire";
import { CustomerForm } from "./CustomerForm";
import { EMPTY_DRAFT } from "./fields";

export function CreateCustomerDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const client = useLiveClient();
  const navigate = useNavigate();

  async function create(input: CustomerInput) {
    const reply = await client.command({ t: "CreateCustomer", input });
    onOpenChange(false);
    if (reply.t === "Committed" && reply.id) navigate(`/customers/${reply.id}`);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("customers.createTitle")} closeLabel={t("common.close")} testId="create-customer-dialog" needs="customers:write">
      <CustomerForm initial={EMPTY_DRAFT} submitLabel={t("customers.create")} onSubmit={create} onCancel={() => onOpenChange(false)} />
    </Dialog>
  );
}
