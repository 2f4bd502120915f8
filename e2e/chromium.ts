import fs from "node:fs";

// How Playwright launches a browser here: Debian's chromium when present (`npx playwright install` needs
// network access), headless and quiet; else Playwright's own. Used by the tests and bench/ui.ts.
const systemChromium = "/usr/bin/chromium";
export const chromiumLaunchOptions = fs.existsSync(systemChromium)
  ? {
      executablePath: systemChromium,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    }
  : {};
