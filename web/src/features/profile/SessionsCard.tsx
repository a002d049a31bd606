import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/Alert";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { formatDateTime } from "../../components/format";
import { SettingsCard } from "../../components/SettingsCard";
import { Spinner } from "../../components/Spinner";
import { useCommand } from "../../live/useCommand";
import { useLiveQuery } from "../../live/useLiveQuery";
import type { ReplyBody, SessionInfo } from "../../protocol/wire";
import { useAccountChanged } from "./useProfile";
import { readUserAgent } from "./userAgent";

const pickSessions = (reply: ReplyBody) => (reply.t === "Sessions" ? reply.sessions : undefined);

export function SessionsCard() {
  const { t } = useTranslation();
  // Read again whenever the account changes as this tab knows it: a session ended here, a new
  // password, the tab shown again after another tab or browser signed in or out.
  const view = useLiveQuery({ t: "ListSessions" }, { pick: pickSessions, follows: ["account"] });
  const accountChanged = useAccountChanged();
  const signOut = useCommand();
  // Which row's button was pressed, so only that one shows it is busy.
  const [signingOut, setSigningOut] = useState<string | null>(null);

  async function signOutOne(sessionId: string) {
    setSigningOut(sessionId);
    await signOut.run({ t: "SignOutSession", sessionId });
    setSigningOut(null);
    accountChanged();
  }

  async function signOutOthers() {
    setSigningOut("others");
    await signOut.run({ t: "SignOutOtherSessions" });
    setSigningOut(null);
    accountChanged();
  }

  const sessions = view.state === "ready" ? [...view.value].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt) : [];
  const others = sessions.filter((session) => !session.current);
  return (
    <SettingsCard
      title={t("profile.sessions.title")}
      description={t("profile.sessions.body")}
      testId="profile-sessions"
      status={
        <Button onClick={signOutOthers} busy={signingOut === "others"} disabled={others.length === 0 || signingOut !== null} data-testid="sign-out-others">
          {t("profile.sessions.signOutOthers")}
        </Button>
      }
    >
      {signOut.error ? <Alert>{t(`errors.${signOut.error.code}`)}</Alert> : null}
      {view.state === "error" ? <Alert>{t(`errors.${view.code}`)}</Alert> : null}
      {view.state === "loading" ? <Spinner label={t("app.loading")} /> : null}
      {sessions.length > 0 ? (
        <ul className="session-list">
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} busy={signingOut === session.id} disabled={signingOut !== null} onSignOut={() => void signOutOne(session.id)} />
          ))}
        </ul>
      ) : null}
      {view.state === "ready" && others.length === 0 ? <p className="field-hint">{t("profile.sessions.onlyThis")}</p> : null}
    </SettingsCard>
  );
}

type SessionRowProps = { session: SessionInfo; busy: boolean; disabled: boolean; onSignOut: () => void };

function SessionRow({ session, busy, disabled, onSignOut }: SessionRowProps) {
  const { t, i18n } = useTranslation();
  const device = readUserAgent(session.userAgent);
  const label = t("profile.sessions.device", {
    browser: device.browser ?? t("profile.sessions.unknownBrowser"),
    os: device.system ?? t("profile.sessions.unknownSystem"),
  });
  return (
    <li className="session-row" data-testid="session-row" data-current={session.current || undefined}>
      <div className="session-icon" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="icon">
          <rect x="3" y="4" width="18" height="12" rx="2" />
          <path d="M8 20h8M12 16v4" />
        </svg>
      </div>
      <div className="session-main">
        <p className="session-device" title={session.userAgent}>
          {label} {session.current ? <Badge tone="green">{t("profile.sessions.current")}</Badge> : null}
        </p>
        <p className="session-meta">
          {session.address ? <span className="cell-mono">{session.address}</span> : null}
          <span>{t("profile.sessions.lastSeen", { when: formatDateTime(session.lastSeenAt, i18n.language) })}</span>
        </p>
      </div>
      {session.current ? null : (
        <Button variant="ghost" className="btn-sm" onClick={onSignOut} busy={busy} disabled={disabled} data-testid="sign-out-session">
          {t("profile.sessions.signOut")}
        </Button>
      )}
    </li>
  );
}
