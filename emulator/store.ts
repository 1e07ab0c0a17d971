import { DatabaseSync, type StatementSync } from "node:sqlite";

/** An index of one kind's objects by keys derived from them (see `defineIndex`). */
interface IndexDefinition {
  name: string;
  keysOf: (data: unknown) => string[];
}

const INDEXES = new Map<string, IndexDefinition[]>();
/** Bumped when a definition's keys change, so a store built with older ones rebuilds its index rows on first use. */
const INDEX_VERSION = 1;

/**
 * Declares an index of `kind`'s objects by the keys `keysOf` derives from each (a pull zone's hostnames): the store
 * keeps them in `object_keys` as objects are put and deleted, so `idsByKey` finds the objects holding a key with one
 * indexed read instead of parsing every object of the kind (which grew with the account: issue 36). Declared once,
 * at module load, by the surface that owns the kind; a store that holds objects from before the index (a data file
 * of an older emulator) indexes them on its first look-up.
 */
export function defineIndex<T>(kind: string, name: string, keysOf: (data: T) => string[]): void {
  const list = INDEXES.get(kind) ?? [];
  if (list.some((i) => i.name === name)) return;
  list.push({ name, keysOf: keysOf as (data: unknown) => string[] });
  INDEXES.set(kind, list);
}

/**
 * The emulator's state: one SQLite file (or `:memory:`). Most objects live in one document
 * table keyed by (kind, id) with an optional parent; a surface that needs indexes of its own
 * (the CDN logs) creates its own tables through `db`.
 */
export class Store {
  readonly db: DatabaseSync;
  /** Whose id sequences this store draws from: its own, or the first account's (ids are unique across accounts). */
  private sequences: Store = this;
  /** Statements prepared once per SQL text: preparing one on every call was the emulator's largest cost per request. */
  private readonly statements = new Map<string, StatementSync>();
  /** Values derived from objects, by kind then name (see `derived`). */
  private readonly derivedValues = new Map<string, Map<string, unknown>>();
  /** Kinds whose index rows are known complete in this store (see `ensureIndexed`). */
  private readonly indexedKinds = new Set<string>();

