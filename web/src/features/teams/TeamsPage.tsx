import { useAtomValue } from "jotai";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { formatDate, formatDateTime, formatList } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { identityAtom, presenceAtom } from "../../live/atoms";
import { useCan } from "../../live/permissions";
import { useCommand } from "../../live/useCommand";
import type { Invite, Member, PresenceMember } from "../../protocol/wire";
import { InviteDialog } from "./InviteDialog";
import { RolesSection } from "./RolesSection";
import { useRoles } from "./useRoles";
import { useTeam } from "./useTeam";
import { viewedScreens } from "./viewedScreens";
import "./teams.css";
import { ErrorAlert } from "../../components/ErrorAlert";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { RealTimeNote } from "../../components/RealTimeNote";

export function TeamsPage() {
  const { t } = useTranslation();
  const loaded = useTeam();
  const roles = useRoles();
  const mayManage = useCan("team", "write");
  const [inviting, setInviting] = useState(false);
  const presence = useAtomValue(presenceAtom);
  return (
    <section className="page" data-testid="teams-page">
      <PageHeader
        title={t("screens.teams")}
        subtitle={t("teams.subtitle")}
        actions={
          <Button variant="primary" onClick={() => setInviting(true)} needs="team:write" data-testid="invite-member">
            {t("teams.invite.open")}
          </Button>
        }
        needs="team:write"
      />
      <RealTimeNote />
      {loaded && "error" in loaded ? <Alert>{t(`errors.${loaded.error}`)}</Alert> : null}
      {!loaded ? <Spinner label={t("app.loading")} /> : null}
      {loaded && "team" in loaded ? (
        <>
          {loaded.team.twoFactorRequired ? <Alert tone="info">{t("teams.twoFactorRequired")}</Alert> : null}
          <MembersTable members={loaded.team.members} presence={presence} />
          <h2 className="team-section-title">{t("teams.invites.title")}</h2>
          {loaded.team.invites.length === 0 ? (
            <p className="card-empty" data-testid="no-invites">
              {t("teams.invites.none")}
            </p>
          ) : (
            <InvitesTable invites={loaded.team.invites} mayManage={mayManage} />
          )}
          <RolesSection loaded={roles} members={loaded.team.members} mayManage={mayManage} />
        </>
      ) : null}
      {/* Kept mounted when the role changes: an invite being written locks with its draft instead of vanishing. */}
      <InviteDialog open={inviting} onOpenChange={setInviting} roles={roles && "roles" in roles ? roles.roles : undefined} />
    </section>
  );
}

function MembersTable({ members, presence }: { members: Member[]; presence: PresenceMember[] }) {
  const { t, i18n } = useTranslation();
  const me = useAtomValue(identityAtom)?.user.id;
  const onlineText = (online: PresenceMember) => {
    const pages = viewedScreens(online.viewing).map((screen) => t(`screens.${screen}`));
    return pages.length > 0 ? t("teams.onlineOn", { page: formatList(pages, i18n.language) }) : t("teams.online");
  };
  return (
    <div className="table-card">
      <table className="table" data-testid="members-table">
        <thead>
          <tr>
            <th scope="col">{t("teams.fields.name")}</th>
            <th scope="col">{t("teams.fields.role")}</th>
            <th scope="col">{t("teams.fields.twoFactor")}</th>
            <th scope="col">{t("teams.fields.lastActive")}</th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const online = presence.find((p) => p.userId === member.userId);
            return (
              <tr key={member.userId} data-testid={`member-${member.email}`}>
                <td>
                  <Link to={`/account/teams/${member.userId}`} className="table-link">
                    {member.name}
                  </Link>
                  {member.userId === me ? <span className="team-you"> {t("teams.you")}</span> : null}
                  <div className="cell-sub">{member.email}</div>
                </td>
                <td data-testid="member-role">{member.roleName ?? t(`teams.roles.${member.role}`)}</td>
                <td>{member.twoFactor ? <Badge tone="green">{t("teams.on")}</Badge> : <Badge tone="zinc">{t("teams.off")}</Badge>}</td>
                <td>
                  {online ? (
                    <span className="team-online" data-testid="member-online">
                      <span className="team-dot" aria-hidden="true" />
                      {onlineText(online)}
                    </span>
                  ) : member.lastActiveAt ? (
                    formatDateTime(member.lastActiveAt, i18n.language)
                  ) : (
                    t("teams.never")
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function InvitesTable({ invites, mayManage }: { invites: Invite[]; mayManage: boolean }) {
  const { t, i18n } = useTranslation();
  const act = useCommand();
  const [now] = useState(() => Date.now());
  // Revoking cannot be undone (the link stops working): it is asked first.
  const [revoking, setRevoking] = useState<Invite | null>(null);
  async function revoke(invite: Invite) {
    if (await act.run({ t: "RevokeInvite", inviteId: invite.id })) setRevoking(null);
  }
  return (
    <>
      <ErrorAlert code={act.error?.code} needs="team:write" />
      <div className="table-card">
        <table className="table" data-testid="invites-table">
          <thead>
            <tr>
              <th scope="col">{t("teams.fields.email")}</th>
              <th scope="col">{t("teams.fields.role")}</th>
              <th scope="col">{t("teams.fields.invitedBy")}</th>
              <th scope="col">{t("teams.fields.expires")}</th>
              {mayManage ? <th scope="col" aria-label={t("teams.fields.actions")} /> : null}
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={invite.id} data-testid={`invite-${invite.email}`}>
                <td>{invite.email}</td>
                <td>{invite.roleName ?? t(`teams.roles.${invite.role}`)}</td>
                <td>{invite.invitedByName}</td>
                <td>{invite.expiresAt <= now ? <Badge tone="amber">{t("teams.invites.expired")}</Badge> : formatDate(invite.expiresAt, i18n.language)}</td>
                {mayManage ? (
                  <td>
                    <div className="team-actions">
                    <Button onClick={() => void act.run({ t: "ResendInvite", inviteId: invite.id })} disabled={act.busy} needs="team:write" whenRefused="hide" data-testid="resend-invite">
                      {t("teams.invites.resend")}
                    </Button>
                    <Button variant="danger" onClick={() => (act.clearError(), setRevoking(invite))} disabled={act.busy} needs="team:write" whenRefused="hide" data-testid="revoke-invite">
                      {t("teams.invites.revoke")}
                    </Button>
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {revoking ? (
        <ConfirmDialog
          open
          onOpenChange={(next) => (next ? null : setRevoking(null))}
          title={t("teams.invites.revokeTitle")}
          body={t("teams.invites.revokeBody", { email: revoking.email })}
          confirmLabel={t("teams.invites.revoke")}
          onConfirm={() => void revoke(revoking)}
          busy={act.busy}
          error={act.error}
          variant="danger"
          needs="team:write"
          testId="revoke-invite-dialog"
        />
      ) : null}
    </>
  );
}
