import { useAtomValue } from "jotai";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { Link, useNavigate } from "../../components/placeLinks";
import { Alert } from "../../components/Alert";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Dialog } from "../../components/Dialog";
import { SelectField, TextField } from "../../components/Field";
import { formatDate } from "../../components/format";
import { PageHeader } from "../../components/PageHeader";
import { Spinner } from "../../components/Spinner";
import { identityAtom } from "../../live/atoms";
import { useCommand } from "../../live/useCommand";
import type { Member } from "../../protocol/wire";
import { MemberActivity } from "./MemberActivity";
import { RoleHint } from "./RoleHint";
import { choiceOf, roleOfChoice, roleOptions, useRoles, type RoleChoice } from "./useRoles";
import { useTeam } from "./useTeam";
import "./teams.css";
import { ErrorAlert } from "../../components/ErrorAlert";
import { RoleLock } from "../../components/RoleLock";

export function MemberPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const loaded = useTeam();
  if (!loaded) return <Spinner label={t("app.loading")} />;
  if ("error" in loaded) return <Alert>{t(`errors.${loaded.error}`)}</Alert>;
  const member = loaded.team.members.find((m) => m.userId === id);
  if (!member) {
    return (
      <section className="page page-narrow" data-testid="member-page">
        <Alert>{t("teams.member.gone")}</Alert>
        <Link to="/account/teams" className="link">
          {t("teams.member.back")}
        </Link>
      </section>
    );
  }
  return <MemberDetail member={member} />;
}

function MemberDetail({ member }: { member: Member }) {
  const { t, i18n } = useTranslation();
  const identity = useAtomValue(identityAtom);
  const isOwner = identity?.merchant.role === "owner";
  const navigate = useNavigate();
  const change = useCommand();
  const remove = useCommand();
  const loadedRoles = useRoles();
  const roles = loadedRoles && "roles" in loadedRoles ? loadedRoles.roles : undefined;
  const current = member.role === "owner" ? "admin" : choiceOf(member);
  const [role, setRole] = useState<RoleChoice>(current);
  const [removing, setRemoving] = useState(false);
  const [transferring, setTransferring] = useState(false);
  // The owner's role is theirs until they hand the ownership on.
  const manageable = member.role !== "owner";

  async function removeMember() {
    if (await remove.run({ t: "RemoveMember", userId: member.userId })) void navigate("/account/teams");
    setRemoving(false);
  }

  return (
    <section className="page page-narrow" data-testid="member-page">
      <Link to="/account/teams" className="link team-back">
        {t("teams.member.back")}
      </Link>
      <PageHeader title={member.name} subtitle={member.email} />
      <ErrorAlert code={change.error?.fields?.[0]?.code ?? change.error?.code} needs="team:write" />
      <section className="card">
        <dl className="team-facts">
          <dt>{t("teams.fields.role")}</dt>
          <dd data-testid="member-role">{member.roleName ?? t(`teams.roles.${member.role}`)}</dd>
          <dt>{t("teams.fields.twoFactor")}</dt>
          <dd>{member.twoFactor ? <Badge tone="green">{t("teams.on")}</Badge> : <Badge tone="zinc">{t("teams.off")}</Badge>}</dd>
          <dt>{t("teams.fields.joined")}</dt>
          <dd>{formatDate(member.joinedAt, i18n.language)}</dd>
        </dl>
        {manageable ? (
          <RoleLock needs="team:write" edited={role !== choiceOf(member)}>
          <div className="form">
            <SelectField
              label={t("teams.member.changeRole")}
              value={role}
              onChange={(e) => setRole(e.target.value)}
              options={roleOptions(roles, (r) => t(`teams.roles.${r}`))}
              data-testid="member-new-role"
            />
            <RoleHint roles={roles} choice={role} />
            <div className="team-actions">
              <Button variant="primary" busy={change.busy} disabled={role === choiceOf(member)} onClick={() => void change.run({ t: "ChangeMemberRole", userId: member.userId, ...roleOfChoice(role) })} needs="team:write" data-testid="save-role">
                {t("teams.member.saveRole")}
              </Button>
              <Button variant="danger" onClick={() => setRemoving(true)} needs="team:write" data-testid="remove-member">
                {t("teams.member.remove")}
              </Button>
            </div>
          </div>
          </RoleLock>
        ) : null}
        {isOwner && member.userId !== identity?.user.id ? (
          <div className="team-actions team-transfer">
            <Button onClick={() => setTransferring(true)} needs="owner" data-testid="transfer-ownership">
              {t("teams.transfer.open")}
            </Button>
          </div>
        ) : null}
      </section>
      <MemberActivity userId={member.userId} />
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t("teams.member.removeTitle", { name: member.name })}
        body={t("teams.member.removeBody")}
        confirmLabel={t("teams.member.remove")}
        busy={remove.busy}
        error={remove.error}
        variant="danger"
        testId="remove-dialog"
        needs="team:write"
        onConfirm={() => void removeMember()}
      />
      {transferring ? <TransferDialog member={member} onClose={() => setTransferring(false)} /> : null}
    </section>
  );
}

function TransferDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { t } = useTranslation();
  const transfer = useCommand();
  const [confirmation, setConfirmation] = useState("");
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await transfer.run({ t: "TransferOwnership", userId: member.userId, confirmation })) onClose();
  }
  const code = transfer.error?.fields?.[0]?.code ?? transfer.error?.code;
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())} title={t("teams.transfer.title", { name: member.name })} description={t("teams.transfer.body")} closeLabel={t("common.close")} size="sm" testId="transfer-dialog" needs="owner">
      <form className="form" onSubmit={submit} noValidate>
        <TextField label={t("teams.transfer.confirmation")} type="password" autoComplete="current-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} error={code ? t(`errors.${code}`) : undefined} data-testid="transfer-confirmation" />
        <div className="form-actions">
          <Button type="submit" variant="danger" busy={transfer.busy} needs="owner" data-testid="confirm-transfer">
            {t("teams.transfer.confirm")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
