import { describe, expect, it } from "vitest";
import { MINIMUM_NODE_MAJOR, nodeMajor } from "./require-node";

describe("runtime", () => {
  it("the test suite itself runs on Node 24 or newer (the node dev dependency is first on the PATH)", () => {
    expect(nodeMajor()).toBeGreaterThanOrEqual(MINIMUM_NODE_MAJOR);
  });

  it.each([
    ["20.20.2", 20],
    ["24.21.0", 24],
    ["26.1.0", 26],
  ])("reads the major of %s", (version, major) => {
    expect(nodeMajor(version)).toBe(major);
  });
});
