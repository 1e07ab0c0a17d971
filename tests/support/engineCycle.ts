import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestEmulator } from "./emulator";
import { PulumiCliStack, pulumiCliUnavailable } from "./pulumiCli";

/**
 * A stack of a program run by the real Pulumi CLI (tests/support/pulumiCli.ts) against an emulator, with the steps of
 * each command read from the engine's own JSON, and the checks tests/engine/* repeat for every program: an unchanged
 * `up`, a refresh that finds no drift, a preview that plans nothing.
 *
 * What the engine reports, and where (pulumi/pulumi at v3.259.0; the CLI run is v3.276.0):
 * - `up --json`, `refresh --json`, `destroy --json` print the engine's events, one JSON object a line
 *   (pkg/backend/display/json.go:139 `ShowJSONEvents`); each step first as a `resourcePreEvent` whose `metadata.op`
 *   is the step's op, then, when it completes, a `resOutputsEvent` (pkg/engine/events.go:512 `makeStepEventMetadata`,
 *   :592 and :605).
 * - `preview --json` prints one document, `{ steps: [{ op, urn, … }], changeSummary }`
 *   (pkg/backend/display/json.go:161 `ShowPreviewDigest`).
 * - A replacement is three steps of one URN: `create-replacement`, `replace`, `delete-replaced`
 *   (pkg/resource/deploy/step_generator.go:1503-1504 and :2145); counted here as one `replace`.
 * - A refresh step's result is `same`, `update` (drift) or `delete` (gone): pkg/resource/deploy/step.go:1511
 *   `RefreshStep.ResultOp`, decided by the provider's Diff of the read state against the stored inputs
 *   (step.go:1676-1700, `diffResource` with the read inputs in the place of the old ones), not by comparing outputs.
 *   The outputs event carries it (pkg/engine/events.go:592 `resourceOutputsEvent`), after the `refresh` pre-event.
 * - `--expect-no-changes` fails a command whose changes hold any op but same or read (pkg/engine/update.go:531
 *   `HasChanges`; refresh.go:371 for refresh).
 */

/** Skips the suite, printing why, where the Pulumi CLI cannot run (as tests/pulumi/pulumiCli.test.ts does). */
export function skipWithoutCli(ctx: Mocha.Context): void {
  const reason = pulumiCliUnavailable();
  if (reason) {
    console.log(`      skipped: ${reason}`);
    ctx.skip();
  }
}

/** The ops one command's steps took, by resource name (the stack itself and default providers left out). */
export type Ops = Record<string, string>;

const REPLACEMENT_OPS = new Set(["create-replacement", "replace", "delete-replaced", "discard-replaced"]);

/**
 * Folds steps (`{op, urn}` in the order the engine reported them) into one op per resource name: the last one, but
 * a change is not undone by a later `same` (`refresh --run-program` follows a refresh step that found the resource
 * gone with the program's registration of it, a Same or skipped step: step_generator.go:997-1015; `up --refresh`
 * follows a drift with the update's step) and a replacement's steps count as one `replace`.
 */
export function opsOf(steps: { op: string; urn: string }[]): Ops {
  const ops: Ops = {};
  for (const { op, urn } of steps) {
    const [, type, name] = /::([^:]+(?::[^:]+)*)::([^:]+)$/.exec(urn) ?? [];
    if (type === "pulumi:pulumi:Stack" || (type?.startsWith("pulumi:providers:") && name.startsWith("default"))) continue;
    if (REPLACEMENT_OPS.has(op) || ops[name] === "replace") ops[name] = "replace";
    else if (op !== "same" || ops[name] === undefined || ops[name] === "refresh") ops[name] = op;
  }
  return ops;
}

interface EngineEvent {
  resourcePreEvent?: { metadata: { op: string; urn: string } };
  resOutputsEvent?: { metadata: { op: string; urn: string } };
  diagnosticEvent?: { message: string; severity: string };
}

/** The steps of an engine event stream (`--json` of up, refresh, destroy), in order, and its error diagnostics. */
export function stepsOfEvents(stdout: string): { steps: { op: string; urn: string }[]; errors: string[] } {
  const steps: { op: string; urn: string }[] = [];
  const errors: string[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as EngineEvent;
    const step = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
    if (step) steps.push({ op: step.op, urn: step.urn });
    if (event.diagnosticEvent?.severity === "error") errors.push(event.diagnosticEvent.message);
  }
  return { steps, errors };
}

/** A resource as `pulumi stack export` holds it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  provider?: string;
  protect?: boolean;
  retainOnDelete?: boolean;
}

/** The name of a resource from its URN. */
export const nameOf = (urn: string): string => urn.split("::").pop() ?? urn;

