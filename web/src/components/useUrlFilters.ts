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
  // The router's functional update reads the params of the last render, so two changes
  // before the next render would lose the first: each change builds on the last one written.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const update = useCallback(
    (patch: Partial<ListView<S>>) => {
      const next = writeListView({ ...readListView(latest.current, statuses), ...patch });
      latest.current = next;
      setParams(next, { replace: true });
    },
    [setParams, statuses],
  );
  const clear = useCallback(() => {
    latest.current = new URLSearchParams();
    setParams(new URLSearchParams(), { replace: true });
  }, [setParams]);
  return { view, update, clear };
}
