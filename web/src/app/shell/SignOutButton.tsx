import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { Button } from "../../components/Button";
import { useSignOut } from "./useSignOut";

/** Signs out and stays on this page, which then shows as it does to a guest (an invite's sign-in). */
export function SignOutHere({ testId }: { testId?: string }) {
  const { t } = useTranslation();
  const here = useLocation();
  const { busy, leave } = useSignOut(`${here.pathname}${here.search}`);
  return (
    <Button onClick={() => void leave()} busy={busy} data-testid={testId}>
      {busy ? t("header.signingOut") : t("header.signOut")}
    </Button>
  );
}
