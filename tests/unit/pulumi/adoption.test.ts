import assert from "node:assert/strict";
import { z } from "zod";
import { createOrAdopt } from "bunnynet-pulumi/dist/pulumi/adoption.js";
import type { ResourceContext, ResourceDefinition } from "bunnynet-pulumi/dist/pulumi/definition.js";

/** Lets every pending promise callback run (no timers involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const inputs = z.object({ name: z.string(), adoptExisting: z.boolean().default(false) });
type Obj = { id: number; name: string };

/**
 * A definition whose look-up (`find`) and refusal reads (`beforeCreate`) stay in flight until the test settles them,
 * recording what was sent when.
 */
function heldDefinition() {
  const events: string[] = [];
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const hold = <T>(name: string) => {
    events.push(`sent ${name}`);
    return new Promise<T>((resolve, reject) => pending.set(name, { resolve: resolve as (v: unknown) => void, reject }));
  };
  const def = {
    type: "Thing",
    inputs,
    computedOutputs: [],
    replaceOnChanges: [],
    identity: ["name"],
    describe: (obj: Obj, requested: z.output<typeof inputs>) => ({ id: String(obj.id), inputs: { ...requested, name: obj.name }, outputs: {} }),
    find: () => hold<Obj | undefined>("find"),
    beforeCreate: () => hold<void>("beforeCreate"),
    create: async (_ctx: ResourceContext, i: z.output<typeof inputs>) => {
      events.push("create");
      return { id: 7, name: i.name };
    },
    get: async () => undefined,
    delete: async () => undefined,
  } as unknown as ResourceDefinition<typeof inputs.shape, Obj, object>;
  const answer = (name: string, value?: unknown) => pending.get(name)!.resolve(value);
  const fail = (name: string, message: string) => pending.get(name)!.reject(new Error(message));
  return { def, events, answer, fail };
}

const ctx = {} as ResourceContext;

describe("createOrAdopt: the reads that may refuse a create go with the look-up", () => {
  it("sends them at once with the look-up, and creates once neither found a reason not to", async () => {
    const { def, events, answer } = heldDefinition();
    const created = createOrAdopt(def, ctx, { name: "a", adoptExisting: false });
    await settle();
    assert.deepEqual(events, ["sent beforeCreate", "sent find"], "both in flight before either answered");
    answer("beforeCreate");
    await settle();
    assert.deepEqual(events, ["sent beforeCreate", "sent find"], "no create before the look-up answered");
    answer("find", undefined);
    assert.equal((await created).id, "7");
    assert.deepEqual(events, ["sent beforeCreate", "sent find", "create"]);
  });

  it("a refusal stops the create; when both fail, the look-up's failure is the one reported, and nothing goes unhandled", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      const refused = heldDefinition();
      const a = createOrAdopt(refused.def, ctx, { name: "a", adoptExisting: false });
      await settle();
      refused.fail("beforeCreate", "a secret has that name");
      refused.answer("find", undefined);
      await assert.rejects(a, /a secret has that name/);
      assert.ok(!refused.events.includes("create"));

      const both = heldDefinition();
      const b = createOrAdopt(both.def, ctx, { name: "b", adoptExisting: false });
      await settle();
      both.fail("beforeCreate", "secrets: 404");
      await settle();
      both.fail("find", "script: 404");
      await assert.rejects(b, /script: 404/);
      await settle();
    } finally {
      process.off("unhandledRejection", listener);
    }
    assert.deepEqual(unhandled, []);
  });

  it("an object found is adopted whatever the refusal reads say; a program asking to adopt sends them only when nothing was found", async () => {
    const found = heldDefinition();
    const a = createOrAdopt(found.def, ctx, { name: "a", adoptExisting: true });
    await settle();
    assert.deepEqual(found.events, ["sent find"]);
    found.answer("find", { id: 3, name: "a" });
    assert.equal((await a).id, "3");

    const missing = heldDefinition();
    const b = createOrAdopt(missing.def, ctx, { name: "b", adoptExisting: true });
    await settle();
    missing.answer("find", undefined);
    await settle();
    assert.deepEqual(missing.events, ["sent find", "sent beforeCreate"]);
    missing.answer("beforeCreate");
    assert.equal((await b).id, "7");
  });
});
