import { AsyncLocalStorage } from "node:async_hooks";
import { Store } from "./store";

/**
 * The emulator's accounts: each one a store of its own (its keys, its objects, its id sequences), so nothing crosses
 * between them: an object of one account is a 404 with another account's key, as on bunny.net, where an API key
 * belongs to one account and every object to the account that made it.
 *
 * Surfaces read `ctx.store`; that is the store of the account the request's credentials belong to (the server
 * resolves it before the route runs and runs the route in it, see server.ts), or the first account outside a request
 * (admin routes, seeding). A single-account emulator behaves exactly as before: every request runs in the first one.
 *
 * Stores of added accounts live beside the first one: `<dataPath>.account-<n>` (or in memory), and are opened again
 * at start (the first store remembers how many were added).
 */
export class Accounts {
  private readonly current = new AsyncLocalStorage<Store>();
  private readonly all: Store[];

  constructor(readonly first: Store) {
    this.all = [first];
    const added = first.getMeta<number>(ADDED_ACCOUNTS) ?? 0;
    for (let n = 2; n <= added + 1; n++) this.all.push(this.sharing(new Store(storePath(first.path, n))));
  }

  /** The store of the account the running request (or seeding) is in. */
  get store(): Store {
    return this.current.getStore() ?? this.first;
  }

  stores(): readonly Store[] {
    return this.all;
  }

  /** Runs `fn` as account `store` (its result, also a promise, keeps that account for everything it awaits). */
  run<T>(store: Store, fn: () => T): T {
    // Already that account (always, with one account): entering it again would cost a context frame per request.
    if (this.store === store) return fn();
    return this.current.run(store, fn);
  }

  /** Opens the store of a new account (empty: the caller migrates and seeds it). */
  add(): Store {
    const store = this.sharing(new Store(storePath(this.first.path, this.all.length + 1)));
    store.wipe();
    this.all.push(store);
    this.first.setMeta(ADDED_ACCOUNTS, this.all.length - 1);
    return store;
  }

  /** Back to the first account alone (`/_emulator/reset`): the added accounts' stores are closed and forgotten. */
  dropAdded(): void {
    for (const store of this.all.splice(1)) store.close();
    this.first.setMeta(ADDED_ACCOUNTS, 0);
  }

  /** Ids are unique across accounts (see Store.shareSequencesWith). */
  private sharing(store: Store): Store {
    store.shareSequencesWith(this.first);
    return store;
  }

  close(): void {
    for (const store of this.all) store.close();
  }
}

const ADDED_ACCOUNTS = "addedAccounts";

function storePath(firstPath: string, n: number): string {
  return firstPath === ":memory:" ? ":memory:" : `${firstPath}.account-${n}`;
}
