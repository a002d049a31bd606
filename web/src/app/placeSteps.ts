import { fillPlace, isComplete, placeIn, samePlace, withoutPlaceParams, withPlaceParams, type Place } from "../live/place";
import { listPathFor, routeAt } from "./routes";

export type Address = { pathname: string; search: string; hash: string };

/**
 * What keeping the address and the tab's place together takes next:
 * - `open`: the address names another place than the tab's (a link, the back button, a
 *   switch in the menu): the socket opens it;
 * - `rewrite`: the tab is somewhere the address does not say (a bare address, filled in
 *   once the server chose; or the tab was moved off a business): the address follows,
 *   replacing its history entry;
 * - `stay`: they agree, or the screen belongs to no business.
 */
export type PlaceStep = { t: "stay" } | { t: "open"; place: Place } | { t: "rewrite"; to: Address };

function search(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * `addressChanged`: the address is new since the last step (or this is the first), so it is
 * what the person asked for; otherwise only the tab's place moved (a Welcome, a removal),
 * and the address is brought up to date instead of taking the tab back.
 */
export function nextPlaceStep(address: Address, addressChanged: boolean, current: Place): PlaceStep {
  if (routeAt(address.pathname)?.access !== "protected") return { t: "stay" };
  const named = placeIn(address.search);
  if (addressChanged) {
    const wanted = fillPlace(named, current);
    if (!samePlace(wanted, current)) return { t: "open", place: wanted };
  }
  if (!isComplete(current) || samePlace(named, current)) return { t: "stay" };
  const movedAway = (named.merchantId !== undefined && named.merchantId !== current.merchantId) || (named.mode !== undefined && named.mode !== current.mode);
  if (movedAway) {
    // What the screen showed was of the place left: its list, afresh, in the place it is now.
    return { t: "rewrite", to: { pathname: listPathFor(address.pathname), search: search(withPlaceParams(new URLSearchParams(), current)), hash: "" } };
  }
  const params = withPlaceParams(withoutPlaceParams(new URLSearchParams(address.search)), current);
  return { t: "rewrite", to: { ...address, search: search(params) } };
}

/**
 * Where a switch in the menu goes: the screen's list (its own filters left behind) in
 * `place`; a half it leaves out is the one the server chooses.
 */
export function switchedAddress(pathname: string, place: Place): Address {
  return { pathname: listPathFor(pathname), search: search(withPlaceParams(new URLSearchParams(), place)), hash: "" };
}
