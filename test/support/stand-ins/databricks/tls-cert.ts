/**
 * A throwaway self-signed certificate for the loopback stand-in. `@databricks/sql` always speaks
 * HTTPS, so the stand-in needs TLS; the certificate names IP 127.0.0.1 (and `localhost`), so a
 * client that trusts it as its CA verifies it normally (no `checkServerCertificate: false`).
 * The PEM is also written to a temp file for the `BACKEND_B_CA_CERT` environment variable.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";

export interface StandInCertificate {
  readonly key: string;
  readonly cert: string;
  /** A temp file holding `cert` (PEM), for `BACKEND_B_CA_CERT`. */
  readonly certPath: string;
  /** Removes the temp directory. */
  dispose(): Promise<void>;
}

export async function createStandInCertificate(): Promise<StandInCertificate> {
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  const dir = await mkdtemp(join(tmpdir(), "lib-backend-b-tls-"));
  const certPath = join(dir, "stand-in-ca.pem");
  await writeFile(certPath, pems.cert);
  return {
    key: pems.private,
    cert: pems.cert,
    certPath,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
