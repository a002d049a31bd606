import { useAtomValue } from "jotai";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { parseNeed, type Need } from "../live/access";
import { identityAtom } from "../live/atoms";
import { Alert } from "./Alert";
import { Button } from "./Button";
import { draftText, readDraft } from "./draft";
import { NeedContext, roleLabel, useMay } from "./useMay";

type RoleLockProps = {
  needs: Need;
  children: ReactNode;
  /**
   * Whether the form holds the member's own edits: a dialog always does; a settings form only once
   * changed. Without any, losing the right just turns the form read-only.
   */
  edited?: boolean;
  testId?: string;
};

/**
 * A form that works only while the member's role allows `needs`. A role that never could sees
 * the fields read-only with the reason; a form left open while the role lost the right locks,
 * says why, and keeps what was typed in as text to copy, since nothing of it can be saved.
 */
export function RoleLock({ needs, children, edited = true, testId = "role-lock" }: RoleLockProps) {
  const { t } = useTranslation();
  const may = useMay(needs);
  const fields = useRef<HTMLFieldSetElement>(null);
  // Open while allowed: losing the right from here on is news to the member, with a draft to keep.
  const [openedAllowed] = useState(may.allowed);
  // Decided once, when the right goes: whether the form then held edits of the member's own.
  const [lockedWithEdits, setLockedWithEdits] = useState<boolean | null>(null);
  if (may.allowed && lockedWithEdits !== null) setLockedWithEdits(null);
  if (!may.allowed && lockedWithEdits === null) setLockedWithEdits(openedAllowed && edited);
  const lost = !may.allowed && lockedWithEdits === true;
  const [draft, setDraft] = useState<string | null>(null);

  // Read once, as the form stood when it locked: the fields cannot change after.
  useLayoutEffect(() => {
    if (!lost || draft !== null || !fields.current) return;
    setDraft(draftText(readDraft(fields.current, { yes: t("access.locked.yes"), no: t("access.locked.no") })));
  }, [lost, draft, t]);

  return (
    <NeedContext.Provider value={needs}>
      {lost ? <LockedNotice needs={needs} draft={draft ?? ""} /> : null}
      {!may.allowed && !lost ? (
        <p className="role-note" data-testid="role-note">
          {may.reason}
        </p>
      ) : null}
      <fieldset ref={fields} className="role-lock" disabled={!may.allowed} data-testid={testId} data-locked={!may.allowed || undefined}>
        {children}
      </fieldset>
    </NeedContext.Provider>
  );
}

function LockedNotice({ needs, draft }: { needs: Need; draft: string }) {
  const { t } = useTranslation();
  const merchant = useAtomValue(identityAtom)?.merchant;
  const role = roleLabel(merchant, t);
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const wanted = parseNeed(needs);
  const body = wanted.t === "owner" ? t("access.locked.ownerBody", { role }) : t("access.locked.body", { role, what: t(`access.what.${wanted.section}`) });

  async function copy() {
    try {
      await navigator.clipboard.writeText(draft);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <Alert tone="warning" testId="form-locked">
      <p className="locked-title">{t("access.locked.title")}</p>
      <p>
        {body} {draft ? t("access.locked.keep") : null}
      </p>
      {draft ? (
        <div className="locked-draft">
          <label className="field-label" htmlFor="locked-draft-text">
            {t("access.locked.draft")}
          </label>
          <textarea id="locked-draft-text" className="input locked-draft-text" readOnly value={draft} rows={Math.min(8, draft.split("\n").length + 1)} data-testid="locked-draft" />
          <div className="locked-actions">
            <Button className="btn-sm" onClick={() => void copy()} data-testid="copy-draft">
              {copied === "copied" ? t("access.locked.copied") : t("access.locked.copy")}
            </Button>
            {copied === "failed" ? <span role="status">{t("access.locked.copyFailed")}</span> : null}
          </div>
        </div>
      ) : null}
    </Alert>
  );
}
