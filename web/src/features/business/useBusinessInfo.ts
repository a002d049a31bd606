import { useAtomValue } from "jotai";
import { identityAtom } from "../../live/atoms";
import { businessInfoAtom, twoFactorRequiredAtom } from "../../live/cache";
import { useRecord } from "../../live/useRecord";
import type { BusinessInfo, ErrorCode } from "../../protocol/wire";

export type BusinessInfoView =
  | { state: "loading" }
  | { state: "ready"; info: BusinessInfo; twoFactorRequired: boolean }
  | { state: "error"; code: ErrorCode };

/** The open merchant's business info from the cache: fetched on open and after a resync; deltas keep it current. */
export function useBusinessInfo(): BusinessInfoView {
  const merchant = useAtomValue(identityAtom)?.merchant.id ?? "";
  const view = useRecord(businessInfoAtom, { t: "GetBusinessInfo" }, merchant, "business_info");
  const required = useAtomValue(twoFactorRequiredAtom);
  if (view.state !== "ready") return view;
  return { state: "ready", info: view.record, twoFactorRequired: required ?? false };
}
