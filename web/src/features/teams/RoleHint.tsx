import { useTranslation } from "react-i18next";
import type { RoleList } from "../../protocol/wire";
import { MATRIX_SECTIONS } from "../../live/permissions";
import { grantsOfChoice, roleOfChoice, type RoleChoice } from "./useRoles";

/** A line under a role picker saying what the chosen role may do. */
export function RoleHint({ roles, choice }: { roles?: RoleList; choice: RoleChoice }) {
  const { t } = useTranslation();
  const { role, roleId } = roleOfChoice(choice);
  if (!roleId) return <p className="field-hint">{t(`teams.roleHints.${role}`)}</p>;
  const grants = grantsOfChoice(roles, choice);
  const names = (level: "read" | "write") =>
    MATRIX_SECTIONS.filter((s) => grants?.[s] === level)
      .map((s) => t(`developers.tokens.sections.${s}`))
      .join(", ");
  const [write, read] = [names("write"), names("read")];
  return (
    <p className="field-hint">
      {write ? t("teams.rolesList.changes", { sections: write }) : null} {read ? t("teams.rolesList.reads", { sections: read }) : null}
      {!write && !read ? t("teams.rolesList.nothing") : null}
    </p>
  );
}
