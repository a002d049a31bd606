import { PAYMENT_METHODS } from "../../components/listView";
import { ORDER_PAGE_METHODS } from "../../components/payPageMethods";
import type { OrderFilter, OrderStatus, PaymentMethod } from "../../protocol/wire";

export const ORDER_STATUSES: readonly OrderStatus[] = ["pending", "paid", "failed", "refunded", "cancelled", "abandoned"];
/** Methods an order can be paid by: what pay pages take money by (card-on-file charges are cards). */
export const ORDER_METHODS: readonly PaymentMethod[] = PAYMENT_METHODS.filter((method) => ORDER_PAGE_METHODS.includes(method));

/** The orders list's filters and open order, as the address bar holds them. */
export type OrderView = { status?: OrderStatus; method?: PaymentMethod; search: string; pageId?: string; order?: string };

function oneOf<T extends string>(list: readonly T[], value: string | null): T | undefined {
  return list.find((item) => item === value);
}

/** Reads a bookmarked or shared address; anything it does not understand is left out. */
export function readOrderView(params: URLSearchParams): OrderView {
  const view: OrderView = { search: params.get("q") ?? "" };
  const status = oneOf(ORDER_STATUSES, params.get("status"));
  const method = oneOf(ORDER_METHODS, params.get("method"));
  const pageId = params.get("page")?.trim();
  const order = params.get("order")?.trim();
  if (status) view.status = status;
  if (method) view.method = method;
  if (pageId) view.pageId = pageId;
  if (order) view.order = order;
  return view;
}

/** The address of a view: empty values stay out, so links stay short. */
export function writeOrderView(view: OrderView): URLSearchParams {
  const params = new URLSearchParams();
  const put = (key: string, value: string | undefined) => {
    if (value) params.set(key, value);
  };
  put("q", view.search.trim() ? view.search : undefined);
  put("status", view.status);
  put("method", view.method);
  put("page", view.pageId);
  put("order", view.order);
  return params;
}

/** The server-side filter of a view: the open order is not a filter. */
export function orderFilterOf(view: OrderView): OrderFilter {
  const filter: OrderFilter = {};
  const search = view.search.trim();
  if (view.status) filter.status = view.status;
  if (view.method) filter.method = view.method;
  if (view.pageId) filter.pageId = view.pageId;
  if (search) filter.search = search;
  return filter;
}

export function isOrderFiltered(view: OrderView): boolean {
  return Object.keys(orderFilterOf(view)).length > 0;
}

/** Which actions the server allows on an order in this status. */
export function orderActions(status: OrderStatus): ("refund" | "cancel")[] {
  if (status === "paid") return ["refund"];
  if (status === "pending") return ["cancel"];
  return [];
}
