import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { Navigate } from "../../components/placeLinks";
import { mustSetUpTwoFactor, useProfile, useProfileSync } from "./useProfile";

export const PROFILE_PATH = "/account/profile";

/**
 * Loads the profile for every signed-in screen and, while the team requires two-factor
 * sign-in that this user has not turned on, sends every screen but the profile there.
 */
export function TwoFactorGate({ children }: { children: ReactNode }) {
  useProfileSync();
  const profile = useProfile();
  const { pathname } = useLocation();
  if (mustSetUpTwoFactor(profile) && pathname !== PROFILE_PATH) return <Navigate replace to={PROFILE_PATH} />;
  return children;
}
