import { useCallback, useEffect, useMemo, useRef } from "react";
import { useSearchParams } from "react-router";
import { readOrderView, writeOrderView, type OrderView } from "./orderView";

/** The orders view in the address bar; filters replace the entry, opening an order adds one. */
export function useOrderView() {
  const [params, setParams] = useSearchParams();
  const address = params.toString();
  const view = useMemo(() => readOrderView(new URLSearchParams(address)), [address]);
  // Two quick changes must each build on the last one written, not on the last render.
  const latest = useRef(view);
  useEffect(() => {
    latest.current = view;
  }, [view]);
  const write = useCallback(
    (next: OrderView, replace: boolean) => {
      latest.current = next;
      setParams(writeOrderView(next), { replace });
    },
    [setParams],
  );
  const update = useCallback((patch: Partial<OrderView>) => write({ ...latest.current, ...patch }, true), [write]);
  const clear = useCallback(() => write({ search: "" }, true), [write]);
  const openOrder = useCallback((order: string | undefined) => write({ ...latest.current, order }, order === undefined), [write]);
  return { view, update, clear, openOrder };
}
