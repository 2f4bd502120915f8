// GET /.well-known/jwt-public-key.pem: the same public key as PEM (SPKI), the form a front-end build is
// configured with (README, "The established front end").
import { keys } from "@/lib/auth/keys";
import { jsonRoute } from "@/lib/http/api-route";
import { methodNotAllowed } from "@/lib/http/missing-routes";

export const GET = jsonRoute({ scope: "none" }, async () => {
  const { publicKeyPem } = await keys();
  return new Response(publicKeyPem.endsWith("\n") ? publicKeyPem : `${publicKeyPem}\n`, {
    headers: { "Content-Type": "application/x-pem-file", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed(["GET"]);
