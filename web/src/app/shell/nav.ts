import type { Screen } from "../routes";

export type NavGroup = {
  group: "overview" | "payments" | "people" | "commerce" | "account" | "developers" | "settings";
  // Who sees an item is its route's `section` (routes.json).
  items: { path: string; screen: Screen }[];
};

export const NAV: NavGroup[] = [
  {
    group: "overview",
    items: [
      { path: "/", screen: "home" },
      { path: "/insights", screen: "insights" },
    ],
  },
  {
    group: "payments",
    items: [
      { path: "/payments/one-time", screen: "oneTime" },
      { path: "/payments/recurring", screen: "recurring" },
      { path: "/payments/e-mandates", screen: "eMandates" },
      { path: "/payments/transactions", screen: "transactions" },
      { path: "/payments/pages", screen: "paymentPages" },
    ],
  },
  {
    group: "people",
    items: [
      { path: "/customers", screen: "customers" },
      { path: "/mandates", screen: "mandates" },
      { path: "/cards", screen: "cards" },
    ],
  },
  { group: "commerce", items: [{ path: "/commerce/orders", screen: "orders" }] },
  {
    group: "account",
    items: [
      { path: "/account/profile", screen: "profile" },
      { path: "/account/business-info", screen: "businessInfo" },
      { path: "/account/payouts", screen: "payouts" },
      { path: "/account/teams", screen: "teams" },
      { path: "/account/history", screen: "history" },
    ],
  },
  {
    group: "developers",
    items: [
      { path: "/developers/integrations", screen: "integrations" },
      { path: "/developers/tokens", screen: "tokens" },
      { path: "/developers/webhooks", screen: "webhooks" },
    ],
  },
  { group: "settings", items: [{ path: "/settings/payment-methods", screen: "paymentMethods" }] },
];
