import assert from "node:assert/strict";

/**
 * A documented GET of the emulated API (`path` from its root, e.g. `/pullzone/1` or `/mc/apps/x`), with the account
 * key or `key`: the JSON body, or undefined on 404; any other status fails the test. Tests read what the API holds
 * this way rather than through our client, so a misreading on one side fails on the other.
 */
export async function documentedGet(emu: { url: string; fixtures: { accessKey: string } }, path: string, key = emu.fixtures.accessKey): Promise<Record<string, unknown> | undefined> {
  const res = await fetch(`${emu.url}${path}`, { headers: { AccessKey: key } });
  if (res.status === 404) return undefined;
  assert.equal(res.status, 200, `GET ${path}`);
  return (await res.json()) as Record<string, unknown>;
}
