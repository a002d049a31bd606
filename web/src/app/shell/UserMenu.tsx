import { useAtomValue } from "jotai";
import { useTranslation } from "react-i18next";
import { Avatar } from "../../components/Avatar";
import { sessionAtom } from "../../features/auth/session";
import { identityAtom } from "../../live/atoms";
import type { Mode } from "../../protocol/wire";
import { liveClient } from "../liveClient";
import { Menu, MenuChoice, MenuItem, MenuSeparator } from "./Menu";
import { useSignOut } from "./useSignOut";

export function UserMenu() {
  const { t } = useTranslation();
  const session = useAtomValue(sessionAtom);
  const identity = useAtomValue(identityAtom);
  const { busy, leave } = useSignOut();
  const user = identity?.user ?? session.user;
  if (!user) return null;

  return (
    <Menu label={t("header.userMenu")} testId="user-menu" trigger={<Avatar name={user.name || user.email} seed={user.id} />}>
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
              value={identity.merchant.id}
              onChange={(merchantId) => liveClient.switchTo({ merchantId, mode: identity.mode })}
              options={identity.merchants.map((merchant) => ({ value: merchant.id, label: merchant.name }))}
            />
          ) : null}
          <MenuChoice<Mode>
            label={t("header.mode.label")}
            value={identity.mode}
            onChange={(mode) => liveClient.switchTo({ merchantId: identity.merchant.id, mode })}
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
