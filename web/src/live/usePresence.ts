import { useAtomValue } from "jotai";
import { useEffect } from "react";
import { identityAtom, presenceAtom } from "./atoms";
import { useLiveClient } from "./context";
import { onPath } from "./presence";

/** Tells teammates this tab has `path`'s form open while `open`; cleared when the form closes or unmounts. */
export function useEditingPresence(path: string, open: boolean): void {
  const client = useLiveClient();
  useEffect(() => {
    if (!open) return;
    client.setEditing(path);
    return () => client.setEditing(undefined);
  }, [client, path, open]);
}

/** Teammates on `path`, and which of them have its form open. */
export function usePresenceOn(path: string) {
  const members = useAtomValue(presenceAtom);
  const me = useAtomValue(identityAtom)?.user.id;
  return onPath(members, path, me);
}
