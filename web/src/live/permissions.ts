import { useAtomValue } from "jotai";
import type { Access, Permissions, Section } from "../protocol/wire";
import { identityAtom } from "./atoms";

const RANK: Record<Access, number> = { none: 0, read: 1, write: 2 };

// The wire's section names are snake_case; the matrix's fields are camelCase.
const FIELD: Record<Section, keyof Permissions> = {
  customers: "customers",
  mandates: "mandates",
  payments: "payments",
  imports: "imports",
  pay_pages: "payPages",
  transactions: "transactions",
  orders: "orders",
  refunds: "refunds",
  exports: "exports",
  payouts: "payouts",
  insights: "insights",
  developers: "developers",
  team: "team",
  history: "history",
  settings: "settings",
};

/** The matrix's sections, in the order roles and tokens list them. */
export const MATRIX_SECTIONS: readonly (keyof Permissions)[] = Object.values(FIELD);

/** The accesses a member may hand out on a section: none up to their own (the server refuses more). */
export function accessChoices(own: Access): Access[] {
  return (["none", "read", "write"] as const).filter((access) => RANK[access] <= RANK[own]);
}

/** A matrix that grants nothing. */
export function noAccess(): Permissions {
  return everySection("none");
}

/** Every section at the same access (an owner's matrix is all "write"). */
export function everySection(access: Access): Permissions {
  const entries = Object.values(FIELD).map((field) => [field, access]);
  return Object.fromEntries(entries) as Permissions;
}

/** Whether `permissions` grants at least `access` on `section`. The server decides; this only hides. */
export function can(permissions: Permissions | undefined, section: Section, access: Access): boolean {
  if (!permissions) return false;
  return RANK[permissions[FIELD[section]]] >= RANK[access];
}

/** Whether the signed-in member may do `access` on `section` of the merchant they are looking at. */
export function useCan(section: Section, access: Access = "read"): boolean {
  const identity = useAtomValue(identityAtom);
  return can(identity?.merchant.permissions, section, access);
}
