import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useLiveClient } from "../../live/context";
import type { Customer } from "../../protocol/wire";

type ArchiveDialogProps = { customer: Customer; open: boolean; onOpenChange: (open: boolean) => void };

export function ArchiveDialog({ customer, open, onOpenChange }: ArchiveDialogProps) {
  const { t } = useTranslation();
  const client = useLiveClient();
  const [busy, setBusy] = useState(false);

  async function archive() {
    setBusy(true);
    try {
      await client.command({ t: "ArchiveCustomer", customerId: customer.id });
      onOpenChange(false);
    } catch {
      // The global notice says what went wrong; the dialog stays open to try again.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="sm"
      title={t("customers.archiveTitle")}
      description={t("customers.archiveBody", { name: customer.name })}
      closeLabel={t("common.close")}
      testId="archive-dialog"
      needs="customers:write"
    >
      <div className="form-actions">
        <Button onClick={() => onOpenChange(false)} disabled={busy}>
          {t("customers.cancel")}
        </Button>
        <Button variant="danger" onClick={archive} busy={busy} needs="customers:write" data-testid="confirm-archive">
          {t("customers.archive")}
        </Button>
      </div>
    </Dialog>
  );
}
