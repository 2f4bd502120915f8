import { describe, expect, it } from "vitest";
import { chooseLanguage } from "./translate";

const project = { primaryLanguage: "en", availableLanguages: ["fr", "zh-TW"] };

describe("chooseLanguage", () => {
  it.each([
    [undefined, undefined, "en"],
    ["fr", undefined, "fr"],
    ["FR", undefined, "fr"],
    ["zh-tw", undefined, "zh-tw"],
    [undefined, "fr", "fr"],
    ["de", "fr", "fr"], // not offered: the remembered choice
    ["de", "it", "en"], // neither offered: the primary language
    ["en", "fr", "en"], // the address wins over the cookie
  ])("asked %s, remembered %s → %s", (asked, cookie, expected) => {
    expect(chooseLanguage(project, asked, cookie)).toBe(expected);
  });
});
