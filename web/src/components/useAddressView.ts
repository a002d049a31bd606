import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import { placeIn, withoutPlaceParams, withPlaceParams } from "../live/place";
import { AddressWrites } from "./addressWrites";

export type AddressView<V> = {
  view: V;
  /** Writes the view `next` makes of the latest one; the entry is replaced unless `push`. */
  change: (next: (latest: V) => V, push?: boolean) => void;
};

/**
 * A view kept in the address bar's search params, so it can be bookmarked, shared and
 * survives a reload. `read` and `write` must keep their identity between renders. The
 * business and mode in the address are the tab's, not the view's: every write keeps them.
 */
export function useAddressView<V>(
  read: (params: URLSearchParams) => V,
  write: (view: V) => URLSearchParams,
): AddressView<V> {
  const [params, setParams] = useSearchParams();
  const address = params.toString();
  // Reading by the address text keeps the view stable across renders with the same URL.
  const view = useMemo(() => read(new URLSearchParams(address)), [address, read]);
  const writes = useRef<AddressWrites | null>(null);
  writes.current ??= new AddressWrites(params);
  useEffect(() => writes.current?.landed(address), [address]);
  const change = useCallback(
    (next: (latest: V) => V, push = false) => {
      const current = writes.current;
      if (!current) return;
      const base = current.base();
      const written = withPlaceParams(withoutPlaceParams(write(next(read(base)))), placeIn(base));
      current.wrote(written);
      setParams(written, { replace: !push });
    },
    [read, write, setParams],
  );
  return { view, change };
}
