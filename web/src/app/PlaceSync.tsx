import { useAtomValue, useStore } from "jotai";
import { useEffect, useRef } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { placeAtom, placeVisitAtom } from "../live/atoms";
import { useLiveClient } from "../live/context";
import { addressFits, placeIn } from "../live/place";
import { nextPlaceStep } from "./placeSteps";

/**
 * Keeps the address and the business and mode the tab shows together: an address that
 * names a place opens it, and the address is brought up to date when the tab is
 * somewhere it does not say (see `nextPlaceStep`).
 */
export function PlaceSync() {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const client = useLiveClient();
  const store = useStore();
  const place = useAtomValue(placeAtom);
  const lastAddress = useRef<string | null>(null);

  useEffect(() => {
    const address = `${pathname}${search}`;
    const addressChanged = lastAddress.current !== address;
    lastAddress.current = address;
    // Read from the store, not the render: an `open` a moment ago has moved it already.
    const step = nextPlaceStep({ pathname, search, hash }, addressChanged, store.get(placeAtom));
    if (step.t === "open") client.switchTo(step.place);
    if (step.t === "rewrite") void navigate(step.to, { replace: true });
  }, [pathname, search, hash, place, client, store, navigate]);

  return null;
}

/**
 * The screen, mounted afresh in each place the tab visits: what a screen keeps of its own
 * goes with the business or mode it was of, at the moment the tab leaves it. While the
 * address names another place than the tab's (moved off a business, until the address
 * follows) there is no screen: it would ask for the address's records in the wrong place.
 */
export function PlaceOutlet() {
  const visit = useAtomValue(placeVisitAtom);
  const place = useAtomValue(placeAtom);
  const { search } = useLocation();
  if (!addressFits(placeIn(search), place)) return null;
  return <Outlet key={visit} />;
}
