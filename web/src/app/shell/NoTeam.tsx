import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { useSignOut } from "./useSignOut";

/** In place of every screen once the user belongs to no merchant's team: nothing of one may show. */
export function NoTeam() {
  const { t } = useTranslation();
  const { busy, leave } = useSignOut();
  return (
    <EmptyState
      testId="no-team"
      title={t("app.noTeam.title")}
      body={t("app.noTeam.body")}
      action={
        <Button variant="primary" onClick={() => void leave()} busy={busy} data-testid="no-team-sign-out">
          {busy ? t("header.signingOut") : t("header.signOut")}
        </Button>
      }
    />
  );
}
