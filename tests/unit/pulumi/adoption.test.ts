import assert from "node:assert/strict";
import { z } from "zod";
import { adoptedInThisCommand, createOrAdopt, forgetAdoptions } from "bunnynet-pulumi/dist/pulumi/adoption.js";
import type { ResourceContext, ResourceDefinition } from "bunnynet-pulumi/dist/pulumi/definition.js";
import { defineResource } from "bunnynet-pulumi/dist/pulumi/registry.js";
import { AlreadyExistsError, ServerError } from "bunnynet-pulumi/dist/http/errors.js";

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

describe("createOrAdopt: an object an interrupted up left is taken back without adoptExisting (takesBack)", () => {
  const ruleInputs = z.object({ zone: z.number(), label: z.string(), colour: z.string(), pages: z.string().optional(), adoptExisting: z.boolean().default(false) });
  type Rule = z.output<typeof ruleInputs>;
  type RuleObj = Rule & { id: number };

  /** A kind whose look-up finds `existing` (or whose create the API refuses as a duplicate, then finds it). */
  function kind(existing: RuleObj | undefined, options: { takesBack?: "identical" | { except: readonly string[] }; refusesDuplicates?: boolean } = {}) {
    const calls: string[] = [];
    const def = {
      type: "Rule",
      inputs: ruleInputs,
      computedOutputs: [],
      replaceOnChanges: [],
      identity: ["zone", "label"],
      setOnAdoption: ["pages"],
      ...options,
      describe: (obj: RuleObj, requested: Rule) => ({ id: String(obj.id), inputs: { ...requested, zone: obj.zone, label: obj.label, colour: obj.colour, pages: obj.pages }, outputs: {} }),
      find: async () => {
        calls.push("find");
        return existing;
      },
      create: async (_ctx: ResourceContext, i: Rule) => {
        calls.push("create");
        if (options.refusesDuplicates && existing) throw new AlreadyExistsError({ method: "POST", path: "/rules", status: 409, serverMessage: "exists" });
        return { ...i, id: 9 };
      },
      update: async (_ctx: ResourceContext, id: string, _state: unknown, i: Rule) => {
        calls.push(`update ${i.pages}`);
        return { ...i, id: Number(id) };
      },
      get: async () => undefined,
      delete: async () => undefined,
    } as unknown as ResourceDefinition<typeof ruleInputs.shape, RuleObj, object>;
    return { def, calls };
  }
  const declared: Rule = { zone: 1, label: "headers", colour: "blue", adoptExisting: false };

  it("an identical object is taken back, nothing created; without takesBack the same object is refused with the adoptExisting advice", async () => {
    const identical = kind({ ...declared, id: 4 }, { takesBack: "identical" });
    assert.equal((await createOrAdopt(identical.def, ctx, declared)).id, "4");
    assert.deepEqual(identical.calls, ["find"]);

    const plain = kind({ ...declared, id: 4 });
    await assert.rejects(createOrAdopt(plain.def, ctx, declared), /^Error: Rule zone=1, label="headers" already exists \(id 4\)\. To manage it with this resource, set adoptExisting: true/);
  });

  it("a taken-back object is remembered as adopted by this command, so the delete of a replaced original leaves it (pulumi up --replace)", async () => {
    forgetAdoptions();
    const identical = kind({ ...declared, id: 6 }, { takesBack: "identical" });
    assert.equal(adoptedInThisCommand("Rule", "6"), false);
    await createOrAdopt(identical.def, ctx, declared);
    assert.equal(adoptedInThisCommand("Rule", "6"), true);
    forgetAdoptions();
    assert.equal(adoptedInThisCommand("Rule", "6"), false);
  });

  it("an object a create made before its answer was lost is kept but not remembered as adopted: a later delete of it deletes it", async () => {
    forgetAdoptions();
    let made: RuleObj | undefined;
    const lost = kind(undefined);
    const def = {
      ...lost.def,
      find: async () => made,
      create: async (_ctx: ResourceContext, i: Rule) => {
        made = { ...i, id: 8 };
        throw new ServerError({ method: "POST", path: "/rules", status: 502, serverMessage: "bad gateway" });
      },
    } as typeof lost.def;
    assert.equal((await createOrAdopt(def, ctx, declared)).id, "8");
    assert.equal(adoptedInThisCommand("Rule", "8"), false);
  });

  it("an object that differs in any input is never taken back: the same refusal as without takesBack", async () => {
    for (const takesBack of ["identical", { except: ["pages"] }] as const) {
      const different = kind({ ...declared, colour: "red", id: 4 }, { takesBack });
      await assert.rejects(createOrAdopt(different.def, ctx, declared), /already exists \(id 4\)\. To manage it with this resource, set adoptExisting: true/);
      assert.deepEqual(different.calls, ["find"], "nothing created or changed");
    }
    // "identical" takes nothing that differs, not even an input adoption would set.
    const pagesDiffer = kind({ ...declared, pages: "old", id: 4 }, { takesBack: "identical" });
    await assert.rejects(createOrAdopt(pagesDiffer.def, ctx, { ...declared, pages: "new" }), /set adoptExisting: true/);
  });

  it("`except` inputs (what the create sets after making the object) may differ: the object is taken back and update sets them", async () => {
    const cut = kind({ ...declared, id: 4 }, { takesBack: { except: ["pages"] } });
    const taken = await createOrAdopt(cut.def, ctx, { ...declared, pages: "block page" });
    assert.equal(taken.id, "4");
    assert.deepEqual(cut.calls, ["find", "update block page"]);
  });

  it("where the API refuses the duplicate, the refusal's look-up takes it back the same way, and refuses one that differs", async () => {
    const same = kind({ ...declared, id: 5 }, { takesBack: "identical", refusesDuplicates: true });
    assert.equal((await createOrAdopt(same.def, ctx, declared)).id, "5");
    assert.deepEqual(same.calls, ["create", "find"]);
    const other = kind({ ...declared, colour: "red", id: 5 }, { takesBack: "identical", refusesDuplicates: true });
    await assert.rejects(createOrAdopt(other.def, ctx, declared), /already exists \(id 5\)\. To manage it with this resource, set adoptExisting: true/);
  });

  it("a definition whose `except` input update would not set is refused when it is defined", () => {
    assert.throws(
      () =>
        defineResource<object>()({
          type: "TakesBackUnsettled",
          inputs: ruleInputs,
          computedOutputs: [],
          replaceOnChanges: ["zone", "label", "colour", "pages"],
          identity: ["zone", "label"],
          takesBack: { except: ["pages"] },
          describe: (obj: RuleObj, requested: Rule) => ({ id: String(obj.id), inputs: requested, outputs: {} }),
          create: async () => ({ ...declared, id: 1 }),
          get: async () => undefined,
          delete: async () => undefined,
        } as never),
      /TakesBackUnsettled: takesBack excepts pages, which update must then set: list them in setOnAdoption/,
    );
  });
});

