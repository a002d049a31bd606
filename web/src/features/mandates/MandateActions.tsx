import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { useCommand } from "../../live/useCommand";
import type { Mandate, MandateAction } from "../../protocol/wire";
import { mandateActions } from "./mandateActions";

const DANGEROUS: readonly MandateAction[] = ["cancel", "suspend"];

type MandateActionButtonsProps = { mandate: Mandate; only?: readonly MandateAction[] };

/** The mandate's actions for its status (or some of them), each behind a confirmation. */
export function MandateActionButtons({ mandate, only }: MandateActionButtonsProps) {
  const { t } = useTranslation();
  const command = useCommand();
  const [asking, setAsking] = useState<MandateAction | null>(null);
  const actions = mandateActions(mandate).filter((action) => !only || only.includes(action));

  function open(action: MandateAction) {
    command.clearError();
    setAsking(action);
  }

  async function confirm() {
    if (!asking) return;
    const reply = await command.run({ t: "ActOnMandate", mandateId: mandate.id, action: asking });
    if (reply) setAsking(null);
  }

  return (
    <>
      {actions.map((action) => (
        <Button
          key={action}
          variant={DANGEROUS.includes(action) ? "danger" : "secondary"}
          onClick={() => open(action)}
          // On a table's row the action is left out for a role that may not; the page says why.
          needs="mandates:write"
          whenRefused={only ? "hide" : "disable"}
          aria-label={only ? t(`mandates.actions.${action}.labelFor`, { name: mandate.customerName }) : undefined}
          data-testid={`mandate-${action}`}
        >
          {t(`mandates.actions.${action}.button`)}
        </Button>
      ))}
      {asking ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (open ? null : setAsking(null))}
          title={t(`mandates.actions.${asking}.title`)}
          body={t(`mandates.actions.${asking}.body`, { name: mandate.customerName })}
          confirmLabel={t(`mandates.actions.${asking}.confirm`)}
          onConfirm={confirm}
          busy={command.busy}
          error={command.error}
          variant={DANGEROUS.includes(asking) ? "danger" : "primary"}
          needs="mandates:write"
        />
      ) : null}
    </>
  );
}
