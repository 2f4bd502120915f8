import { describe, expect, it } from "vitest";
import {
  itemsBody,
  itemsFromRecord,
  moveEntry,
  orphanedUploads,
  removeEntry,
  replaceEntry,
  stepsBody,
  stepsFromRecord,
  toggleWorkflow,
  unusedMedia,
} from "./onboarding-editing";

describe("moveEntry", () => {
  it.each([
    [["a", "b", "c"], 0, 1, ["b", "a", "c"]],
    [["a", "b", "c"], 2, 1, ["a", "c", "b"]],
    [["a", "b", "c"], 1, 0, ["b", "a", "c"]],
    [["a", "b", "c"], 0, -1, ["a", "b", "c"]],
    [["a", "b", "c"], 2, 3, ["a", "b", "c"]],
    [["a", "b", "c"], 0, 2, ["b", "c", "a"]],
    [["a", "b", "c"], 5, 0, ["a", "b", "c"]],
    [[], 0, 1, []],
  ])("%j: %i to %i", (list, from, to, expected) => {
    const before = [...list];
    expect(moveEntry(list, from, to)).toEqual(expected);
    expect(list).toEqual(before);
  });
});

describe("removeEntry and replaceEntry", () => {
  it("remove the entry at an index, or nothing past the end", () => {
    expect(removeEntry(["a", "b", "c"], 1)).toEqual(["a", "c"]);
    expect(removeEntry(["a"], 3)).toEqual(["a"]);
  });
  it("replace the entry at an index", () => {
    expect(replaceEntry(["a", "b"], 1, "x")).toEqual(["a", "x"]);
  });
});

describe("bodies and records", () => {
  it("steps: media only when chosen", () => {
    expect(stepsBody([{ content: "One" }, { content: "Two", media: "7" }, { content: "", media: "" }])).toEqual([
      { content: "One" },
      { content: "Two", media: "7" },
      { content: "" },
    ]);
  });
  it("items: icon only when chosen", () => {
    expect(
      itemsBody([
        { title: "Owl", content: "Hoots", icon: "3" },
        { title: "Fox", content: "" },
      ]),
    ).toEqual([
      { title: "Owl", content: "Hoots", icon: "3" },
      { title: "Fox", content: "" },
    ]);
  });
  it("records from other clients read as drafts: numbers as string ids, missing text as empty", () => {
    expect(stepsFromRecord([{ content: "A", media: 12 }, {}, { content: 5, media: null }])).toEqual([
      { content: "A", media: "12" },
      { content: "" },
      { content: "" },
    ]);
    expect(stepsFromRecord(undefined)).toEqual([]);
    expect(
      itemsFromRecord([
        { title: "Owl", icon: 4 },
        { content: "x", icon: "" },
      ]),
    ).toEqual([
      { title: "Owl", content: "", icon: "4" },
      { title: "", content: "x" },
    ]);
  });
});

describe("unusedMedia", () => {
  const media = [
    { id: "1", src: "https://files.example/1.png" },
    { id: "2", src: "https://files.example/2.png" },
    { id: "3", src: "https://files.example/3.png" },
    { id: "4" },
  ];
  it("lists the media no entry names nor mentions in its Markdown", () => {
    expect(unusedMedia(media, ["1", undefined, "1"], ["See ![owl](https://files.example/3.png)", ""])).toEqual(["2", "4"]);
  });
  it("lists them all when nothing uses any, none when there are none", () => {
    expect(unusedMedia(media, [undefined], [])).toEqual(["1", "2", "3", "4"]);
    expect(unusedMedia([], ["1"], ["text"])).toEqual([]);
  });
});

describe("orphanedUploads", () => {
  it.each([
    [["7", "8"], ["7", undefined, "1"], ["8"]],
    [["7"], [], ["7"]],
    [[], ["1"], []],
    [["7", "8"], ["8", "7"], []],
  ])("uploads %j, entries naming %j: %j", (uploads, named, expected) => {
    expect(orphanedUploads(new Set(uploads), named)).toEqual(expected);
  });
});

describe("toggleWorkflow", () => {
  it("adds and removes ids, kept in id order without repeats", () => {
    expect(toggleWorkflow(["10", "2"], "3", true)).toEqual(["2", "3", "10"]);
    expect(toggleWorkflow(["2", "3"], "3", true)).toEqual(["2", "3"]);
    expect(toggleWorkflow(["2", "3"], "2", false)).toEqual(["3"]);
  });
});
