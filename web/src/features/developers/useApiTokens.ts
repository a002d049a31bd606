import { useLiveQuery } from "../../live/useLiveQuery";
import type { ApiToken, ErrorCode, ReplyBody } from "../../protocol/wire";

export type TokensState = { tokens: ApiToken[]; error?: ErrorCode; loaded: boolean };

const pickTokens = (reply: ReplyBody) => (reply.t === "ApiTokens" ? reply.tokens : undefined);

/** The mode's API tokens, read again when any tab makes, rolls or revokes one. */
export function useApiTokens(): TokensState {
  const view = useLiveQuery({ t: "ListApiTokens" }, { pick: pickTokens, follows: ["api_token"] });
  if (view.state === "ready") return { tokens: view.value, loaded: true };
  return { tokens: [], loaded: view.state === "error", error: view.state === "error" ? view.code : undefined };
}
