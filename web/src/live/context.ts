import { createContext, useContext } from "react";
import type { LiveClient } from "./client";

export const LiveClientContext = createContext<LiveClient | null>(null);

export function useLiveClient(): LiveClient {
  const client = useContext(LiveClientContext);
  if (!client) throw new Error("useLiveClient outside LiveClientContext");
  return client;
}
