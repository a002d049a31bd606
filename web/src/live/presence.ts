import type { PresenceMember, ServerFrame } from "../protocol/wire";

type PresenceChanged = Extract<ServerFrame, { t: "PresenceChanged" }>;

/** The list after a change frame: joined and moved replace the person's entry, left removes it. */
export function applyPresence(members: PresenceMember[], change: PresenceChanged): PresenceMember[] {
  const byUser = new Map(members.map((member) => [member.userId, member]));
  for (const member of [...(change.joined ?? []), ...(change.moved ?? [])]) byUser.set(member.userId, member);
  for (const userId of change.left ?? []) byUser.delete(userId);
  return [...byUser.values()].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** Who is on `path`: teammates (not me) showing it, which of them has its form open, and whether another tab of mine shows it. */
export function onPath(members: PresenceMember[], path: string, me: string | undefined) {
  const viewers: PresenceMember[] = [];
  const editors: PresenceMember[] = [];
  let myOtherTab = false;
  for (const member of members) {
    const tabs = (member.viewing ?? []).filter((viewing) => viewing === path).length;
    const editing = (member.editing ?? []).includes(path);
    if (member.userId === me) {
      // This tab is one of mine on the path: a second means another tab.
      myOtherTab = tabs > 1;
      continue;
    }
    if (tabs > 0 || editing) viewers.push(member);
    if (editing) editors.push(member);
  }
  return { viewers, editors, myOtherTab };
}
