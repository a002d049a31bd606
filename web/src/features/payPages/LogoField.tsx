import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/Button";
import { logoProblem, payPageLogoUrl } from "./share";

/** What the merchant did to the logo in this form: nothing, a new file, or take it off. */
export type LogoChange = { t: "keep" } | { t: "set"; file: File; preview: string } | { t: "remove" };

type LogoFieldProps = {
  pageId?: string;
  logoVersion?: number;
  change: LogoChange;
  onChange: (change: LogoChange) => void;
  error?: string;
  onProblem: (problem: ReturnType<typeof logoProblem>) => void;
};

/** Picks, previews and removes the page's logo; it is sent once the page is saved. */
export function LogoField({ pageId, logoVersion, change, onChange, error, onProblem }: LogoFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const preview = change.t === "set" ? change.preview : null;
  // The preview's object URL is let go once another file or none replaces it.
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const current = change.t === "set" ? preview : change.t === "keep" && pageId && logoVersion !== undefined ? payPageLogoUrl(pageId, logoVersion) : null;

  return (
    <div className={error ? "field field-invalid" : "field"}>
      <label className="field-label" htmlFor={id}>
        {t("payPages.form.logo")}
      </label>
      <div className="logo-field">
        <div className="logo-preview" aria-hidden={current ? undefined : true}>
          {current ? <img src={current} alt={t("payPages.form.logoPreview")} data-testid="page-logo-preview" /> : <span>{t("payPages.form.noLogo")}</span>}
        </div>
        <div className="logo-actions">
          <input
            id={id}
            type="file"
            className="file-input"
            accept="image/png,image/jpeg,image/webp"
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              event.target.value = "";
              if (!chosen) return;
              const problem = logoProblem(chosen);
              onProblem(problem);
              if (!problem) onChange({ t: "set", file: chosen, preview: URL.createObjectURL(chosen) });
            }}
            data-testid="page-logo-input"
          />
          <label htmlFor={id} className="btn btn-secondary">
            {current ? t("payPages.form.replaceLogo") : t("payPages.form.chooseLogo")}
          </label>
          {current ? (
            <Button variant="ghost" onClick={() => onChange(change.t === "set" && logoVersion === undefined ? { t: "keep" } : { t: "remove" })} data-testid="page-logo-remove">
              {t("payPages.form.removeLogo")}
            </Button>
          ) : null}
        </div>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p className="field-hint">{t("payPages.form.logoHint")}</p>
      )}
    </div>
  );
}
