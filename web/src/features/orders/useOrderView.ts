import { useCallback } from "react";
import { useAddressView } from "../../components/useAddressView";
import { readOrderView, writeOrderView, type OrderView } from "./orderView";

/** The orders view in the address bar; filters replace the entry, opening an order adds one. */
export function useOrderView() {
  const { view, change } = useAddressView(readOrderView, writeOrderView);
  const update = useCallback((patch: Partial<OrderView>) => change((latest) => ({ ...latest, ...patch })), [change]);
  const clear = useCallback(() => change(() => ({ search: "" })), [change]);
  const openOrder = useCallback(
    (order: string | undefined) => change((latest) => ({ ...latest, order }), order !== undefined),
    [change],
  );
  return { view, update, clear, openOrder };
}
