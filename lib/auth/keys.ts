import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, importSPKI, type CryptoKey } from "jose";
import { dataDir, env } from "@/lib/env";

// Signing keys: JWT_PRIVATE_KEY / JWT_PUBLIC_KEY (PEM) from the environment, else a key pair generated
// once into DATA_DIR so tokens survive restarts. The same file holds the secret for session cookies.
const ALG = "RS256";
interface Keys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  sessionSecret: Uint8Array;
  authSecret: string;
}

let loaded: Promise<Keys> | undefined;

async function load(): Promise<Keys> {
  const e = env();
  const file = path.join(dataDir(), "keys.json");
  let stored: { privateKey: string; publicKey: string; secret: string } | undefined;
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!stored) {
    const pair = await generateKeyPair(ALG, { extractable: true });
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
  return {
    privateKey: await importPKCS8(e.JWT_PRIVATE_KEY ?? stored!.privateKey, ALG),
    publicKey: await importSPKI(e.JWT_PUBLIC_KEY ?? stored!.publicKey, ALG),
    sessionSecret: crypto.createHash("sha256").update(`session:${secret}`).digest(),
    authSecret: secret,
  };
}

export function keys(): Promise<Keys> {
  loaded ??= load();
  return loaded;
}

export const JWT_ALG = ALG;
