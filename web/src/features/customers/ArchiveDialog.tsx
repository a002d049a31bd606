import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { Customer, ErrorCode } from "../../protocol/wire";

type ArchiveDialogProps = { customer: Customer; open: boolean; onOpenChange: (open: boolean) => void };

export function ArchiveDialog({ customer, open, onOpenChange }: ArchiveDialogProps) {
  const { t } = useTranslation();
  const client = useLiveClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorCode | null>(null);

  async function archive() {
    setBusy(true);
    setError(null);
    try {
      await client.command({ t: "ArchiveCustomer", customerId: customer.id });
      onOpenChange(false);
    } catch (failure) {
      setError(failure instanceof LiveError ? failure.wire.code : "internal");
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
    >
      {error ? <Alert>{t(`errors.${error}`)}</Alert> : null}
      <div className="form-actions">
        <Button onClick={() => onOpenChange(false)} disabled={busy}>
          {t("customers.cancel")}
        </Button>
        <Button variant="danger" onClick={archive} busy={busy} data-testid="confirm-archive">
          {t("customers.archive")}
        </Button>
      </div>
    </Dialog>
  );
}
