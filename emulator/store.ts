import { DatabaseSync, type StatementSync } from "node:sqlite";

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

  constructor(readonly path: string) {
    this.db = new DatabaseSync(path);
    this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS objects (
        kind TEXT NOT NULL, id TEXT NOT NULL, parent TEXT, data TEXT NOT NULL,
        PRIMARY KEY (kind, id));
      CREATE INDEX IF NOT EXISTS objects_parent ON objects (kind, parent);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS sequences (kind TEXT PRIMARY KEY, next INTEGER NOT NULL);`);
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
  }

  delete(kind: string, id: string | number): boolean {
    this.derivedValues.delete(kind);
    return Number(this.statement("DELETE FROM objects WHERE kind = ? AND id = ?").run(kind, String(id)).changes) > 0;
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
