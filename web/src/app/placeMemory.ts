import { placeIn, withPlaceParams, type Place } from "../live/place";

// Per tab (session storage): an address that names no place (typed by hand, or an old
// bookmark) opens where this tab last was, so a reload of such an address keeps the
// business and the mode. Another tab has its own, so two tabs may show two businesses.
const KEY = "paydesk.place";

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

export function rememberedPlace(storage: Storage | undefined): Place {
  try {
    // Kept in the address's own form, so it is read by the same rules as an address.
    return placeIn(storage?.getItem(KEY) ?? "");
  } catch {
    // Storage can be switched off; the tab then opens where the server chooses.
    return {};
  }
}

export function rememberPlace(storage: Storage | undefined, place: Required<Place>): void {
  try {
    storage?.setItem(KEY, withPlaceParams(new URLSearchParams(), place).toString());
  } catch {
    // As above: nothing to remember with.
  }
}
