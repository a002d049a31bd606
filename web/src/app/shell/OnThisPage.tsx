import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { Avatar } from "../../components/Avatar";
import { usePresenceOn } from "../../live/usePresence";

const SHOWN = 4;

/**
 * Who else of the team is on this screen, and who has its form open. Placed
 * by the page header, so every list and record screen has it.
 */
export function OnThisPage({ path }: { path?: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { viewers, editors, myOtherTab } = usePresenceOn(path ?? pathname);
  if (viewers.length === 0 && !myOtherTab) return null;
  const names = [...viewers.map((member) => member.name), ...(myOtherTab ? [t("header.yourOtherTab")] : [])];
  return (
    <div className="on-this-page" data-testid="on-this-page">
      <div className="avatar-stack">
        {viewers.slice(0, SHOWN).map((member) => (
          <Avatar key={member.userId} name={member.name} seed={member.userId} size="sm" />
        ))}
        {viewers.length > SHOWN ? <span className="avatar avatar-sm avatar-more">+{viewers.length - SHOWN}</span> : null}
      </div>
      <span>
        {editors.length > 0
          ? t("header.isEditing", { names: editors.map((member) => member.name).join(", "), count: editors.length })
          : t("header.onThisPage", { names: names.join(", ") })}
      </span>
    </div>
  );
}

/** "Thandi is editing" inside a form, when a teammate has the same record's form open. */
export function EditingToo({ path }: { path: string }) {
  const { t } = useTranslation();
  const { editors } = usePresenceOn(path);
  if (editors.length === 0) return null;
  return (
    <p className="on-this-page editing-too" role="status" data-testid="editing-too">
      {t("header.isEditing", { names: editors.map((member) => member.name).join(", "), count: editors.length })}
    </p>
  );
}
