import assert from "node:assert/strict";
import { Store, defineIndex } from "bunnynet-emulator/dist/store.js";

/** The emulator's store: ids never reused, and values derived from objects dropped as soon as those objects change. */
describe("unit: emulator store", () => {
  let store: Store;
  beforeEach(() => {
    store = new Store(":memory:");
  });
  afterEach(() => store.close());

  it("numbers each kind from its start, one after another, never reusing an id after a delete", () => {
    assert.deepEqual([store.nextId("zone", 1000), store.nextId("zone", 1000), store.nextId("key", 5), store.nextId("zone", 1000)], [1000, 1001, 5, 1002]);
    store.put("zone", 1002, {});
    store.delete("zone", 1002);
    assert.equal(store.nextId("zone", 1000), 1003);
    assert.equal(store.nextId("key"), 6);
  });

  it("keeps a derived value until an object of its kind is put, deleted, wiped or rolled back", () => {
    let computed = 0;
    const names = () => store.derived("apikey", "names", () => (computed++, store.list<{ Name: string }>("apikey").map((k) => k.Name)));
    store.put("apikey", 1, { Name: "a" });
    assert.deepEqual(names(), ["a"]);
    assert.deepEqual(names(), ["a"]);
    store.put("other", 1, { Name: "x" });
    assert.deepEqual(names(), ["a"]);
    assert.equal(computed, 1);

    store.put("apikey", 2, { Name: "b" });
    assert.deepEqual(names(), ["a", "b"]);
    store.delete("apikey", 1);
    assert.deepEqual(names(), ["b"]);
    assert.throws(() =>
      store.transaction(() => {
        store.put("apikey", 3, { Name: "c" });
        assert.deepEqual(names(), ["b", "c"]);
        throw new Error("rolled back");
      }),
    );
    assert.deepEqual(names(), ["b"]);
    store.wipe();
    assert.deepEqual(names(), []);
    assert.equal(computed, 6);
  });

  describe("indexes (defineIndex)", () => {
    before(() => defineIndex<{ names: string[] }>("indexed", "name", (o) => o.names));

    it("follow every put and delete: a key finds the objects holding it, and no other", () => {
      store.put("indexed", 1, { names: ["a", "b"] });
      store.put("indexed", 2, { names: ["b"] });
      assert.deepEqual(store.idsByKey("indexed", "name", "b").sort(), ["1", "2"]);
      store.put("indexed", 1, { names: ["c"] });
      assert.deepEqual(store.idsByKey("indexed", "name", "a"), []);
      assert.deepEqual(store.idsByKey("indexed", "name", "c"), ["1"]);
      store.delete("indexed", 2);
      assert.deepEqual(store.idsByKey("indexed", "name", "b"), []);
    });

    it("index objects written before the index existed on first use, also inside a transaction", () => {
      store.put("indexed", 8, { names: ["old"] });
      // As a data file of an emulator without the index: no rows, no marker (this store has not looked a key up yet).
      store.db.exec("DELETE FROM object_keys; DELETE FROM meta WHERE key LIKE 'indexed:%'");
      assert.deepEqual(store.transaction(() => store.idsByKey("indexed", "name", "old")), ["8"]);
      assert.deepEqual(store.idsByKey("indexed", "name", "old"), ["8"]);
    });
  });
});
