import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { delimiter, dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as grpc from "@grpc/grpc-js";
import { engineAddressOf } from "bunnynet-pulumi/dist/plugin/engineWatch.js";
import { hasEnded, msUntilEnded } from "../support/processes";
import { pluginLauncher } from "./pluginSupport";

/**
 * The built plugin watches the engine it serves (provider/plugin/engineWatch.ts, issue 42), started as the engine
 * starts it: the sh launcher with the engine's address as its argument. The engine stands in as a gRPC server
 * answering grpc.health.v1.Health/Check SERVING, as the engine's host server does (pulumi/pulumi v3.276.0
 * sdk/go/common/util/rpcutil/serve.go:86-106); the whole engine through the real CLI is tests/plugin/engineGone.test.ts.
 */

/** A gRPC server answering the health check SERVING (field 1, status, = 1), on a free port of 127.0.0.1. */
async function healthServer(): Promise<{ address: string; server: grpc.Server }> {
  const server = new grpc.Server();
  const raw = (bytes: Buffer) => bytes;
  const check = { path: "/grpc.health.v1.Health/Check", requestStream: false, responseStream: false, requestSerialize: raw, requestDeserialize: raw, responseSerialize: raw, responseDeserialize: raw };
  server.addService({ Check: check } as grpc.ServiceDefinition, { Check: (_call: unknown, answer: grpc.sendUnaryData<Buffer>) => answer(null, Buffer.from([0x08, 0x01])) });
  const port = await new Promise<number>((ok, fail) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? fail(e) : ok(p))));
  return { address: `127.0.0.1:${port}`, server };
}

const withNodeOnPath = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ""}` };

/** The first line `child` prints on stdout. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((ok, fail) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) ok(out.split("\n")[0]);
    });
    child.once("exit", (code) => fail(new Error(`exited ${code} before printing a line`)));
  });
}

describe("plugin: the plugin watches the engine it serves", function () {
  this.timeout(60_000);
  /** The processes a test started, ended after it whatever happened. */
  const started: number[] = [];
  let engine: { address: string; server: grpc.Server };

  beforeEach(async () => (engine = await healthServer()));
  afterEach(() => {
    engine.server.forceShutdown();
    for (const pid of started.splice(0)) if (!hasEnded(pid)) process.kill(pid, "SIGKILL");
  });

  it("the engine's address is the first argument that is not one of the engine's flags", () => {
    assert.equal(engineAddressOf(["127.0.0.1:4000"]), "127.0.0.1:4000");
    assert.equal(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "http://127.0.0.1:9411", "127.0.0.1:4000"]), "127.0.0.1:4000");
    assert.equal(engineAddressOf([]), undefined);
    assert.equal(engineAddressOf(["--logtostderr", "-v=3"]), undefined);
  });

  it("its parent (the engine) killed: it ends within a second, while a live parent and engine keep it serving", async () => {
    // The parent starts the plugin as the engine does (stdin, stdout and stderr piped to it) and prints its pid and port.
    const script = `
      const plugin = require("node:child_process").spawn(process.argv[1], [process.argv[2]], { stdio: "pipe" });
      plugin.stdout.once("data", (port) => process.stdout.write(plugin.pid + " " + port));
      setInterval(() => undefined, 60_000);`;
    const parent = spawn(process.execPath, ["-e", script, pluginLauncher(), engine.address], { env: withNodeOnPath, stdio: ["ignore", "pipe", "inherit"] });
    started.push(parent.pid!);
    const [pid, port] = (await firstLine(parent)).split(" ").map(Number);
    assert.ok(pid > 0 && port > 0);
    started.push(pid);
    await sleep(1_500);
    assert.equal(hasEnded(pid), false, "the plugin ended while its parent and engine were alive");
    parent.kill("SIGKILL");
    const took = await msUntilEnded(pid, 5_000);
    assert.ok(took !== undefined && took < 1_000, `the plugin ended ${took === undefined ? "not within 5 s" : `after ${took} ms`}`);
  });

  it("its engine's address no longer answering (the parent alive): it ends within a few seconds, saying why", async () => {
    const plugin = spawn(pluginLauncher(), [engine.address], { env: withNodeOnPath, stdio: ["pipe", "pipe", "pipe"] });
    started.push(plugin.pid!);
    let stderr = "";
    plugin.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    assert.match(await firstLine(plugin), /^\d+$/);
    // Two health checks (every 2 s) answered: still serving.
    await sleep(4_500);
    assert.equal(plugin.exitCode, null, `the plugin ended while its engine answered: ${stderr}`);
    engine.server.forceShutdown();
    const took = await msUntilEnded(plugin.pid!, 8_000);
    assert.ok(took !== undefined && took < 4_000, `the plugin ended ${took === undefined ? "not within 8 s" : `after ${took} ms`}`);
    assert.match(stderr, new RegExp(`the Pulumi engine it served \\(${engine.address}\\) no longer answers: .*nothing more is sent, exiting`));
  });
});
