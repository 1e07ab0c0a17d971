import { createServer, type Server } from "node:https";
import type { FastifyInstance } from "fastify";
import { issueCertificate } from "./certificates";
import { STORAGE_PREFIX, acceptDescribe } from "./surfaces/storage";

/**
 * The Storage API over HTTPS at the root of a host of its own, as bunny.net serves it (storage.bunnycdn.com,
 * ny.storage.bunnycdn.com…), for clients that build the storage URL from a zone's `StorageHostname` and let nothing
 * move it: bunny.net's Terraform provider writes `https://<StorageHostname>/<zone>/<path>` (terraform-provider-bunnynet
 * v0.15.1 internal/api/storage_file.go lines 58, 101 and 135). Once this listens, every storage zone answers its
 * `StorageHostname` as `localhost:<port>` (surfaces/storageZones.ts), and each request here is the emulator's own
 * `/storage/<zone>/<path>` route, with its authentication, faults and request log.
 *
 * The certificate is made for this run (certificates.ts: `localhost` and 127.0.0.1, self-signed, nothing written):
 * a client trusts it from the PEM this answers, written to a file it reads (Go: `SSL_CERT_FILE`; Node:
 * `NODE_EXTRA_CA_CERTS`), as it would trust a company's own authority.
 */
export interface StorageHttps {
  /** What storage zones answer as `StorageHostname`: `localhost:<port>`. */
  hostname: string;
  /** The certificate the server presents, PEM: trust it as an authority. */
  certificateAuthorityPem: string;
  close(): Promise<void>;
}

export async function listenStorageHttps(app: FastifyInstance, port: number, host: string): Promise<StorageHttps> {
  await app.ready();
  const issued = await issueCertificate({ hostnames: ["localhost"], ipAddresses: ["127.0.0.1"], issuer: "Emulator Storage CA" });
  const server: Server = createServer({ cert: issued.certificatePem, key: issued.privateKeyPem }, (req, res) => {
    req.url = `${STORAGE_PREFIX}${req.url ?? "/"}`;
    app.routing(req, res);
  });
  acceptDescribe(server, "secureConnection");
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => done());
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    hostname: `localhost:${actualPort}`,
    certificateAuthorityPem: issued.certificatePem,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
