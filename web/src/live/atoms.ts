import { atom } from "jotai";
import type { MerchantView, Mode, PresenceMember, UserView, WireError } from "../protocol/wire";
import type { AccessChange } from "./access";
import type { Place } from "./place";

// "refused": the server turned the socket away because the user has too many tabs open.
/** `noTeam`: the user belongs to no merchant's team any more; nothing is retried. */
export type ConnectionState = "idle" | "connecting" | "online" | "reconnecting" | "refused" | "noTeam";

export const connectionAtom = atom<ConnectionState>("idle");

export type LiveIdentity = {
  user: UserView;
  merchant: MerchantView;
  mode: Mode;
  merchants: MerchantView[];
};

// Who and where the socket is, from the last Welcome.
export const identityAtom = atom<LiveIdentity | null>(null);

/**
 * The business and mode this tab shows or is opening: set at once by a switch, by the
 * server's Welcome (which fills in what the tab left to it), and when the tab is moved off
 * a business. The address follows it (app/PlaceSync.tsx).
 */
export const placeAtom = atom<Place>({});

/**
 * Counts the places this tab has left. Screens are keyed by it, so whatever a screen holds
 * of its own (not in the entity cache) goes at once with the business or mode it was of.
 */
export const placeVisitAtom = atom(0);

export const presenceAtom = atom<PresenceMember[]>([]);

// The session id is not told to the client, so "me" is every tab of my user.
export const othersOnlineAtom = atom((get) => {
  const me = get(identityAtom)?.user.id;
  const seen = new Map<string, PresenceMember>();
  for (const member of get(presenceAtom)) {
    if (member.userId !== me && !seen.has(member.userId)) seen.set(member.userId, member);
  }
  return [...seen.values()];
});

// "command": a command failed; it goes once the user sends a command again or one succeeds.
// "connection": about the socket itself (too many tabs, removed from the team).
export type NoticeSource = "command" | "connection";

/**
 * Why the tab now shows another business than the one it had open: the person was
 * removed from that business's team (`from`: its name, as the tab last knew it), or an
 * address named a business whose team they are not on (which one is not said: the server
 * tells no one who is not on a team anything about it).
 */
export type Moved = { why: "removed"; from: string } | { why: "notOnTeam" };

export type Notice =
  | { serial: number; error: WireError; source: NoticeSource }
  | { serial: number; moved: Moved; source: "connection" };

// The last error a command or query ended with, for the global error banner.
export const noticeAtom = atom<Notice | null>(null);

/**
 * The last change of the member's own role (or of what it grants) on the merchant open in this
 * tab, told by the server while the tab was open: the shell says it at once, and open forms lock.
 */
export const accessChangeAtom = atom<(AccessChange & { serial: number }) | null>(null);
