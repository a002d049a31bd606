import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import type { RecordEdit } from "../protocol/wire";
import { Alert } from "./Alert";
import { formatList } from "./format";

/** Who saved a record, as a form names them: the member, a token, an import, or "a teammate" until known. */
export function whoSaved(edit: RecordEdit | undefined, t: TFunction): string {
  if (edit?.actorKind === "user" && edit.actorName) return edit.actorName;
  if (edit?.actorKind === "api_token") return t("conflict.byApiToken");
  if (edit?.actorKind === "import") return t("conflict.byImport");
  return t("conflict.someone");
}

type SavedMeanwhileProps = {
  edit: RecordEdit | undefined;
  /** The labels of the fields their save changed, as the form names them. */
  labels: string[];
  /** The form's own way out (load their values). */
  children?: ReactNode;
};

/**
 * Inside an open form, the moment a teammate saves the same record: who, and which fields, before
 * the user presses Save. The user's edits stay in the form.
 */
export function SavedMeanwhile({ edit, labels, children }: SavedMeanwhileProps) {
  const { t, i18n } = useTranslation();
  const fields = formatList(labels, i18n.language);
  return (
    <Alert tone="warning" testId="changed-elsewhere">
      <span data-testid="saved-meanwhile">{t("conflict.savedBy", { name: whoSaved(edit, t), fields })}</span>{" "}
      <span>{t("conflict.savedKept")}</span>
      {children ? <> {children}</> : null}
    </Alert>
  );
}
