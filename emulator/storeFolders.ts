import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorContext } from "./context";
import type { Store } from "./store";

/**
 * Folders of files kept beside an account's store, for bodies too large for the store's documents (the Storage API's
 * files, tus uploads in progress), one per purpose (`name`): `<dataPath>.<name>/` beside a data file, so they last as
 * the store does, or for an in-memory store a temporary folder (`bunnynet-emulator-<name>-…`) that
 * `removeTemporaryFolders` deletes when the emulator closes.
 */

/** By emulator, then by purpose, then by account's store (accounts.ts): one account never touches another's files. */
const foldersOf = new WeakMap<EmulatorContext, Map<string, Map<Store, string>>>();

function folders(ctx: EmulatorContext, name: string): Map<Store, string> {
  let byName = foldersOf.get(ctx);
  if (!byName) foldersOf.set(ctx, (byName = new Map()));
  let byStore = byName.get(name);
  if (!byStore) byName.set(name, (byStore = new Map()));
  return byStore;
}

/** The folder of `name` of the request's store (`ctx.store`), made on first use. */
export function storeFolder(ctx: EmulatorContext, name: string): string {
  let dir = folders(ctx, name).get(ctx.store);
  if (!dir) {
    dir = ctx.store.path === ":memory:" ? mkdtempSync(join(tmpdir(), `bunnynet-emulator-${name}-`)) : `${ctx.store.path}.${name}`;
    mkdirSync(dir, { recursive: true });
    folders(ctx, name).set(ctx.store, dir);
  }
  return dir;
}

/** The folder of `name` the store uses or would use, without making it; undefined for an in-memory store that has none yet. */
function knownStoreFolder(ctx: EmulatorContext, name: string): string | undefined {
  return folders(ctx, name).get(ctx.store) ?? (ctx.store.path === ":memory:" ? undefined : `${ctx.store.path}.${name}`);
}

/** Empties the folder of `name`, if the store has one: a fresh store (first start, or a reset) keeps no bodies from before. */
export function resetStoreFolder(ctx: EmulatorContext, name: string): void {
  const dir = knownStoreFolder(ctx, name);
  if (!dir) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

/** Deletes the temporary folders of `name` (those of in-memory stores) and forgets every folder of `name`. */
export function removeTemporaryFolders(ctx: EmulatorContext, name: string): void {
  for (const [store, dir] of folders(ctx, name)) if (store.path === ":memory:") rmSync(dir, { recursive: true, force: true });
  folders(ctx, name).clear();
}
