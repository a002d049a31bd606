import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import afr from "../../../../locales/afr.json";
import en from "../../../../locales/en.json";
import { formatBusinessDate, formatDateTime, formatMoney } from "../../components/format";
import type { HistoryEntry } from "../../protocol/wire";
import { changedFieldsLabel, fieldLabel, fieldOrder, fieldValueText, translatedFieldLabel, type Translate } from "./fieldLabels";
import { HISTORY_ACTIONS, RECORD_KINDS, type RecordKind } from "./historyView";
import { DATA_FIELDS, RECORD_FIELDS } from "./recordFields";

// The locale files looked up as the app does: a key names one text, or nothing.
function wordsIn(tree: object): Translate {
  return (key) => {
    let node: unknown = tree;
    for (const part of key.split(".")) {
      node = node !== null && typeof node === "object" && Object.hasOwn(node, part) ? (node as Record<string, unknown>)[part] : undefined;
    }
    return typeof node === "string" ? node : undefined;
  };
}

const LANGUAGES = [
  { language: "en", translate: wordsIn(en) },
  { language: "afr", translate: wordsIn(afr) },
];
const english = { translate: wordsIn(en), language: "en" };
const afrikaans = { translate: wordsIn(afr), language: "afr" };

// The record each kind's history rows hold, as the protocol crate generates it (the server
// records `serde_json::to_value` of exactly these types: backend/paydesk/src/store/history.rs).
const WIRE_TYPES: Partial<Record<RecordKind, string>> = {
  customer: "Customer",
  bank_account: "BankAccount",
  card: "Card",
  mandate: "Mandate",
  e_mandate_request: "EMandateRequest",
  payment: "Payment",
  transaction: "Transaction",
  import: "Import",
  pay_page: "PayPage",
  order: "Order",
  webhook_endpoint: "WebhookEndpoint",
  api_token: "ApiToken",
  member: "Member",
  invite: "Invite",
  role: "CustomRole",
  business_info: "BusinessInfo",
  payment_method_settings: "PaymentMethodSettings",
  payout: "Payout",
  payout_settings: "PayoutSettings",
};

