import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import type { Place } from "../../live/place";
import { switchedAddress } from "../placeSteps";

/**
 * Opens another business or mode by going to its address (a new history entry, so the back
 * button returns): the address is where the tab is, and the socket follows it.
 */
export function useSwitchPlace(): (place: Place) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback((place: Place) => void navigate(switchedAddress(pathname, place)), [navigate, pathname]);
}
