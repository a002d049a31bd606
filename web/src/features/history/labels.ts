import type { i18n as I18n, TFunction } from "i18next";
import type { HistoryEntry } from "../../protocol/wire";
import type { Translate } from "./fieldLabels";
import { isRecordKind } from "./historyView";

/** Who made the entry, in words: the member's name, or what acted (the scheduler, a payer, ...). */
export function whoLabel(entry: HistoryEntry, t: TFunction): string {
  if (entry.actorKind === "user") return entry.actorName ?? t("accountHistory.actor.user");
  return t(`accountHistory.actor.${entry.actorKind}`);
}

export function recordLabel(entry: HistoryEntry, t: TFunction): string {
  return isRecordKind(entry.recordKind) ? t(`accountHistory.record.${entry.recordKind}`) : entry.recordKind;
}

/** What the entry page calls the record's name: a token's name, an endpoint's URL, else a name. */
export function recordNameLabel(entry: HistoryEntry, t: TFunction, translate: Translate): string {
  const own = isRecordKind(entry.recordKind) ? translate(`accountHistory.detail.recordNames.${entry.recordKind}`) : undefined;
  return own ?? t("accountHistory.detail.recordName");
}

// One-per-stream records (settings, rules, the business date) have their kind for an id, and an
// account's entries are about the person already named: neither id means anything to a person.
const NO_SHOWN_ID: ReadonlySet<string> = new Set(["business_info", "payment_method_settings", "payout_settings", "two_factor_policy", "business_clock", "account"]);

/** The record's id where it helps a person find the record (`cus_…`), else undefined. */
export function shownRecordId(entry: HistoryEntry): string | undefined {
  const id = entry.recordId;
  return id && id !== entry.recordKind && !NO_SHOWN_ID.has(entry.recordKind) ? id : undefined;
}

export function actionLabel(entry: HistoryEntry, t: TFunction): string {
  return t(`accountHistory.action.${entry.action}`);
}

/** Whether the list names the fields an entry changed: a new record's every field is new. */
export function namesFields(entry: HistoryEntry): boolean {
  return entry.action === "updated" || entry.action === "revoked";
}

/**
 * Looks words up by keys made from what the server sent (field names, enum codes), which the
 * typed `t` cannot take: a key the language lacks, or one that names a group of words rather
 * than one text, is undefined, for the caller to fall back on what was sent.
 */
export function translatorOf(i18n: I18n): Translate {
  return (key) => {
    const text: unknown = i18n.getResource(i18n.language, "translation", key);
    return typeof text === "string" ? text : undefined;
  };
}
