import { useAtom, useAtomValue } from "jotai";
import { useEffect } from "react";
import { businessDateAtom, entityVersionAtom } from "./cache";
import { useLiveClient } from "./context";

/**
 * The business date of the tab's stream, as the server keeps it: its calendar in live mode
 * (pinned on a demo server), the test clock in test mode. Screens that default to "today" or
 * "this month" take it from here, never from the browser's clock, so a statement, an export or
 * a chart opens on the dates the records were written with. Undefined until the server says.
 */
export function useBusinessToday(): string | undefined {
  const client = useLiveClient();
  const [today, setToday] = useAtom(businessDateAtom);
  const version = useAtomValue(entityVersionAtom);

  // Nothing told this tab the date yet (no dashboard, no clock move): ask for it. Every member
  // may, whatever their role reads.
  useEffect(() => {
    if (today !== undefined) return;
    let current = true;
    client.query({ t: "GetBusinessDate" }).then(
      (body) => {
        if (current && body.t === "BusinessDate") setToday((known) => known ?? body.today);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, today, version, setToday]);

  return today;
}
