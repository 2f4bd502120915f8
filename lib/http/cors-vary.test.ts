// withCors adds Origin to an answer's Vary and keeps what the route said it varies by (a counts answer
// varies by Authorization and Cookie: a shared cache must not serve a team member's figures to others).
import { expect, it } from "vitest";

it("keeps the route's Vary and adds Origin for a trusted origin", async () => {
  process.env.CORS_ORIGINS = "https://app.example";
  const { withCors } = await import("./cors");
  const req = new Request("http://quorum.test/counts/classifications?project_id=1", {
    headers: { origin: "https://app.example", cookie: "quorum_session=x" },
  });
  const res = await withCors(req, async () => new Response("{}", { headers: { Vary: "Authorization, Cookie" } }));
  expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
  expect(res.headers.get("vary")).toBe("Authorization, Cookie, Origin");
});
