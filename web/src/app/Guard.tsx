import { useAtomValue } from "jotai";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { Navigate } from "../components/placeLinks";
import { PageSpinner } from "../components/Spinner";
import { loginPathFor, safeRedirect } from "../features/auth/redirect";
import { sessionAtom } from "../features/auth/session";
import type { Access } from "./routes";

export function Guard({ access, children }: { access: Access; children: ReactNode }) {
  const { t } = useTranslation();
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  const [params] = useSearchParams();

  if (access === "open") return children;
  if (session.status === "loading") return <PageSpinner label={t("app.loading")} />;
  if (access === "protected" && session.status === "unauthenticated") {
    const to = session.signedOut ? "/auth/login" : loginPathFor(location.pathname, location.search);
    return <Navigate replace to={to} />;
  }
  if (access === "guest" && session.status === "authenticated") {
    return <Navigate replace to={safeRedirect(params.get("redirect"))} />;
  }
  return children;
}
