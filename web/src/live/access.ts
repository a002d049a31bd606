import type { Command, MerchantView, Section, UnpaidAction } from "../protocol/wire";
import { can } from "./permissions";

/**
 * What a control needs of the member: write access to a section ("payments:write"), read
 * access ("exports:read"), or the owner's own right ("owner"). Controls carry it as
 * `data-needs`, so a test can check every enabled control against the member's role.
 */
export type Need = `${Section}:${"read" | "write"}` | "owner";

/** Why a member may not use a control: their role lacks the section's access, or is not the owner. */
export type Refusal = { t: "section"; section: Section; access: "read" | "write" } | { t: "owner" };

export function parseNeed(need: Need): Refusal {
  if (need === "owner") return { t: "owner" };
  const [section, access] = need.split(":") as [Section, "read" | "write"];
  return { t: "section", section, access };
}

/** Why `merchant` (the member's standing on it) refuses `need`, or null when it allows it. */
export function refusalOf(merchant: MerchantView | undefined, need: Need): Refusal | null {
  const wanted = parseNeed(need);
  if (!merchant) return wanted;
  if (wanted.t === "owner") return merchant.role === "owner" ? null : wanted;
  return can(merchant.permissions, wanted.section, wanted.access) ? null : wanted;
}

/** What a change of the member's standing on a merchant means for the screens they have open. */
export type AccessChange = { t: "role"; merchant: MerchantView } | { t: "grants"; merchant: MerchantView };

/**
 * The change between two views of the same merchant, or null when nothing the screens follow
 * changed. A new role is told by name; the same custom role with a new matrix is told as such.
 */
export function accessChange(before: MerchantView, after: MerchantView): AccessChange | null {
  if (before.id !== after.id) return null;
  if (before.role !== after.role || before.roleName !== after.roleName) return { t: "role", merchant: after };
  const same = Object.keys(after.permissions).every(
    (section) => before.permissions[section as keyof MerchantView["permissions"]] === after.permissions[section as keyof MerchantView["permissions"]],
  );
  return same ? null : { t: "grants", merchant: after };
}

/** A command about the signed-in person's own account: whatever their role, they may send it. */
export type OwnAccount = "own_account";

// What each command needs, as the server's routing table (backend domain/routes.rs) says;
// a command added to the protocol does not compile until it is listed here.
const COMMAND_NEEDS: Record<Command["t"], Need | OwnAccount> = {
  UpdateProfile: "own_account",
  SetLanguage: "own_account",
  ChangePassword: "own_account",
  ChangeEmail: "own_account",
  ResendVerification: "own_account",
  BeginTwoFactor: "own_account",
  ConfirmTwoFactor: "own_account",
  DisableTwoFactor: "own_account",
  RegenerateBackupCodes: "own_account",
  SignOutSession: "own_account",
  SignOutOtherSessions: "own_account",
  BeginImport: "imports:write",
  UploadImportChunk: "imports:write",
  CheckImport: "imports:write",
  ConfirmImport: "imports:write",
  DiscardImport: "imports:write",
  CreatePayment: "payments:write",
  ActOnPayment: "payments:write",
  // Presenting again or mailing the payer; a pay link and a new mandate differ (see `commandNeed`).
  ActOnUnpaid: "payments:write",
  ActOnMandate: "mandates:write",
  AdvanceTestClock: "payments:write",
  CreateCustomer: "customers:write",
  UpdateCustomer: "customers:write",
  ArchiveCustomer: "customers:write",
  RestoreCustomer: "customers:write",
  AddBankAccount: "customers:write",
  RemoveBankAccount: "customers:write",
  RemoveCard: "customers:write",
  ChargeCard: "payments:write",
  StopCardSchedule: "payments:write",
  ScheduleCard: "payments:write",
  UpdateBusinessInfo: "settings:write",
  UpdatePaymentMethodSettings: "settings:write",
  RequireTwoFactor: "owner",
  CreatePayPage: "pay_pages:write",
  UpdatePayPage: "pay_pages:write",
  SetPayPageActive: "pay_pages:write",
  SetPayPageLogo: "pay_pages:write",
  // Cancelling an order; a refund needs the refunds section (see `commandNeed`).
  ActOnOrder: "orders:write",
  RequestEMandate: "mandates:write",
  ResendEMandateRequest: "mandates:write",
  CancelEMandateRequest: "mandates:write",
  CreateWebhookEndpoint: "developers:write",
  UpdateWebhookEndpoint: "developers:write",
  RollWebhookSecret: "developers:write",
  ResendWebhookDeliveries: "developers:write",
  SendTestWebhookEvent: "developers:write",
  DeleteWebhookEndpoint: "developers:write",
  CreateApiToken: "developers:write",
  RollApiToken: "developers:write",
  RevokeApiToken: "developers:write",
  InviteMember: "team:write",
  ResendInvite: "team:write",
  RevokeInvite: "team:write",
  ChangeMemberRole: "team:write",
  RemoveMember: "team:write",
  CreateRole: "team:write",
  UpdateRole: "team:write",
  DeleteRole: "team:write",
  TransferOwnership: "owner",
  SetSettlementAccount: "settings:write",
  SetPayoutSchedule: "payouts:write",
  RequestPayout: "payouts:write",
  PayoutToCustomer: "payouts:write",
};

/** What each follow-up of an unpaid needs, as the server's routing table says. */
export const UNPAID_ACTION_NEEDS: Record<UnpaidAction["t"], Need> = {
  Represent: "payments:write",
  EmailPayer: "payments:write",
  SendPayLink: "pay_pages:write",
  RequestMandate: "mandates:write",
};

/** What the server asks of the member before it runs `command`. */
export function commandNeed(command: Command): Need | OwnAccount {
  if (command.t === "ActOnOrder" && command.action === "refund") return "refunds:write";
  if (command.t === "ActOnUnpaid") return UNPAID_ACTION_NEEDS[command.action.t];
  return COMMAND_NEEDS[command.t];
}

/** The needs a command of this name may have (an order's refund and cancel differ). */
export function commandNeedsByName(name: Command["t"]): (Need | OwnAccount)[] {
  if (name === "ActOnOrder") return ["orders:write", "refunds:write"];
  if (name === "ActOnUnpaid") return [...new Set(Object.values(UNPAID_ACTION_NEEDS))];
  return [COMMAND_NEEDS[name]];
}
