import { useCallback } from "react";
import { emptyView, readListView, writeListView, type ListView } from "./listView";
import { useAddressView } from "./useAddressView";

export type UrlFilters<S extends string> = {
  view: ListView<S>;
  /** Changes some filters; the address is replaced, so typing does not fill the history. */
  update: (patch: Partial<ListView<S>>) => void;
  clear: () => void;
};

/** A list's filters kept in the address bar's search params (see listView.ts). */
export function useUrlFilters<S extends string>(statuses: readonly S[]): UrlFilters<S> {
  const read = useCallback((params: URLSearchParams) => readListView(params, statuses), [statuses]);
  const { view, change } = useAddressView(read, writeListView<S>);
  const update = useCallback((patch: Partial<ListView<S>>) => change((latest) => ({ ...latest, ...patch })), [change]);
  const clear = useCallback(() => change(() => emptyView<S>()), [change]);
  return { view, update, clear };
}
