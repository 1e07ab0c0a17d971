#!/usr/bin/env node
// First: refuse an unsupported Node.js with a clear message before fastify and undici load.
import "./nodeGuard";
import { parseArgs } from "node:util";
import { createEmulator } from "./server";

/** `bunnynet-emulator --port 8080 --data ./emulator.db` (or `--data :memory:`); in this repository `npm run emulator -- …`. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      data: { type: "string", default: ".emulator-data/emulator.db" },
      strict: { type: "boolean", default: false },
      "storage-https-port": { type: "string" },
      "storage-ca": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write("usage: bunnynet-emulator [--port N] [--host 127.0.0.1] [--data FILE | :memory:] [--strict]\n");
    process.stdout.write("  --strict  refuse a request body's property its model lacks (bunny.net's API ignores it)\n");
    process.stdout.write("  --storage-https-port N  also serve the Storage API over HTTPS at the root of localhost:N (0: any port);\n");
    process.stdout.write("                          storage zones then answer that as their StorageHostname\n");
    process.stdout.write("  --storage-ca FILE       where to write its certificate, to trust (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS)\n");
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${values.port}`);
  if (values.data !== ":memory:") {
    const { mkdirSync } = await import("node:fs");
    const { dirname } = await import("node:path");
    mkdirSync(dirname(values.data!), { recursive: true });
  }
  const emulator = createEmulator({ dataPath: values.data!, strict: values.strict });
  const url = await emulator.listen(port, values.host);
  process.stdout.write(`listening on ${url}\n`);
  process.stdout.write(`access key: ${emulator.ctx.fixtures().accessKey}\n`);
  const storagePort = values["storage-https-port"];
  if (storagePort !== undefined) {
    const portNumber = Number(storagePort);
    if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) throw new Error(`--storage-https-port must be 0..65535, got ${storagePort}`);
    const storage = await emulator.listenStorageHttps(portNumber, values.host);
    const caFile = values["storage-ca"] ?? `${values.data === ":memory:" ? ".emulator-data/emulator.db" : values.data}.storage-ca.pem`;
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const { dirname } = await import("node:path");
    mkdirSync(dirname(caFile), { recursive: true });
    writeFileSync(caFile, storage.certificateAuthorityPem);
    process.stdout.write(`storage over https: ${storage.storageHostname} (trust ${caFile})\n`);
  }
  const stop = async () => {
    await emulator.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((e) => {
  process.stderr.write(`emulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
