import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { entityVersionAtom, teamVersionAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { ErrorCode, Role, Team } from "../../protocol/wire";

export type LoadedTeam = { team: Team } | { error: ErrorCode } | null;

/** The merchant's team, read again whenever a member or invite changes. */
export function useTeam(): LoadedTeam {
  const client = useLiveClient();
  const version = useAtomValue(teamVersionAtom);
  const everything = useAtomValue(entityVersionAtom);
  const [loaded, setLoaded] = useState<LoadedTeam>(null);
  useEffect(() => {
    let current = true;
    client.query({ t: "GetTeam" }).then(
      (reply) => {
        if (current) setLoaded(reply.t === "Team" ? { team: reply.team } : { error: "internal" });
      },
      (error: unknown) => {
        if (current) setLoaded({ error: error instanceof LiveError ? error.wire.code : "internal" });
      },
    );
    return () => {
      current = false;
    };
  }, [client, version, everything]);
  return loaded;
}

/** The roles one may give: every preset but the owner (ownership is handed on, never granted). */
export const GRANTABLE: Role[] = ["admin", "operations", "finance", "developer", "support", "viewer"];
