import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, type CryptoKey } from "jose";
import { dataDir, env } from "@/lib/env";

// Signing keys: JWT_PRIVATE_KEY / JWT_PUBLIC_KEY (PEM) from the environment, else an RSA key pair
// generated once into DATA_DIR so tokens survive restarts. The same file holds the secret for session
// cookies. Access tokens are signed with JWT_ALG (RS512 by default, as the established platform, whose
// front end verifies them in the browser); any RS* signature by our own key verifies, so tokens signed
// before a change of JWT_ALG stay good until they expire.

/** The algorithms an access token may be signed with: RSA with our key pair only (never HS*, never none). */
export const RSA_ALGS = ["RS256", "RS384", "RS512"] as const;
export type RsaAlg = (typeof RSA_ALGS)[number];

/** JWT_ALG: one of RSA_ALGS (default RS512); anything else stops the start. */
export function signingAlg(value = process.env.JWT_ALG): RsaAlg {
  const alg = (value ?? "").trim() || "RS512";
  if (!(RSA_ALGS as readonly string[]).includes(alg)) throw new Error(`JWT_ALG must be one of ${RSA_ALGS.join(", ")}, not '${alg}'`);
  return alg as RsaAlg;
}

interface Keys {
  privateKey: CryptoKey;
  /** Our public key, imported once per RS algorithm (a WebCrypto key is bound to its hash). */
  publicKeys: Record<RsaAlg, CryptoKey>;
  publicKeyPem: string;
  sessionSecret: Uint8Array;
  authSecret: string;
}

let loaded: Promise<Keys> | undefined;

/** The generated key pair and secret: DATA_DIR/keys.json. */
export function keysFile(dir = dataDir()): string {
  return path.join(dir, "keys.json");
}

async function load(): Promise<Keys> {
  const e = env();
  const file = keysFile();
  let stored: { privateKey: string; publicKey: string; secret: string } | undefined;
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!stored) {
    const pair = await generateKeyPair("RS256", { extractable: true });
    stored = {
      privateKey: await exportPKCS8(pair.privateKey),
      publicKey: await exportSPKI(pair.publicKey),
      secret: crypto.randomBytes(32).toString("base64url"),
    };
    fs.mkdirSync(dataDir(), { recursive: true });
    // Another process may have raced us; whoever wrote first wins and both use that file.
    try {
      fs.writeFileSync(file, JSON.stringify(stored), { flag: "wx", mode: 0o600 });
    } catch {
      stored = JSON.parse(fs.readFileSync(file, "utf8"));
    }
  }
  const secret = e.AUTH_SECRET ?? stored!.secret;
  const publicKeyPem = e.JWT_PUBLIC_KEY ?? stored!.publicKey;
  const publicKeys = Object.fromEntries(
    await Promise.all(RSA_ALGS.map(async (alg) => [alg, await importSPKI(publicKeyPem, alg, { extractable: true })])),
  ) as Record<RsaAlg, CryptoKey>;
  return {
    privateKey: await importPKCS8(e.JWT_PRIVATE_KEY ?? stored!.privateKey, JWT_ALG),
    publicKeys,
    publicKeyPem,
    sessionSecret: crypto.createHash("sha256").update(`session:${secret}`).digest(),
    authSecret: secret,
  };
}

export function keys(): Promise<Keys> {
  loaded ??= load();
  return loaded;
}

/** The algorithm new access tokens are signed with. */
export const JWT_ALG: RsaAlg = signingAlg();
