import { pulumiRequire } from "./sdkModules";

/**
 * The Pulumi SDK's process-wide state around a harness command. The SDK keeps its mocks, config, project, stack
 * and preview flag in a store (@pulumi/pulumi runtime/state.js, getStore), the process-wide one unless an
 * AsyncLocalStorage store is active (state.js, withLocalStorage: the SDK's own provider and automation servers run
 * each request in one, provider/server.js and automation/server.js). A command runs its program in a store of its
 * own, so `setMocks` and `setAllConfig` inside it never touch what a user's Pulumi-docs mocks test set up, in any
 * order; the one module-level slot the mocks also write (settings.js, setMockOptions: `monitor`) is cleared at the
 * end with the SDK's own disconnectSync, inside that store.
 *
 * What cannot be given a store of its own is process-wide: the working directory (the program's relative paths,
 * see `projectPaths.ts`) and `process` listeners. So commands run one at a time in the process, whichever harness
 * (and whichever copy of this kit) starts them: a second harness's command waits for the first one's end.
 */

interface RuntimeState {
  withLocalStorage<T>(run: () => Promise<T>): Promise<T>;
  getLocalStore(): Record<symbol, unknown> | undefined;
}
interface RuntimeSettings {
  disconnectSync(): void;
}

const state = pulumiRequire("@pulumi/pulumi/runtime/state") as RuntimeState;
const settings = pulumiRequire("@pulumi/pulumi/runtime/settings") as RuntimeSettings;

/** Shared through globalThis, so two copies of the kit in one process (two installs) still queue together. */
const QUEUE = Symbol.for("bunnynet-emulator/testing: the command running in this process");
type Queue = { tail: Promise<void> };
const queue: Queue = ((globalThis as Record<symbol, unknown>)[QUEUE] ??= { tail: Promise.resolve() }) as Queue;

/** Marks the store of a running command: a command started from inside one would wait for itself. */
const INSIDE_COMMAND = Symbol.for("bunnynet-emulator/testing: inside a command");

/**
 * Runs `command` once every command started before it has ended, in a Pulumi runtime store of its own, in the
 * directory `cwd` gives (read when the command starts). Started from inside another command's program, it is
 * refused at once: it would wait for that command, which waits for the program.
 */
export function isolatedCommand<T>(cwd: () => string | undefined, command: () => Promise<T>): Promise<T> {
  if (state.getLocalStore()?.[INSIDE_COMMAND]) {
    return Promise.reject(new Error("a harness command cannot start inside another command's program: commands run one at a time in a process; start it after that command ends"));
  }
  const run = queue.tail.then(() =>
    state.withLocalStorage(async () => {
      state.getLocalStore()![INSIDE_COMMAND] = true;
      try {
        return await inDirectory(cwd(), command);
      } finally {
        settings.disconnectSync();
      }
    }),
  );
  // The next command waits for this one whether it succeeds or fails; its own outcome goes to its caller only.
  queue.tail = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

async function inDirectory<T>(cwd: string | undefined, command: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    return await command();
  } finally {
    if (cwd) process.chdir(before);
  }
}