  constructor(readonly path: string) {
    this.db = new DatabaseSync(path);
    this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS objects (
        kind TEXT NOT NULL, id TEXT NOT NULL, parent TEXT, data TEXT NOT NULL,
        PRIMARY KEY (kind, id));
      CREATE INDEX IF NOT EXISTS objects_parent ON objects (kind, parent);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS sequences (kind TEXT PRIMARY KEY, next INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS object_keys (
        kind TEXT NOT NULL, name TEXT NOT NULL, key TEXT NOT NULL, id TEXT NOT NULL,
        PRIMARY KEY (kind, name, key, id));
      CREATE INDEX IF NOT EXISTS object_keys_object ON object_keys (kind, id);`);
  }

  /**
   * `compute()`'s value, kept until an object of `kind` is written (put, delete, wipe, a rolled-back transaction): for
   * what every request derives from a few objects (the account's keys). Objects are written only through this class.
   * The value is shared: callers must not change it.
   */
  derived<T>(kind: string, name: string, compute: () => T): T {
    let values = this.derivedValues.get(kind);
    if (values === undefined) {
      values = new Map();
      this.derivedValues.set(kind, values);
    }
    if (values.has(name)) return values.get(name) as T;
    const value = compute();
    values.set(name, value);
    return value;
  }

  /** The prepared statement for `sql`, prepared on its first use (SQLite re-prepares it itself after a schema change). */
  statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  get<T>(kind: string, id: string | number): T | undefined {
    const row = this.statement("SELECT data FROM objects WHERE kind = ? AND id = ?").get(kind, String(id)) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  /** All objects of a kind (optionally of one parent), in id insertion order. */
  list<T>(kind: string, parent?: string | number): T[] {
    const rows = (
      parent === undefined
        ? this.statement("SELECT data FROM objects WHERE kind = ? ORDER BY rowid").all(kind)
        : this.statement("SELECT data FROM objects WHERE kind = ? AND parent = ? ORDER BY rowid").all(kind, String(parent))
    ) as { data: string }[];
    return rows.map((r) => JSON.parse(r.data) as T);
  }

  put(kind: string, id: string | number, data: unknown, parent?: string | number): void {
    this.derivedValues.delete(kind);
    this
      .statement("INSERT INTO objects (kind, id, parent, data) VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET data = excluded.data, parent = excluded.parent")
      .run(kind, String(id), parent === undefined ? null : String(parent), JSON.stringify(data));
    this.reindex(kind, String(id), data);
  }

  delete(kind: string, id: string | number): boolean {
    this.derivedValues.delete(kind);
    this.reindex(kind, String(id), undefined);
    return Number(this.statement("DELETE FROM objects WHERE kind = ? AND id = ?").run(kind, String(id)).changes) > 0;
  }

  /** The ids of `kind`'s objects whose index `name` holds `key` (see `defineIndex`), in no particular order. */
  idsByKey(kind: string, name: string, key: string): string[] {
    this.ensureIndexed(kind);
    const rows = this.statement("SELECT id FROM object_keys WHERE kind = ? AND name = ? AND key = ?").all(kind, name, key) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Replaces the index rows of one object (none when it is deleted). */
  private reindex(kind: string, id: string, data: unknown): void {
    const indexes = INDEXES.get(kind);
    if (indexes === undefined) return;
    this.statement("DELETE FROM object_keys WHERE kind = ? AND id = ?").run(kind, id);
    if (data === undefined) return;
    const insert = this.statement("INSERT OR IGNORE INTO object_keys (kind, name, key, id) VALUES (?, ?, ?, ?)");
    for (const index of indexes) for (const key of index.keysOf(data)) insert.run(kind, index.name, key, id);
  }

  /** Indexes the objects of `kind` written before its index existed (once per store and index version). */
  private ensureIndexed(kind: string): void {
    if (this.indexedKinds.has(kind)) return;
    const marker = `indexed:${kind}`;
    this.indexedKinds.add(kind);
    if (this.getMeta<number>(marker) === INDEX_VERSION) return;
    // A savepoint, not BEGIN: the first look-up may come inside a route's transaction.
    this.db.exec("SAVEPOINT index_build");
    try {
      const rows = this.statement("SELECT id, data FROM objects WHERE kind = ?").all(kind) as { id: string; data: string }[];
      for (const row of rows) this.reindex(kind, row.id, JSON.parse(row.data));
      this.setMeta(marker, INDEX_VERSION);
      this.db.exec("RELEASE index_build");
    } catch (e) {
      this.db.exec("ROLLBACK TO index_build; RELEASE index_build");
      this.indexedKinds.delete(kind);
      throw e;
    }
  }

  /** A numeric id that is never reused for that kind, even after deletes and restarts. */
  nextId(kind: string, start = 1000): number {
    if (this.sequences !== this) return this.sequences.nextId(kind, start);
    // One statement: the kind's next id (`start` the first time), the sequence moved on past it.
    const row = this.statement("INSERT INTO sequences (kind, next) VALUES (?, ? + 1) ON CONFLICT (kind) DO UPDATE SET next = next + 1 RETURNING next - 1 AS id").get(kind, start) as { id: number };
    return Number(row.id);
  }

  /**
   * Draws ids from `other`'s sequences from now on: as on bunny.net, where ids are global, no two accounts hold an
   * object of one kind under the same id (so another account's id is a 404, never an object of one's own).
   */
  shareSequencesWith(other: Store): void {
    this.sequences = other;
  }

  getMeta<T>(key: string): T | undefined {
    const row = this.statement("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  setMeta(key: string, value: unknown): void {
    this.statement("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, JSON.stringify(value));
  }

  /** Runs `fn` in one transaction (seeding tens of thousands of rows is fast this way). */
  transaction<T>(fn: () => T): T {
    this.db.exec("BEGIN");
    try {
      const result = fn();
      this.db.exec("COMMIT");
      return result;
    } catch (e) {
      this.db.exec("ROLLBACK");
      this.derivedValues.clear();
      throw e;
    }
  }

  /** Empties every table, including surface-owned ones. */
  wipe(): void {
    const tables = this.statement("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
    this.transaction(() => {
      for (const t of tables) this.db.exec(`DELETE FROM "${t.name}"`);
    });
    this.derivedValues.clear();
  }

  close(): void {
    this.statements.clear();
    this.derivedValues.clear();
    this.db.close();
  }
}
