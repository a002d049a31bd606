import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/Avatar";
import { identityAtom, presenceAtom } from "../../live/atoms";

/** Who else has this record open: teammates, and this user's other tabs. */
export function ViewingToo({ path }: { path: string }) {
  const { t } = useTranslation();
  const members = useAtomValue(presenceAtom).filter((member) => member.viewing === path);
  const me = useAtomValue(identityAtom)?.user.id;
  const others = [...new Map(members.filter((member) => member.userId !== me).map((member) => [member.userId, member])).values()];
  // Presence does not say which entry is this tab, so more than one of mine means another tab.
  const myOtherTab = members.filter((member) => member.userId === me).length > 1;
  if (others.length === 0 && !myOtherTab) return null;
  const names = [...others.map((member) => member.name), ...(myOtherTab ? [t("customers.yourOtherTab")] : [])];
  return (
    <div className="viewing-too" data-testid="viewing-too">
      <div className="avatar-stack">
        {others.map((member) => (
          <Avatar key={member.userId} name={member.name} seed={member.userId} size="sm" />
        ))}
      </div>
      <span>{t("customers.viewingToo", { names: names.join(", ") })}</span>
    </div>
  );
}
