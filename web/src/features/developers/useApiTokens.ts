import { useAtomValue } from "jotai";
import { useEffect, useState } from "react";
import { entityVersionAtom, listVersionAtom } from "../../live/cache";
import { LiveError } from "../../live/client";
import { useLiveClient } from "../../live/context";
import type { ApiToken, ErrorCode } from "../../protocol/wire";

export type TokensState = { tokens: ApiToken[]; error?: ErrorCode; loaded: boolean };

/** The mode's API tokens, read again when any tab makes, rolls or revokes one. */
export function useApiTokens(): TokensState {
  const client = useLiveClient();
  const version = useAtomValue(listVersionAtom).api_token;
  const entities = useAtomValue(entityVersionAtom);
  const [state, setState] = useState<TokensState>({ tokens: [], loaded: false });
  useEffect(() => {
    let current = true;
    client.query({ t: "ListApiTokens" }).then(
      (body) => {
        if (current && body.t === "ApiTokens") setState({ tokens: body.tokens, loaded: true });
      },
      (error: unknown) => {
        if (current) setState((before) => ({ ...before, error: error instanceof LiveError ? error.wire.code : "internal", loaded: true }));
      },
    );
    return () => {
      current = false;
    };
  }, [client, version, entities]);
  return state;
}
