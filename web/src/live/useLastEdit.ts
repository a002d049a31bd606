import { useEffect, useState } from "react";
import type { HistoryRecordKind, RecordEdit } from "../protocol/wire";
import { useLiveClient } from "./context";

/**
 * Who last changed a record and which fields, asked once for each `version` the form sees move
 * (a teammate's save while it is open, a refused save's version); undefined until answered, or
 * when no version is given. A record whose history the member may not read stays undefined:
 * the form then says "a teammate".
 */
export function useLastEdit(kind: HistoryRecordKind, recordId: string, version: number | undefined): RecordEdit | undefined {
  const client = useLiveClient();
  const [answer, setAnswer] = useState<{ version: number; edit: RecordEdit } | undefined>(undefined);
  useEffect(() => {
    if (version === undefined) return;
    let current = true;
    client.query({ t: "GetLastEdit", recordKind: kind, recordId }).then(
      (reply) => {
        if (current && reply.t === "LastEdit") setAnswer({ version, edit: reply.edit });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, kind, recordId, version]);
  return answer !== undefined && answer.version === version ? answer.edit : undefined;
}
