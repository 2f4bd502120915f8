import { it } from "vitest";
import { db } from "@/lib/db";
it("big in", async () => {
  for (const n of [32000, 32766, 32767, 40000, 65000]) {
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    const t = Date.now();
    try {
      await db().subject.count({ where: { AND: [{ id: { in: ids } }, { project: { private: false } }] } });
      await db().subject.findMany({ where: { AND: [{ id: { in: ids } }, { project: { private: false } }] }, orderBy: { id: "asc" }, take: 20, include: { members: true } });
      console.log(n, "ok", Date.now() - t);
    } catch (e) { console.log(n, "fail", String(e).slice(-100)); }
  }
});
