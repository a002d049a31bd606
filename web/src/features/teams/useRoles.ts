import { useLiveQuery } from "../../live/useLiveQuery";
import type { ErrorCode, Invite, Member, Permissions, ReplyBody, Role, RoleList } from "../../protocol/wire";
import { GRANTABLE } from "./useTeam";

export type LoadedRoles = { roles: RoleList } | { error: ErrorCode } | null;

const pickRoles = (reply: ReplyBody) => (reply.t === "Roles" ? reply.roles : undefined);

/** The presets and the merchant's own roles, read again whenever a role, member or invite changes. */
export function useRoles(): LoadedRoles {
  const view = useLiveQuery({ t: "ListRoles" }, { pick: pickRoles, follows: ["team"] });
  if (view.state === "ready") return { roles: view.value };
  return view.state === "error" ? { error: view.code } : null;
}

/** A role as a picker holds it: a preset's name, or `custom:` and the custom role's id. */
export type RoleChoice = string;

export function choiceOf(holder: Pick<Member, "role" | "roleId"> | Pick<Invite, "role" | "roleId">): RoleChoice {
  return holder.role === "custom" && holder.roleId ? `custom:${holder.roleId}` : holder.role;
}

/** The command fields for a choice. */
export function roleOfChoice(choice: RoleChoice): { role: Role; roleId?: string } {
  return choice.startsWith("custom:") ? { role: "custom", roleId: choice.slice("custom:".length) } : { role: choice as Role };
}

/** What a choice grants, when it is known. */
export function grantsOfChoice(roles: RoleList | undefined, choice: RoleChoice): Permissions | undefined {
  const { role, roleId } = roleOfChoice(choice);
  if (roleId) return roles?.custom.find((r) => r.id === roleId)?.grants;
  return roles?.presets.find((p) => p.role === role)?.grants;
}

/** The roles one may give: the presets but the owner's, then the merchant's own. */
export function roleOptions(roles: RoleList | undefined, presetLabel: (role: Role) => string): { value: RoleChoice; label: string }[] {
  const presets = GRANTABLE.map((role) => ({ value: role as RoleChoice, label: presetLabel(role) }));
  const custom = (roles?.custom ?? []).map((r) => ({ value: `custom:${r.id}`, label: r.name }));
  return [...presets, ...custom];
}
