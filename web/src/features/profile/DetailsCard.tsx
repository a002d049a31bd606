import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Button } from "../../components/Button";
import { SelectField, TextField } from "../../components/Field";
import { placeError } from "../../components/fieldErrors";
import { SettingsCard } from "../../components/SettingsCard";
import { useCommand } from "../../live/useCommand";
import type { Language, Profile } from "../../protocol/wire";
import { useAccountChanged } from "./useProfile";

const LANGUAGES: Language[] = ["en", "afr"];
const FIELDS = ["name", "language"] as const;

type DetailsCardProps = { profile: Profile; themeChoice: ReactNode; onLanguageSaved: (language: Language) => void };

export function DetailsCard({ profile, themeChoice, onLanguageSaved }: DetailsCardProps) {
  const { t } = useTranslation();
  const update = useCommand();
  const accountChanged = useAccountChanged();
  const [name, setName] = useState(profile.user.name);
  const [language, setLanguage] = useState<Language>(profile.language);
  const [saved, setSaved] = useState(false);
  const placed = placeError(update.error, FIELDS);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const reply = await update.run({ t: "UpdateProfile", name: name.trim(), language });
    if (!reply) return;
    setSaved(true);
    onLanguageSaved(language);
    accountChanged();
  }

  return (
    <SettingsCard title={t("profile.details.title")} testId="profile-details">
      <form className="form" onSubmit={submit} noValidate>
        {placed.general ? <Alert>{t(`errors.${placed.general}`)}</Alert> : null}
        <div className="form-grid">
          <TextField
            label={t("profile.details.name")}
            name="name"
            autoComplete="name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setSaved(false);
            }}
            error={placed.fields.name ? t(`errors.${placed.fields.name}`) : undefined}
          />
          <SelectField
            label={t("profile.details.language")}
            name="language"
            value={language}
            onChange={(event) => {
              setLanguage(LANGUAGES.find((value) => value === event.target.value) ?? "en");
              setSaved(false);
            }}
            options={LANGUAGES.map((value) => ({ value, label: t(`languages.${value}`) }))}
            error={placed.fields.language ? t(`errors.${placed.fields.language}`) : undefined}
          />
        </div>
        <p className="field-hint">{t("profile.details.languageHint")}</p>
        <div className="form-actions form-actions-start">
          <Button type="submit" variant="primary" busy={update.busy} data-testid="save-details">
            {update.busy ? t("profile.saving") : t("profile.save")}
          </Button>
          {saved ? (
            <span className="saved-note" role="status">
              {t("profile.saved")}
            </span>
          ) : null}
        </div>
      </form>
      <div className="settings-divider" />
      <div className="settings-row">
        <div>
          <p className="field-label">{t("profile.details.theme")}</p>
          <p className="field-hint">{t("profile.details.themeHint")}</p>
        </div>
        {themeChoice}
      </div>
    </SettingsCard>
  );
}