const wire = readFileSync(resolve(import.meta.dirname, "../../protocol/wire.ts"), "utf8").replace(/\/\*\*[\s\S]*?\*\//g, "");

/** A wire object type's fields and their types, in the protocol's order. */
function wireFields(type: string): Map<string, string> {
  const body = new RegExp(`export type ${type} = \\{([^{}]*)\\};`).exec(wire)?.[1];
  if (body === undefined) throw new Error(`no object type ${type} in wire.ts`);
  return new Map([...body.matchAll(/(\w+)\??: ([^,]+),/g)].map((match) => [match[1], match[2].trim()]));
}

/** A wire string union's values, or none when the type is not one (a plain `string`). */
function wireUnion(type: string): string[] {
  const union = new RegExp(`export type ${type} = ("[^;]*);`).exec(wire)?.[1] ?? "";
  return [...union.matchAll(/"(\w+)"/g)].map((match) => match[1]);
}

function everyField(): [RecordKind, string][] {
  return RECORD_KINDS.flatMap((kind) => Object.keys(RECORD_FIELDS[kind]).map((field): [RecordKind, string] => [kind, field]));
}

describe("history record kinds", () => {
  it("list every kind the server records, each with its words in both languages", () => {
    // The server's own list (`HistoryRecordKind`, generated from the protocol crate).
    const recorded = wireUnion("HistoryRecordKind");
    expect(recorded.length).toBeGreaterThan(20);
    expect([...RECORD_KINDS].sort()).toEqual([...recorded].sort());
    for (const { language, translate } of LANGUAGES) {
      for (const kind of recorded) expect(translate(`accountHistory.record.${kind}`), `${language} ${kind}`).toBeTruthy();
      for (const action of wireUnion("HistoryAction")) expect(translate(`accountHistory.action.${action}`), `${language} ${action}`).toBeTruthy();
      for (const actor of wireUnion("HistoryActorKind")) expect(translate(`accountHistory.actor.${actor}`), `${language} ${actor}`).toBeTruthy();
    }
    expect([...HISTORY_ACTIONS].sort()).toEqual(wireUnion("HistoryAction").sort());
  });
});

describe("history field labels", () => {
  it("list every field of every record the protocol sends, and nothing else", () => {
    for (const [kind, type] of Object.entries(WIRE_TYPES)) {
      expect(Object.keys(RECORD_FIELDS[kind as RecordKind]).sort(), kind).toEqual([...wireFields(type).keys()].sort());
    }
    // The two records the server builds as objects of its own, in store/history.rs.
    expect(RECORD_FIELDS.two_factor_policy).toEqual({ required: "yesNo" });
    expect(RECORD_FIELDS.business_clock).toEqual({ today: "date" });
    expect(everyField().length).toBeGreaterThan(250);
  });

  it("label every field the protocol can send, in English and in Afrikaans", () => {
    for (const { language, translate } of LANGUAGES) {
      const missing = everyField().filter(([kind, field]) => !translatedFieldLabel(kind, field, translate));
      expect(missing, language).toEqual([]);
    }
  });

  it("keep no label for a field no record has", () => {
    const fields = new Set<string>([...everyField().map(([, field]) => field), ...DATA_FIELDS]);
    expect(Object.keys(en.accountHistory.fieldNames).filter((field) => !fields.has(field))).toEqual([]);
    for (const [kind, own] of Object.entries(en.accountHistory.recordFieldNames)) {
      for (const field of Object.keys(own)) expect(Object.hasOwn(RECORD_FIELDS[kind as RecordKind], field), `${kind}.${field}`).toBe(true);
    }
  });

  it("word every value of every enum field, in both languages", () => {
    let checked = 0;
    for (const [kind, type] of Object.entries(WIRE_TYPES)) {
      const types = wireFields(type);
      for (const [field, shown] of Object.entries(RECORD_FIELDS[kind as RecordKind])) {
        if (["text", "list", "time", "date", "money", "yesNo", "bank", "permissions", "data"].includes(shown)) continue;
        const prefix = shown.replace(/\[\]$/, "");
        const values = wireUnion((types.get(field) ?? "").replace(/^Array<(\w+)>$/, "$1"));
        for (const value of values) {
          checked += 1;
          for (const { language, translate } of LANGUAGES) expect(translate(`${prefix}.${value}`), `${language} ${kind}.${field} = ${value}`).toBeTruthy();
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("use the record's own wording where a shared name would mislead, and the raw name for a field it does not know", () => {
    expect(fieldLabel("api_token", "lastUsedAt", english.translate)).toBe("Last used");
    expect(fieldLabel("api_token", "lastUsedAt", afrikaans.translate)).toBe("Laas gebruik");
    expect(fieldLabel("business_info", "industry", english.translate)).toBe("Industry");
    expect(fieldLabel("mandate", "industry", english.translate)).toBe("Type of payment");
    expect(fieldLabel("mandate", "industry", afrikaans.translate)).toBe("Soort betaling");
    // A field dropped from the protocol since the entry was written, and names that are no field.
    expect(fieldLabel("customer", "faxNumber", english.translate)).toBe("faxNumber");
    expect(fieldLabel("customer", "constructor", english.translate)).toBe("constructor");
    expect(fieldLabel("customer", "values.yes", english.translate)).toBe("values.yes");
    expect(fieldLabel("customer", "", english.translate)).toBe("");
    // A record kind this build does not know still finds the shared label.
    expect(fieldLabel("loyalty_card", "status", afrikaans.translate)).toBe("Status");
  });

  it("name an update's changed fields by their labels", () => {
    const entry = { recordKind: "customer", fields: ["name", "addressLine1", "faxNumber"] } as HistoryEntry;
    expect(changedFieldsLabel(entry, english.translate)).toBe("Name, Address line 1, faxNumber");
    expect(changedFieldsLabel(entry, afrikaans.translate)).toBe("Naam, Adresreël 1, faxNumber");
    expect(changedFieldsLabel({ ...entry, fields: [] }, english.translate)).toBe("");
  });

  it("order fields as their record lists them, unknown ones last", () => {
    expect(fieldOrder("customer", "id")).toBe(0);
    expect(fieldOrder("customer", "name")).toBeLessThan(fieldOrder("customer", "email"));
    expect(fieldOrder("customer", "faxNumber")).toBeGreaterThan(fieldOrder("customer", "version"));
    expect(fieldOrder("loyalty_card", "id")).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("history field values", () => {
  it("word enum codes as the rest of the app does", () => {
    expect(fieldValueText("mandate", "status", '"active"', english)).toBe("Active");
    expect(fieldValueText("mandate", "status", '"active"', afrikaans)).toBe("Aktief");
    expect(fieldValueText("payment", "status", '"paused"', afrikaans)).toBe("Onderbreek");
    expect(fieldValueText("transaction", "status", '"sent_to_bank"', english)).toBe("Sent to bank");
    expect(fieldValueText("api_token", "state", '"revoked"', afrikaans)).toBe("Herroep");
    expect(fieldValueText("member", "role", '"finance"', afrikaans)).toBe("Finansies");
    expect(fieldValueText("customer", "mode", '"test"', english)).toBe("Test data");
    expect(fieldValueText("pay_page", "interval", '"annually"', english)).toBe(en.payPages.interval.annually);
    expect(fieldValueText("payout", "kind", '"customer"', afrikaans)).toBe("'n Kliënt");
    expect(fieldValueText("bank_account", "bank", '"fnb"', english)).not.toBe("fnb");
    // A list of codes, each worded; an empty list is nothing.
    expect(fieldValueText("payment_method_settings", "enabled", '["debicheck","card"]', english)).toBe(`DebiCheck, ${en.collections.method.card}`);
    expect(fieldValueText("pay_page", "methods", "[]", english)).toBe("—");
    // Codes of the API's own, such as event types, are listed as sent.
    expect(fieldValueText("webhook_endpoint", "eventTypes", '["payment.created","customer.created"]', afrikaans)).toBe("payment.created, customer.created");
    expect(fieldValueText("webhook_endpoint", "disabledReason", '"deliveries_failed"', afrikaans)).toBe("Sy aflewerings het aanhou misluk");
    expect(fieldLabel("webhook_endpoint", "enabled", english.translate)).toBe("Enabled");
    expect(fieldLabel("webhook_endpoint", "url", afrikaans.translate)).toBe("Eindpunt-URL");
  });

  it("keep a code the app has no word for as sent", () => {
    expect(fieldValueText("mandate", "status", '"on_hold"', english)).toBe("on_hold");
    expect(fieldValueText("mandate", "status", '"values.yes"', english)).toBe("values.yes");
    expect(fieldValueText("mandate", "status", "7", english)).toBe("7");
  });

  it("say yes or no in the interface language, for known fields and unknown ones", () => {
    expect(fieldValueText("customer", "archived", "true", english)).toBe("Yes");
    expect(fieldValueText("customer", "archived", "false", afrikaans)).toBe("Nee");
    expect(fieldValueText("two_factor_policy", "required", "true", afrikaans)).toBe("Ja");
    expect(fieldValueText("customer", "vip", "true", afrikaans)).toBe("Ja");
  });

  it("show money, times and business dates as the app formats them elsewhere", () => {
    expect(fieldValueText("payment", "amountCents", "12550", afrikaans)).toBe(formatMoney(12550, "afr"));
    expect(fieldValueText("payment", "amountCents", "12550", english)).toContain("125");
    expect(fieldValueText("api_token", "lastUsedAt", "1772440000000", english)).toBe(formatDateTime(1772440000000, "en"));
    expect(fieldValueText("payout_settings", "heldUntil", "1772440000000", afrikaans)).toBe(formatDateTime(1772440000000, "afr"));
    expect(fieldValueText("business_clock", "today", '"2026-03-02"', afrikaans)).toBe(formatBusinessDate("2026-03-02", "afr"));
    // A time field this build does not know still reads as a time.
    expect(fieldValueText("customer", "verifiedAt", "1772440000000", english)).toBe(formatDateTime(1772440000000, "en"));
  });

  it("say what a role or token grants in words, not as section codes", () => {
    const grants = JSON.stringify({ customers: "write", payPages: "write", history: "read", payments: "none" });
    expect(fieldValueText("role", "grants", grants, english)).toBe("Changes: Customers, Payment pages. Reads: History.");
    expect(fieldValueText("member", "permissions", grants, afrikaans)).toBe(
      `${afr.teams.rolesList.changes.replace("{{sections}}", `${afr.developers.tokens.sections.customers}, ${afr.developers.tokens.sections.payPages}`)} ${afr.teams.rolesList.reads.replace("{{sections}}", afr.developers.tokens.sections.history)}`,
    );
    expect(fieldValueText("api_token", "permissions", JSON.stringify({ customers: "none" }), english)).toBe("No access to anything.");
    expect(fieldValueText("api_token", "allowedAddresses", '["10.0.0.0/8","196.25.1.1"]', english)).toBe("10.0.0.0/8, 196.25.1.1");
  });

  it("read structured data field by field, as each field of its name reads", () => {
    const schedule = JSON.stringify({ interval: "monthly", weekday: 1, dayOfMonth: 25, minimumCents: 10_000 });
    expect(fieldValueText("payout_settings", "schedule", schedule, english)).toBe(
      `Interval: ${en.collections.interval.monthly}, Weekday: 1, Day of the month: 25, Minimum: ${formatMoney(10_000, "en")}`,
    );
    const items = JSON.stringify([{ description: "Day pass", quantity: 2, unitCents: 15_000 }]);
    expect(fieldValueText("order", "items", items, afrikaans)).toBe(`${afr.accountHistory.fieldNames.description}: Day pass, Hoeveelheid: 2, Eenheidsprys: ${formatMoney(15_000, "afr")}`);
    expect(fieldValueText("order", "refunds", "[]", english)).toBe("—");
  });

  it("leave free text as it is, and nothing as a dash", () => {
    expect(fieldValueText("customer", "name", '"Sipho \\"Sy\\" Dlamini"', english)).toBe('Sipho "Sy" Dlamini');
    expect(fieldValueText("customer", "name", '""', english)).toBe("");
    expect(fieldValueText("business_info", "industry", '"active"', afrikaans)).toBe("active");
    expect(fieldValueText("transaction", "history", '[{"status":"pending","date":"2026-03-02"},{"status":"paid","date":"2026-03-04"}]', english)).toBe(
      `Status: Pending, Date: ${formatBusinessDate("2026-03-02", "en")}; Status: Paid, Date: ${formatBusinessDate("2026-03-04", "en")}`,
    );
    expect(fieldValueText("customer", "name", undefined, english)).toBe("—");
    expect(fieldValueText("customer", "name", "null", english)).toBe("—");
    expect(fieldValueText("customer", "name", "not json", english)).toBe("not json");
    expect(fieldValueText("customer", "postalCode", '"0001"', english)).toBe("0001");
  });
});
