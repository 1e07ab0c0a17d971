import { v1EntryToJson, type V1Record } from "./format";

/**
 * v1 records as JSON lines (the v2 entry shape, one object a line). Malformed lines are left out of
 * the output and handed to `onMalformed`, so a conversion never hides them.
 */
export async function* v1ToJsonLines(records: AsyncIterable<V1Record>, onMalformed?: (line: number, reason: string) => void): AsyncGenerator<string> {
  for await (const r of records) {
    if (r.kind === "entry") yield JSON.stringify(v1EntryToJson(r)) + "\n";
    else onMalformed?.(r.line, r.reason);
  }
}
