// GET /.well-known/jwks.json: the public key access tokens are signed with, as a JSON Web Key Set, for
// clients and front ends that verify tokens themselves (the established front end does, in the browser).
import { exportJWK } from "jose";
import { JWT_ALG, keys } from "@/lib/auth/keys";
import { jsonRoute } from "@/lib/http/api-route";
import { json } from "@/lib/http/respond";
import { methodNotAllowed } from "@/lib/http/missing-routes";
import { keyId } from "@/lib/auth/public-key";

export const GET = jsonRoute({ scope: "none" }, async () => {
  const { publicKeys, publicKeyPem } = await keys();
  const jwk = await exportJWK(publicKeys[JWT_ALG]);
  return json({ keys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, alg: JWT_ALG, use: "sig", kid: keyId(publicKeyPem) }] }, 200, {
    "Cache-Control": "public, max-age=300",
    "Access-Control-Allow-Origin": "*",
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
