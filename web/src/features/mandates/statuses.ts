import type { MandateStatus, PaymentMethod } from "../../protocol/wire";

export const MANDATE_STATUSES: readonly MandateStatus[] = [
  "draft",
  "pending_authentication",
  "active",
  "rejected",
  "no_reply",
  "suspended",
  "cancelled",
  "disabled",
  "completed",
];

// Mandates are for debit orders only.
export const MANDATE_METHODS: readonly PaymentMethod[] = ["debicheck", "registered_mandate", "eft_debit_order"];

// What an e-mandate request can be waiting on or have ended in.
export const E_MANDATE_STATUSES: readonly MandateStatus[] = ["pending_authentication", "active", "rejected", "no_reply", "cancelled"];
