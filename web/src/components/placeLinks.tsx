import { useAtomValue, useStore } from "jotai";
import { useCallback } from "react";
import {
  Link as RouterLink,
  Navigate as RouterNavigate,
  NavLink as RouterNavLink,
  useNavigate as useRouterNavigate,
  type LinkProps,
  type NavigateOptions,
  type NavigateProps,
  type NavLinkProps,
  type To,
} from "react-router";
import { routeAt } from "../app/routes";
import { placeAtom } from "../live/atoms";
import { fillPlace, hrefWithPlace, placeIn, withPlaceParams, type Place } from "../live/place";

// The app's links, as react-router's, except that an address inside the signed-in app keeps
// the business and mode the tab is in: opened in a new tab, copied or bookmarked, it shows
// what it showed here. A link that names a place of its own keeps that one.

// Sign-in pages and the other public ones belong to no business.
function belongsToPlace(pathname: string | undefined): boolean {
  if (pathname === undefined || !pathname.startsWith("/")) return true;
  return routeAt(pathname)?.access === "protected";
}

export function toWithPlace(to: To, place: Place): To {
  if (typeof to === "string") {
    return belongsToPlace(to.split(/[?#]/)[0]) ? hrefWithPlace(to, place) : to;
  }
  if (!belongsToPlace(to.pathname)) return to;
  const params = new URLSearchParams(to.search ?? "");
  const search = withPlaceParams(params, fillPlace(placeIn(params), place)).toString();
  return { ...to, search: search ? `?${search}` : "" };
}

function usePlace(): Place {
  return useAtomValue(placeAtom);
}

export function Link({ to, ...props }: LinkProps) {
  return <RouterLink to={toWithPlace(to, usePlace())} {...props} />;
}

export function NavLink({ to, ...props }: NavLinkProps) {
  return <RouterNavLink to={toWithPlace(to, usePlace())} {...props} />;
}

export function Navigate({ to, ...props }: NavigateProps) {
  return <RouterNavigate to={toWithPlace(to, usePlace())} {...props} />;
}

/** react-router's `navigate`, keeping the place on every address it goes to (steps back and forth go as they are). */
export function useNavigate(): (to: To | number, options?: NavigateOptions) => void | Promise<void> {
  const navigate = useRouterNavigate();
  const store = useStore();
  // The place is read when called, so the function stays the same one (as react-router's
  // does) for effects that depend on it.
  return useCallback(
    (to: To | number, options?: NavigateOptions) =>
      typeof to === "number" ? navigate(to) : navigate(toWithPlace(to, store.get(placeAtom)), options),
    [navigate, store],
  );
}
