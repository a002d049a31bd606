// The home feed: the transactions that changed most recently, newest first.

export const FEED_SIZE = 15;

/** Ids changed in one delta (in the order the server applied them) go on top, newest first. */
export function pushChanged(feed: string[], changed: string[]): string[] {
  const newestFirst = [...changed].reverse();
  return unique([...newestFirst, ...feed]).slice(0, FEED_SIZE);
}

/** What this tab saw change since it opened, then the server's own latest changes. */
export function feedIds(seen: string[], recent: string[]): string[] {
  return unique([...seen, ...recent]).slice(0, FEED_SIZE);
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}
