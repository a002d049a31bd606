import type { Mode } from "../protocol/wire";

// Per tab: a reload keeps showing the data (live or test) the tab showed, as the
// well-known gateways' test mode does; another tab starts on live data.
const KEY = "paydesk.mode";

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

export function rememberedMode(storage: Storage | undefined): Mode | undefined {
  try {
    const value = storage?.getItem(KEY);
    return value === "test" || value === "live" ? value : undefined;
  } catch {
    // Storage can be switched off; the tab then starts on live data.
    return undefined;
  }
}

export function rememberMode(storage: Storage | undefined, mode: Mode): void {
  try {
    storage?.setItem(KEY, mode);
  } catch {
    // As above: nothing to remember with.
  }
}
