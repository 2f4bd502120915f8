import crypto from "node:crypto";

/** A stable id of the signing key (its SPKI's SHA-256, shortened): JWKS `kid`, and the token header's. */
export function keyId(publicKeyPem: string): string {
  return crypto.createHash("sha256").update(publicKeyPem.trim()).digest("base64url").slice(0, 16);
}
