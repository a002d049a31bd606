import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/Avatar";
import { othersOnlineAtom } from "../../live/atoms";

const SHOWN = 4;

export function PresenceAvatars() {
  const { t } = useTranslation();
  const others = useAtomValue(othersOnlineAtom);
  if (others.length === 0) return null;
  return (
    <div className="avatar-stack presence" aria-label={t("header.othersOnline")} data-testid="presence">
      {others.slice(0, SHOWN).map((member) => (
        <Avatar key={member.userId} name={member.name} seed={member.userId} size="sm" />
      ))}
      {others.length > SHOWN ? <span className="avatar avatar-sm avatar-more">+{others.length - SHOWN}</span> : null}
    </div>
  );
}
