import type { TFunction } from "i18next";
import type { HistoryEntry } from "../../protocol/wire";
import { isRecordKind } from "./historyView";

/** Who made the entry, in words: the member's name, or what acted (the scheduler, a payer, ...). */
export function whoLabel(entry: HistoryEntry, t: TFunction): string {
  if (entry.actorKind === "user") return entry.actorName ?? t("accountHistory.actor.user");
  return t(`accountHistory.actor.${entry.actorKind}`);
}

export function recordLabel(entry: HistoryEntry, t: TFunction): string {
  return isRecordKind(entry.recordKind) ? t(`accountHistory.record.${entry.recordKind}`) : entry.recordKind;
}

export function actionLabel(entry: HistoryEntry, t: TFunction): string {
  return t(`accountHistory.action.${entry.action}`);
}