describe("createOrAdopt: two deployments racing past the look-up (findAll) never take back each other's object", () => {
  it("the yielding creator deletes its own and is refused with the adoptExisting advice, even for an identical object of a kind that takesBack", async () => {
    const calls: string[] = [];
    const def = {
      type: "Raced",
      inputs,
      computedOutputs: [],
      replaceOnChanges: [],
      identity: ["name"],
      takesBack: "identical",
      describe: (obj: Obj, requested: z.output<typeof inputs>) => ({ id: String(obj.id), inputs: { ...requested, name: obj.name }, outputs: {} }),
      find: async () => undefined,
      findAll: async () => [
        { id: 4, name: "a" },
        { id: 9, name: "a" },
      ],
      create: async () => ({ id: 9, name: "a" }),
      get: async () => undefined,
      delete: async (_ctx: ResourceContext, id: string) => void calls.push(`delete ${id}`),
    } as unknown as ResourceDefinition<typeof inputs.shape, Obj, object>;
    await assert.rejects(createOrAdopt(def, ctx, { name: "a", adoptExisting: false }), /already exists \(id 4\)\. To manage it with this resource, set adoptExisting: true.*another deployment created it at the same time/s);
    assert.deepEqual(calls, ["delete 9"]);
  });
});

describe("createOrAdopt: an object taken over is brought to where a create leaves it (whenFound)", () => {
  it("whenFound runs on the object found, and the object it gives is the one described; nothing is created", async () => {
    const calls: string[] = [];
    const def = {
      type: "Deploying",
      inputs,
      computedOutputs: [],
      replaceOnChanges: [],
      identity: ["name"],
      takesBack: "identical",
      describe: (obj: Obj & { status: string }, requested: z.output<typeof inputs>) => ({ id: String(obj.id), inputs: { ...requested, name: obj.name }, outputs: { status: obj.status } }),
      find: async () => ({ id: 4, name: "a", status: "progressing" }),
      whenFound: async (_ctx: ResourceContext, obj: Obj) => {
        calls.push(`whenFound ${obj.id}`);
        return { ...obj, status: "active" };
      },
      create: async () => void calls.push("create"),
      get: async () => undefined,
      delete: async () => undefined,
    } as unknown as ResourceDefinition<typeof inputs.shape, Obj, object>;
    const taken = await createOrAdopt(def, ctx, { name: "a", adoptExisting: false });
    assert.deepEqual([taken.id, (taken.outputs as { status: string }).status], ["4", "active"]);
    assert.deepEqual(calls, ["whenFound 4"]);
  });
});
