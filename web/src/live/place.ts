import type { Mode } from "../protocol/wire";

/**
 * Where a tab is: which business (merchant) and which data, live or test. It is part of
 * the address (`?business=mer_…&mode=test`) so a reload, a new tab, the back button and
 * a shared link all open where they were meant to. Either half may be unknown: a bare
 * path names neither, and before the first Welcome the server has not chosen a merchant.
 */
export type Place = { merchantId?: string; mode?: Mode };

export const BUSINESS_PARAM = "business";
export const MODE_PARAM = "mode";

// What an id may look like in an address; anything else is not a business anyone is on.
const MERCHANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

function modeFrom(value: string | null): Mode | undefined {
  return value === "live" || value === "test" ? value : undefined;
}

/** The place an address's search names (nothing it cannot mean is taken). */
export function placeIn(search: string | URLSearchParams): Place {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const business = params.get(BUSINESS_PARAM);
  return {
    merchantId: business && MERCHANT_ID.test(business) ? business : undefined,
    mode: modeFrom(params.get(MODE_PARAM)),
  };
}

export function isComplete(place: Place): place is Required<Place> {
  return place.merchantId !== undefined && place.mode !== undefined;
}

/** Whether an address naming `named` may show `current`: each half it names is current's. */
export function addressFits(named: Place, current: Place): boolean {
  return (named.merchantId === undefined || named.merchantId === current.merchantId) && (named.mode === undefined || named.mode === current.mode);
}

export function samePlace(a: Place, b: Place): boolean {
  return a.merchantId === b.merchantId && a.mode === b.mode;
}

/** What `wanted` names of its own, with the rest taken from `current`. */
export function fillPlace(wanted: Place, current: Place): Place {
  return { merchantId: wanted.merchantId ?? current.merchantId, mode: wanted.mode ?? current.mode };
}

/** `params` naming `place` (each known half set), everything else as it was. */
export function withPlaceParams(params: URLSearchParams, place: Place): URLSearchParams {
  const next = new URLSearchParams(params);
  if (place.merchantId) next.set(BUSINESS_PARAM, place.merchantId);
  if (place.mode) next.set(MODE_PARAM, place.mode);
  return next;
}

/** `params` without the place: what a screen keeps of its own in the address. */
export function withoutPlaceParams(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(BUSINESS_PARAM);
  next.delete(MODE_PARAM);
  return next;
}

/**
 * An in-app address (`/customers/cus_1?status=x#top`, relative ones too) that keeps the
 * place: a half the address names already is left as it is, so a link may lead elsewhere
 * on purpose ("Open in test mode").
 */
export function hrefWithPlace(to: string, place: Place): string {
  const hashAt = to.indexOf("#");
  const hash = hashAt >= 0 ? to.slice(hashAt) : "";
  const beforeHash = hashAt >= 0 ? to.slice(0, hashAt) : to;
  const queryAt = beforeHash.indexOf("?");
  const path = queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash;
  const params = new URLSearchParams(queryAt >= 0 ? beforeHash.slice(queryAt + 1) : "");
  const search = withPlaceParams(params, fillPlace(placeIn(params), place)).toString();
  return `${path}${search ? `?${search}` : ""}${hash}`;
}
