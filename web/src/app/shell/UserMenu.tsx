import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Avatar, initials } from "../../components/Avatar";
import { sessionAtom } from "../../features/auth/session";
import { identityAtom, placeAtom } from "../../live/atoms";
import type { Mode } from "../../protocol/wire";
import { Menu, MenuChoice, MenuItem, MenuSeparator } from "./Menu";
import { useSignOut } from "./useSignOut";
import { useSwitchPlace } from "./useSwitchPlace";

export function UserMenu() {
  const { t } = useTranslation();
  const session = useAtomValue(sessionAtom);
  const identity = useAtomValue(identityAtom);
  // Where the tab is going: a switch shows at once, before the server's Welcome.
  const place = useAtomValue(placeAtom);
  const { busy, leave } = useSignOut();
  const switchPlace = useSwitchPlace();
  const user = identity?.user ?? session.user;
  if (!user) return null;

  return (
    // The name starts with the initials the button shows, so a voice user can say them.
    <Menu
      label={t("header.userMenuButton", { initials: initials(user.name || user.email) })}
      testId="user-menu"
      trigger={<Avatar name={user.name || user.email} seed={user.id} />}
    >
      <div className="menu-identity">
        <p className="menu-identity-name">{user.name}</p>
        <p className="menu-identity-email">{user.email}</p>
      </div>
      {identity ? (
        <>
          <MenuSeparator className="menu-separator" />
          {identity.merchants.length > 1 ? (
            <MenuChoice
              label={t("header.merchants")}
              value={place.merchantId ?? identity.merchant.id}
              onChange={(merchantId) => switchPlace({ merchantId, mode: place.mode })}
              options={identity.merchants.map((merchant) => ({ value: merchant.id, label: merchant.name }))}
            />
          ) : null}
          <MenuChoice<Mode>
            label={t("header.mode.label")}
            value={place.mode ?? identity.mode}
            onChange={(mode) => switchPlace({ merchantId: place.merchantId, mode })}
            options={[
              { value: "live", label: t("header.mode.live"), testId: "mode-live" },
              { value: "test", label: t("header.mode.test"), testId: "mode-test" },
            ]}
          />
        </>
      ) : null}
      <MenuSeparator className="menu-separator" />
      <MenuItem className="menu-item" onSelect={() => void leave()} disabled={busy} data-testid="sign-out">
        {busy ? t("header.signingOut") : t("header.signOut")}
      </MenuItem>
    </Menu>
  );
}
