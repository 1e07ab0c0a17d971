import assert from "node:assert/strict";
import { Store } from "bunnynet-emulator/dist/store.js";

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
});
