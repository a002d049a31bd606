import * as RadixDialog from "@radix-ui/react-dialog";
import { Command } from "cmdk";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "../../components/format";
import { useNavigate } from "../../components/placeLinks";
import { useDebouncedValue } from "../../components/useDebouncedValue";
import type { Topic } from "../../live/cache";
import { useLiveQuery } from "../../live/useLiveQuery";
import { SEARCH_MAX_CHARS, SEARCH_MIN_CHARS, type ErrorCode, type ReplyBody, type SearchGroup, type SearchHit } from "../../protocol/wire";
import { hitPath } from "./searchPaths";

// Long enough that a word typed at speed asks once, short enough to feel live.
const DEBOUNCE_MS = 200;
// A record found can change or go while the box is open: the answer follows its kinds.
const FOLLOWS: readonly Topic[] = ["customer", "payment", "mandate", "transaction", "order", "payouts"];
const pickGroups = (reply: ReplyBody) => (reply.t === "SearchResults" ? reply.groups : undefined);

// Settled results with the text they answer: kept on screen while the next text is asked.
type Found = { text: string; groups: SearchGroup[]; error?: ErrorCode };
const NO_GROUPS: SearchGroup[] = [];

/** The open search: the field, its status and the grouped hits (loaded on first open, with `cmdk`). */
export function SearchDialog({ onOpen }: { onOpen: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const hintId = useId();
  const [typed, setTyped] = useState("");
  const text = useDebouncedValue(typed.trim(), DEBOUNCE_MS);
  const long = text.length >= SEARCH_MIN_CHARS;
  const view = useLiveQuery(long ? { t: "Search", text } : null, { pick: pickGroups, follows: FOLLOWS });
  const settled: Found | null =
    view.state === "ready" ? { text, groups: view.value } : view.state === "error" ? { text, groups: NO_GROUPS, error: view.code } : null;
  const [last, setLast] = useState<Found | null>(null);
  // Kept while rendering (React's way to hold on to a value of an earlier render).
  if (long && settled && (last?.text !== settled.text || last.groups !== settled.groups || last.error !== settled.error)) setLast(settled);
  const found = long ? (settled ?? last) : null;
  const waiting = typed.trim() !== text || (long && found?.text !== text);
  const groups = found?.groups ?? NO_GROUPS;

  const open = (hit: SearchHit) => {
    onOpen();
    void navigate(hitPath(hit));
  };

  let status: string;
  if (typed.trim().length < SEARCH_MIN_CHARS) status = t("search.tooShort", { count: SEARCH_MIN_CHARS });
  else if (!found || waiting) status = t("search.searching");
  else if (found.error) status = t(`errors.${found.error}`);
  else if (groups.length === 0) status = t("search.empty", { text: found.text });
  else status = "";

  return (
    <RadixDialog.Content className="search-dialog" aria-describedby={hintId} data-testid="search-dialog">
      <RadixDialog.Title className="sr-only-text">{t("search.title")}</RadixDialog.Title>
      <p id={hintId} className="sr-only-text">
        {t("search.hint")}
      </p>
      <Command label={t("search.label")} shouldFilter={false} loop vimBindings={false} className="search-command">
        <div className="search-field">
          <svg viewBox="0 0 24 24" className="icon" aria-hidden="true">
            <circle cx="11" cy="11" r="6.5" />
            <path d="m16 16 4.5 4.5" />
          </svg>
          <Command.Input
            value={typed}
            onValueChange={setTyped}
            maxLength={SEARCH_MAX_CHARS}
            placeholder={t("search.placeholder")}
            className="search-input"
            data-testid="search-input"
          />
          <RadixDialog.Close className="icon-button" aria-label={t("search.close")}>
            <span aria-hidden="true">×</span>
          </RadixDialog.Close>
        </div>
        <p className="search-status" role="status" aria-live="polite" aria-busy={waiting} data-testid="search-status">
          {status}
        </p>
        <Command.List className="search-list" label={t("search.label")}>
          {groups.map((group) => (
            <Command.Group key={group.kind} heading={t(`search.groups.${group.kind}`)} className="search-group" data-testid={`search-group-${group.kind}`}>
              {group.hits.map((hit) => (
                <Command.Item key={hit.id} value={hit.id} onSelect={() => open(hit)} className="search-hit" data-testid="search-hit" data-kind={hit.kind} data-id={hit.id}>
                  <span className="search-hit-title">{hit.title}</span>
                  <span className="search-hit-detail">
                    {[
                      hit.detail,
                      hit.amountCents === undefined ? "" : formatMoney(hit.amountCents, i18n.language),
                      hit.accountLast4 ? t("search.account", { last4: hit.accountLast4 }) : "",
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                </Command.Item>
              ))}
            </Command.Group>
          ))}
        </Command.List>
      </Command>
    </RadixDialog.Content>
  );
}