export class EngineStack {
  private constructor(
    readonly cli: PulumiCliStack,
    readonly emu: TestEmulator,
    private readonly work: string,
  ) {}

  /**
   * A new stack (`stack`, else one named after this process) of the project in `projectDir`, on a file backend in a
   * temporary folder, with `config` set (over what a stack file already in the project holds), every command run with
   * `env` over this process's environment.
   */
  static async start(emu: TestEmulator, projectDir: string, config: Record<string, string>, secretKeys: string[] = [], stack = `engine-${process.pid}`, env: NodeJS.ProcessEnv = {}): Promise<EngineStack> {
    const work = mkdtempSync(join(tmpdir(), "bunnynet-engine-"));
    const cli = new PulumiCliStack(stack, join(work, "state"), projectDir, env);
    await cli.init(config, secretKeys);
    return new EngineStack(cli, emu, work);
  }

  /** `pulumi <args> --json` (up, refresh, destroy): the ops the engine reported; rejects when the command fails. */
  async events(args: string[]): Promise<Ops> {
    const run = await this.cli.attempt([...args, "--json"]);
    const { steps, errors } = stepsOfEvents(run.stdout);
    if (run.status !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${run.status}: ${errors.join("\n") || run.stderr || run.stdout.slice(-2000)}`);
    return opsOf(steps);
  }

  up(args: string[] = []): Promise<Ops> {
    return this.events(["up", "--yes", "--skip-preview", ...args]);
  }

  refresh(args: string[] = []): Promise<Ops> {
    return this.events(["refresh", "--yes", "--skip-preview", ...args]);
  }

  destroy(args: string[] = []): Promise<Ops> {
    return this.events(["destroy", "--yes", "--skip-preview", ...args]);
  }

  /** `pulumi preview --json`: the planned ops; rejects when the preview fails. */
  async preview(args: string[] = []): Promise<Ops> {
    const run = await this.cli.attempt(["preview", "--json", ...args]);
    const digest = JSON.parse(run.stdout || "{}") as { steps?: { op: string; urn: string }[]; diagnostics?: { message: string; severity: string }[] };
    if (run.status !== 0) {
      const errors = (digest.diagnostics ?? []).filter((d) => d.severity === "error").map((d) => d.message);
      throw new Error(`pulumi preview exited ${run.status}: ${errors.join("\n") || run.stderr}`);
    }
    return opsOf(digest.steps ?? []);
  }

  /** `pulumi config set` (plain) of each entry. */
  async setConfig(config: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(config)) await this.cli.run(["config", "set", "--", key, value], true);
  }

  /** `pulumi stack export`'s text: what a user's state file holds. */
  exportText(): Promise<string> {
    return this.cli.run(["stack", "export"], true);
  }

  /** The custom resources of the state, providers included. */
  async resources(): Promise<StateResource[]> {
    const state = JSON.parse(await this.exportText()) as { deployment: { resources?: StateResource[] } };
    return (state.deployment.resources ?? []).filter((r) => r.custom);
  }

  /** The stored resource of that name (the first, if several types share it). */
  async resource(name: string): Promise<StateResource> {
    return (await this.resources()).find((r) => nameOf(r.urn) === name) ?? assert.fail(`no resource ${name} in the state`);
  }

  /**
   * An `up` of the unchanged program: every resource `same`, and not one API call but the program's own lookups
   * (`lookups`: their `GET <route>`s, which run at every up).
   */
  async expectUnchangedUp(resourceNames: string[], lookups: string[] = []): Promise<void> {
    await this.emu.markRequests();
    const ops = await this.up();
    assert.deepEqual(ops, Object.fromEntries(resourceNames.map((name) => [name, "same"])));
    const calls = (await this.emu.requests()).map((r) => `${r.method} ${r.route}`).sort();
    assert.deepEqual(calls, [...lookups].sort(), "an unchanged up makes no API call but the lookups'");
  }

  /** A refresh finds no drift (every step's result `same`), and a preview then plans nothing (--expect-no-changes). */
  async expectNoDrift(resourceNames: string[]): Promise<void> {
    const ops = await this.refresh(["--expect-no-changes"]);
    assert.deepEqual(
      Object.entries(ops).filter(([, op]) => op !== "same"),
      [],
      "refresh finds no drift",
    );
    assert.deepEqual(
      resourceNames.filter((name) => !(name in ops)),
      [],
      "refresh reads every resource",
    );
    await this.cli.run(["preview", "--expect-no-changes"], true);
  }

  /** Removes the stack (its resources are not touched) and the temporary folder. */
  async dispose(): Promise<void> {
    try {
      await this.cli.remove();
    } finally {
      rmSync(this.work, { recursive: true, force: true });
    }
  }
}
