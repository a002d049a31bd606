import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import { readListView, writeListView, type ListView } from "./listView";

export type UrlFilters<S extends string> = {
  view: ListView<S>;
  /** Changes some filters; the address is replaced, so typing does not fill the history. */
  update: (patch: Partial<ListView<S>>) => void;
  clear: () => void;
};

/** A list's filters kept in the address bar's search params (see listView.ts). */
export function useUrlFilters<S extends string>(statuses: readonly S[]): UrlFilters<S> {
  const [params, setParams] = useSearchParams();
  const address = params.toString();
  // Reading by the address text keeps the view stable across renders with the same URL.
  const view = useMemo(() => readListView(new URLSearchParams(address), statuses), [address, statuses]);
  // Navigation lands a render or more later, so two quick changes must not each build on
  // the address of the last render (the first would be lost): each builds on the last one
  // written. An address this hook did not write (back button, a link) starts afresh.
  const latest = useRef(params);
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const index = pending.current.indexOf(address);
    if (index >= 0) {
      pending.current = pending.current.slice(index + 1);
      return;
    }
    pending.current = [];
    latest.current = new URLSearchParams(address);
  }, [address]);
  const write = useCallback(
    (next: URLSearchParams) => {
      latest.current = next;
      pending.current.push(next.toString());
      setParams(next, { replace: true });
    },
    [setParams],
  );
  const update = useCallback(
    (patch: Partial<ListView<S>>) => write(writeListView({ ...readListView(latest.current, statuses), ...patch })),
    [write, statuses],
  );
  const clear = useCallback(() => write(new URLSearchParams()), [write]);
  return { view, update, clear };
}
