import type { Mandate, MandateAction, MandateStatus } from "../../protocol/wire";

// Statuses that end a mandate for good (or never got it going): it may be archived out of view.
const ARCHIVABLE: readonly MandateStatus[] = ["rejected", "no_reply", "cancelled", "disabled", "completed"];

/** The actions that make sense for a mandate as it stands (the mandate lifecycle of DOMAIN.md). */
export function mandateActions(mandate: Mandate): MandateAction[] {
  // An archived mandate is frozen until restored.
  if (mandate.archived) return ["restore"];
  const actions: MandateAction[] = [];
  if (mandate.status === "no_reply") actions.push("resend_authentication");
  if (mandate.status === "active") actions.push("suspend");
  if (mandate.status === "suspended") actions.push("resume");
  if (mandate.status === "active" || mandate.status === "suspended") actions.push("cancel");
  if (ARCHIVABLE.includes(mandate.status)) actions.push("archive");
  return actions;
}
