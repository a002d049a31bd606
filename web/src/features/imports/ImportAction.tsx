import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import type { PaymentKind } from "../../protocol/wire";
import { ImportDialog } from "./ImportDialog";

/** The "Import from spreadsheet" button of a payments list, with its dialog. */
export function ImportAction({ kind }: { kind: PaymentKind }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} needs="imports:write" data-testid="import-open">
        {t("imports.open")}
      </Button>
      {open ? <ImportDialog kind={kind} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}
