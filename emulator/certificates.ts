import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

/**
 * X.509 certificates made on the spot, with a fresh key each time: the emulator's "free" certificates
 * (bunny.net issues Let's Encrypt ones; here a self-signed stand-in with the same facts: issuer, validity,
 * the hostname as SAN) and the tests' custom certificates. Nothing here is committed as a file: every key
 * exists only in memory for one run. @peculiar/x509 (a dependency of the emulator, with its reflect-metadata polyfill)
 * builds the certificate over WebCrypto; node:crypto alone can parse certificates but not make them.
 */

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const DAY_MS = 24 * 60 * 60 * 1000;

export interface IssueOptions {
  /** DNS names the certificate covers (the first is the subject's common name); `*.example.com` works. */
  hostnames: string[];
  /** IP addresses it covers too (e.g. 127.0.0.1, for a client that connects by address). */
  ipAddresses?: string[];
  /** Common name of the issuer (self-signed: the issuer is the subject's organisation). Default "Emulator Test CA". */
  issuer?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** "ecdsa" (P-256, the default: fast) or "rsa" (2048 bits). */
  keyType?: "ecdsa" | "rsa";
}

export interface IssuedCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const lines = Buffer.from(der).toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** A certificate and its PKCS#8 private key, both PEM. */
export async function issueCertificate(options: IssueOptions): Promise<IssuedCertificate> {
  const alg =
    options.keyType === "rsa"
      ? { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }
      : { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = (await webcrypto.subtle.generateKey(alg, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const notBefore = options.notBefore ?? new Date(Date.now() - DAY_MS);
  const notAfter = options.notAfter ?? new Date(notBefore.getTime() + 90 * DAY_MS);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString("hex").replace(/^[89a-f]/, "1"),
    name: `CN=${options.hostnames[0]}, O=${options.issuer ?? "Emulator Test CA"}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: alg,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        ...options.hostnames.map((value) => ({ type: "dns" as const, value })),
        ...(options.ipAddresses ?? []).map((value) => ({ type: "ip" as const, value })),
      ]),
    ],
  });
  const privateKey = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { certificatePem: cert.toString("pem") + "\n", privateKeyPem: pem("PRIVATE KEY", privateKey) };
}
