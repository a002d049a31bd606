import type { TFunction } from "i18next";
import { useAtomValue } from "jotai";
import { createContext, useContext } from "react";
import { useTranslation } from "react-i18next";
import { parseNeed, refusalOf, type Need, type Refusal } from "../live/access";
import { identityAtom } from "../live/atoms";
import type { ErrorCode, MerchantView } from "../protocol/wire";

/** Whether the member may use a control, and if not, why in their words. */
export type May = { allowed: true; reason?: undefined; unseen?: undefined } | { allowed: false; reason: string; unseen: boolean };

/** The role's name as the team page shows it: a custom role by its own name. */
export function roleLabel(merchant: MerchantView | undefined, t: TFunction): string {
  if (!merchant) return "";
  return merchant.roleName ?? t(`teams.roles.${merchant.role}`);
}

/** Why the control is refused, in a sentence that names the role and what it lacks. */
export function refusalText(refusal: Refusal, role: string, t: TFunction): string {
  if (refusal.t === "owner") return t("access.ownersOnly", { role });
  const what = t(`access.what.${refusal.section}`);
  return refusal.access === "write" ? t("access.cannotChange", { role, what }) : t("access.cannotSee", { role, what });
}

/** Whether the signed-in member may use a control needing `need` (none: anyone may). */
export function useMay(need: Need | undefined): May {
  const { t } = useTranslation();
  const merchant = useAtomValue(identityAtom)?.merchant;
  if (!need) return { allowed: true };
  const refusal = refusalOf(merchant, need);
  if (!refusal) return { allowed: true };
  // A section the role cannot even read is not theirs at all: its actions are not offered elsewhere either.
  const unseen = refusal.t === "section" && refusalOf(merchant, `${refusal.section}:read`) !== null;
  return { allowed: false, reason: refusalText(refusal, roleLabel(merchant, t), t), unseen };
}

/** What the form or dialog around a control needs: a refusal inside it can then say what was refused. */
export const NeedContext = createContext<Need | undefined>(undefined);

/**
 * Turns a command's error code into its message. A refusal by role (`forbidden`,
 * `owners_only`) names the member's role and, where the form says what it needs, the section.
 */
export function useErrorText(need?: Need): (code: ErrorCode) => string {
  const { t } = useTranslation();
  const merchant = useAtomValue(identityAtom)?.merchant;
  const around = useContext(NeedContext);
  return (code) => refusedText(code, need ?? around, roleLabel(merchant, t), t) ?? t(`errors.${code}`);
}

/** The message of a refusal by role, or null for any other error. */
export function refusedText(code: ErrorCode, need: Need | undefined, role: string, t: TFunction): string | null {
  if (code !== "forbidden" && code !== "owners_only") return null;
  const wanted = need ? parseNeed(need) : undefined;
  if (code === "owners_only" || wanted?.t === "owner") return t("access.refused.owner", { role });
  if (!wanted) return t("access.refused.general", { role });
  return t("access.refused.section", { role, what: t(`access.what.${wanted.section}`) });
}
