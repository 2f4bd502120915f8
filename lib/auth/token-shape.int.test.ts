// Access tokens in the established platform's shape, which its front end decodes in the browser: signed
// RS512 by default (JWT_ALG), the user under `data` {id, login, dname, scope, admin}, `exp` and `iss`; our
// own claims stay. The public key is published (JWKS and PEM) and verifies them; any RS* signature by our
// key is accepted, nothing else (token-hardening.int.test.ts has the forgeries).
import { createPublicKey } from "node:crypto";
import { decodeProtectedHeader, importJWK, importSPKI, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { api, call } from "@/test/http";
import { createUser } from "@/test/factories";
import { keys, RSA_ALGS, signingAlg } from "./keys";

const password = async (login: string, pw: string) =>
  call("POST", "/oauth/token", {
    body: { grant_type: "password", client_id: env().PUBLIC_CLIENT_ID, login, password: pw },
    accept: "application/json",
  });

describe("access token shape", () => {
  it("RS512 with the established claims under data, and ours", async () => {
    const user = await createUser();
    const res = await password(user.login, user.password);
    expect(res.status).toBe(200);
    const token: string = res.body.access_token;
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: "RS512", typ: "JWT" });
    expect(header.kid).toBeTruthy();
    const pem = (await call("GET", "/.well-known/jwt-public-key.pem")).text;
    const { payload } = await jwtVerify(token, await importSPKI(pem, "RS512"), { algorithms: ["RS512"] });
    expect(payload.data).toEqual({
      id: user.id,
      login: user.login,
      dname: user.displayName,
      scope: res.body.scope.split(" "),
      admin: false,
    });
    expect(payload).toMatchObject({ sub: String(user.id), login: user.login, iss: "quorum", client_id: env().PUBLIC_CLIENT_ID });
    expect(payload.exp! - payload.iat!).toBe(7200);
  });

  it("publishes the key as a JWKS whose key verifies the token", async () => {
    const user = await createUser();
    const token: string = (await password(user.login, user.password)).body.access_token;
    const jwks = await call("GET", "/.well-known/jwks.json", { accept: "application/json" });
    expect(jwks.status).toBe(200);
    const [jwk] = jwks.body.keys;
    expect(jwk).toMatchObject({ kty: "RSA", alg: "RS512", use: "sig", kid: decodeProtectedHeader(token).kid });
    expect(jwk.d).toBeUndefined();
    await expect(jwtVerify(token, await importJWK(jwk, "RS512"))).resolves.toBeTruthy();
    // The PEM and the JWK are the same key.
    const pem = (await call("GET", "/.well-known/jwt-public-key.pem")).text;
    expect(createPublicKey(pem).export({ format: "jwk" }).n).toBe(jwk.n);
  });

  it("a token signed RS256 or RS384 by our key (issued before a change of JWT_ALG) is still good", async () => {
    const user = await createUser();
    const issued: string = (await password(user.login, user.password)).body.access_token;
    const claims = JSON.parse(Buffer.from(issued.split(".")[1], "base64url").toString());
    const fs = await import("node:fs");
    const path = await import("node:path");
    await keys();
    const privatePem = JSON.parse(fs.readFileSync(path.join(process.env.DATA_DIR!, "keys.json"), "utf8")).privateKey;
    for (const alg of ["RS256", "RS384"]) {
      const { importPKCS8 } = await import("jose");
      const token = await new SignJWT(claims).setProtectedHeader({ alg }).sign(await importPKCS8(privatePem, alg));
      expect((await api.get("/me", { token })).status, alg).toBe(200);
    }
  });

  it.each([
    [undefined, "RS512"],
    ["", "RS512"],
    ["RS256", "RS256"],
    ["RS384", "RS384"],
    ["RS512", "RS512"],
  ])("JWT_ALG=%j signs with %s", (value, alg) => expect(signingAlg(value)).toBe(alg));

  it.each(["HS256", "none", "PS256", "ES256", "rs512"])("JWT_ALG=%j is refused", (value) => {
    expect(() => signingAlg(value)).toThrow(new RegExp(RSA_ALGS.join(", ")));
  });
});
