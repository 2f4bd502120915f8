import { describe, expect, it } from "vitest";
import { isMarkdownKey, languageChoices, parseLanguage, stringVersion, translationBody, translationRows } from "./translation-editing";

const primary = { display_name: "Welcome", "steps.0.content": "Look for owls.", "steps.1.content": "Answer." };
const v = (s: string) => stringVersion(s);

describe("stringVersion", () => {
  it.each([
    ["", "811c9dc5"],
    ["a", "e40c292c"],
  ])("%j", (text, hash) => expect(stringVersion(text)).toBe(hash));
  it("differs between texts and is stable", () => {
    expect(v("Look for owls.")).toBe(v("Look for owls."));
    expect(v("Look for owls.")).not.toBe(v("Look for owls!"));
  });
});

describe("isMarkdownKey", () => {
  it.each([
    ["steps.0.content", true],
    ["items.3.content", true],
    ["items.3.title", false],
    ["display_name", false],
    ["introduction", true],
    ["tasks.T0.help", true],
    ["tasks.T0.question", false],
    ["tasks.T0.answers.1.label", false],
  ])("%s: %s", (key, markdown) => expect(isMarkdownKey(key)).toBe(markdown));
});

describe("translationRows", () => {
  it.each([
    ["nothing saved: all missing", {}, {}, {}, ["missing", "missing", "missing"]],
    ["blank counts as missing", { display_name: "  " }, {}, {}, ["missing", "missing", "missing"]],
    [
      "saved at the current versions",
      { display_name: "Bienvenue", "steps.0.content": "Cherchez.", "steps.1.content": "Répondez." },
      { display_name: v("Welcome"), "steps.0.content": v("Look for owls."), "steps.1.content": v("Answer.") },
      {},
      ["translated", "translated", "translated"],
    ],
    [
      "a primary text changed since: outdated",
      { display_name: "Bienvenue", "steps.0.content": "Cherchez." },
      { display_name: v("Welcome"), "steps.0.content": v("Look for birds.") },
      {},
      ["translated", "outdated", "missing"],
    ],
    ["no version (another client): current", { display_name: "Bienvenue" }, {}, {}, ["translated", "missing", "missing"]],
    [
      "an edited outdated key is current again",
      { "steps.0.content": "Cherchez." },
      { "steps.0.content": "old" },
      { "steps.0.content": "Cherchez les hiboux." },
      ["missing", "translated", "missing"],
    ],
    [
      "a draft equal to the saved text stays outdated",
      { "steps.0.content": "Cherchez." },
      { "steps.0.content": "old" },
      { "steps.0.content": "Cherchez." },
      ["missing", "outdated", "missing"],
    ],
    ["a draft cleared: missing", { display_name: "Bienvenue" }, {}, { display_name: "" }, ["missing", "missing", "missing"]],
  ] as const)("%s", (_, saved, versions, drafts, statuses) => {
    const rows = translationRows(primary, saved as Record<string, string>, versions, drafts as Record<string, string>);
    expect(rows.map((r) => r.key)).toEqual(Object.keys(primary));
    expect(rows.map((r) => r.status)).toEqual(statuses);
    expect(rows.map((r) => r.markdown)).toEqual([false, true, true]);
  });
  it("ignores saved keys the primary no longer has", () => {
    expect(translationRows({ a: "x" }, { a: "y", b: "z" }, {}).map((r) => [r.key, r.text])).toEqual([["a", "y"]]);
  });
});

describe("translationBody", () => {
  it.each([
    ["nothing", {}, {}, {}, {}, {}],
    [
      "a new key takes the current version",
      {},
      {},
      { display_name: "Bienvenue", "steps.1.content": " " },
      { display_name: "Bienvenue" },
      { display_name: v("Welcome") },
    ],
    [
      "an untouched key keeps its old version, an edited one the new",
      { display_name: "Bienvenue", "steps.0.content": "Cherchez." },
      { display_name: "old", "steps.0.content": "old" },
      { "steps.0.content": "Cherchez les hiboux." },
      { display_name: "Bienvenue", "steps.0.content": "Cherchez les hiboux." },
      { display_name: "old", "steps.0.content": v("Look for owls.") },
    ],
    [
      "a cleared key and keys the primary lacks are dropped",
      { display_name: "Bienvenue", gone: "x" },
      { display_name: v("Welcome"), gone: "v" },
      { display_name: "" },
      {},
      {},
    ],
  ] as const)("%s", (_, saved, versions, drafts, strings, string_versions) => {
    expect(translationBody(primary, saved as Record<string, string>, versions, drafts as Record<string, string>)).toEqual({
      strings,
      string_versions,
    });
  });
});

describe("languageChoices", () => {
  it.each([
    ["en", [[]], []],
    ["en", [["en", "fr"], ["FR", "de"], ["pt-br"]], ["de", "fr", "pt-br"]],
    ["DE", [["de", "fr"], [""]], ["fr"]],
  ] as const)("primary %s, %j", (p, lists, expected) => {
    expect(languageChoices(p, ...(lists as unknown as string[][]))).toEqual(expected);
  });
});

describe("parseLanguage", () => {
  it.each([
    ["fr", "en", { language: "fr" }],
    [" es_MX ", "en", { language: "es_mx" }],
    ["zh-Hant", "en", { language: "zh-hant" }],
    ["EN", "en", { error: "That is the project's primary language: edit the records themselves" }],
    ["french", "en", { error: "A language code such as fr, pt-br or es_MX" }],
    ["", "en", { error: "A language code such as fr, pt-br or es_MX" }],
    ["f", "en", { error: "A language code such as fr, pt-br or es_MX" }],
  ])("%j", (raw, p, expected) => expect(parseLanguage(raw, p)).toEqual(expected));
});
