import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { EmptyState } from "../../components/EmptyState";
import { PageHeader } from "../../components/PageHeader";
import { PageSpinner } from "../../components/Spinner";
import type { Language, Profile } from "../../protocol/wire";
import { DetailsCard } from "./DetailsCard";
import { EmailCard } from "./EmailCard";
import { PasswordCard } from "./PasswordCard";
import { SessionsCard } from "./SessionsCard";
import { TwoFactorCard } from "./TwoFactorCard";
import { mustSetUpTwoFactor, useProfile, useProfileSync } from "./useProfile";
import "./profile.css";

type ProfilePageProps = {
  /** The colour-mode control of the app shell. */
  themeChoice: ReactNode;
  /** Switches the interface language and remembers it in this browser. */
  onLanguageSaved: (language: Language) => void;
};

export function ProfilePage({ themeChoice, onLanguageSaved }: ProfilePageProps) {
  const { t } = useTranslation();
  const failure = useProfileSync();
  const profile = useProfile();

  return (
    <section className="page page-narrow" data-testid="profile-page">
      <PageHeader title={t("profile.title")} subtitle={t("profile.subtitle")} />
      {mustSetUpTwoFactor(profile) ? (
        <Alert tone="warning" testId="two-factor-required">
          {t("profile.twoFactorRequired")}
        </Alert>
      ) : null}
      {!profile && failure ? <EmptyState title={t(`errors.${failure}`)} testId="profile-error" /> : null}
      {!profile && !failure ? <PageSpinner label={t("app.loading")} /> : null}
      {profile ? <Cards profile={profile} themeChoice={themeChoice} onLanguageSaved={onLanguageSaved} /> : null}
    </section>
  );
}

function Cards({ profile, themeChoice, onLanguageSaved }: ProfilePageProps & { profile: Profile }) {
  const cards = [
    <DetailsCard key="details" profile={profile} themeChoice={themeChoice} onLanguageSaved={onLanguageSaved} />,
    <EmailCard key="email" profile={profile} />,
    <PasswordCard key="password" />,
    <TwoFactorCard key="two-factor" profile={profile} />,
    <SessionsCard key="sessions" />,
  ];
  // Two-factor first while the team requires it: that is what the user came to do.
  // Keys keep the card's state (the backup codes on screen) when it moves back.
  if (mustSetUpTwoFactor(profile)) cards.unshift(...cards.splice(3, 1));
  return <div className="settings-stack">{cards}</div>;
}
