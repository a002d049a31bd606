import { useAtomValue } from "jotai";
import { useEffect, useRef, useState } from "react";
import { entityVersionAtom, transactionUpsertsAtom } from "../../live/cache";
import { feedIds, pushChanged } from "./feed";

/** Transaction ids as they change, newest first, topped up with the server's latest changes. */
export function useLiveFeed(recent: string[]): string[] {
  const upserts = useAtomValue(transactionUpsertsAtom);
  const entities = useAtomValue(entityVersionAtom);
  const [seen, setSeen] = useState<{ version: number; ids: string[] }>({ version: entities, ids: [] });
  const handled = useRef(upserts.serial);
  useEffect(() => {
    if (handled.current === upserts.serial) return;
    handled.current = upserts.serial;
    setSeen((current) => ({
      version: entities,
      ids: pushChanged(current.version === entities ? current.ids : [], upserts.ids),
    }));
  }, [upserts, entities]);
  // After a switch of data, what this tab saw belongs to the other data.
  return feedIds(seen.version === entities ? seen.ids : [], recent);
}
