import { useLiveQuery } from "../../live/useLiveQuery";
import type { ErrorCode, ReplyBody, Role, Team } from "../../protocol/wire";

export type LoadedTeam = { team: Team } | { error: ErrorCode } | null;

const pickTeam = (reply: ReplyBody) => (reply.t === "Team" ? reply.team : undefined);

/** The merchant's team, read again whenever a member or invite changes. */
export function useTeam(): LoadedTeam {
  const view = useLiveQuery({ t: "GetTeam" }, { pick: pickTeam, follows: ["team"] });
  if (view.state === "ready") return { team: view.value };
  return view.state === "error" ? { error: view.code } : null;
}

/** The roles one may give: every preset but the owner (ownership is handed on, never granted). */
export const GRANTABLE: Role[] = ["admin", "operations", "finance", "developer", "support", "viewer"];
