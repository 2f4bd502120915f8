import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvStringifier, spreadsheetSafe } from "./csv";

describe("spreadsheetSafe", () => {
  it.each([
    // A cell a spreadsheet would run as a formula gets a leading quote (OWASP's CSV injection advice).
    ['=HYPERLINK("https://evil.test","click")', '\'=HYPERLINK("https://evil.test","click")'],
    ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
    ["-2+3", "'-2+3"],
    ["-cmd", "'-cmd"],
    ["@SUM(A1:A9)", "'@SUM(A1:A9)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1+1", "'\r=1+1"],
    ["=", "'="],
    // A plain number, signed or not, is no formula and keeps its value (a JSON number, a negative count).
    ["-5", "-5"],
    ["-1.5", "-1.5"],
    ["+3", "+3"],
    ["-2.5e-3", "-2.5e-3"],
    ["-.5", "-.5"],
    // Anything else is as it was.
    ["plain text", "plain text"],
    ['{"a":"=1+1"}', '{"a":"=1+1"}'],
    ['"=1+1"', '"=1+1"'],
    [" =1+1", " =1+1"],
    ["a=b", "a=b"],
    ["", ""],
    ["-", "'-"],
    ["1-2", "1-2"],
  ])("%j → %j", (cell, expected) => {
    expect(spreadsheetSafe(cell)).toBe(expected);
  });

  it("is linear on long input", () => {
    const long = `-${"1".repeat(200_000)}x`;
    const started = performance.now();
    expect(spreadsheetSafe(long)).toBe(`'${long}`);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe("csvStringifier", () => {
  it("writes numbers as they are and neutralises text cells", async () => {
    const csv = csvStringifier(["a", "b", "c"]);
    const chunks: string[] = [];
    csv.on("data", (c: Buffer) => chunks.push(c.toString()));
    const ended = new Promise((resolve) => csv.on("end", resolve));
    csv.write([-5, "=1+1", "-5"]);
    csv.write([3, "@x", "ok"]);
    csv.end();
    await ended;
    expect(parse(chunks.join(""), { columns: true })).toEqual([
      { a: "-5", b: "'=1+1", c: "-5" },
      { a: "3", b: "'@x", c: "ok" },
    ]);
  });
});
