import type { Section } from "../../protocol/wire";
import type { Screen } from "../routes";

export type NavGroup = {
  group: "overview" | "payments" | "people" | "commerce" | "account" | "developers" | "settings";
  // `section`: the member needs read access to it to see the item (none: everyone does).
  items: { path: string; screen: Screen; section?: Section }[];
};

export const NAV: NavGroup[] = [
  {
    group: "overview",
    items: [
      { path: "/", screen: "home" },
      { path: "/insights", screen: "insights", section: "insights" },
    ],
  },
  {
    group: "payments",
    items: [
      { path: "/payments/one-time", screen: "oneTime", section: "payments" },
      { path: "/payments/recurring", screen: "recurring", section: "payments" },
      { path: "/payments/e-mandates", screen: "eMandates", section: "mandates" },
      { path: "/payments/transactions", screen: "transactions", section: "transactions" },
      { path: "/payments/pages", screen: "paymentPages", section: "pay_pages" },
    ],
  },
  {
    group: "people",
    items: [
      { path: "/customers", screen: "customers", section: "customers" },
      { path: "/mandates", screen: "mandates", section: "mandates" },
      { path: "/cards", screen: "cards", section: "customers" },
    ],
  },
  { group: "commerce", items: [{ path: "/commerce/orders", screen: "orders", section: "orders" }] },
  {
    group: "account",
    items: [
      { path: "/account/profile", screen: "profile" },
      { path: "/account/business-info", screen: "businessInfo", section: "settings" },
      { path: "/account/payouts", screen: "payouts", section: "payouts" },
      { path: "/account/teams", screen: "teams", section: "team" },
      { path: "/account/history", screen: "history", section: "history" },
    ],
  },
  {
    group: "developers",
    items: [
      { path: "/developers/integrations", screen: "integrations", section: "developers" },
      { path: "/developers/tokens", screen: "tokens", section: "developers" },
      { path: "/developers/webhooks", screen: "webhooks", section: "developers" },
    ],
  },
  { group: "settings", items: [{ path: "/settings/payment-methods", screen: "paymentMethods", section: "settings" }] },
];
