// The one way pages write numbers and dates: British English (the project's language), whatever the
// browser's locale, so a server render and the browser agree and every page reads alike. Dates that stand
// for a UTC day or period (counts' buckets, a recent classification's day) are read in UTC; a moment (a run,
// a retirement) in the reader's own time zone.

const LOCALE = "en-GB";

/** 12,345. */
export function formatNumber(n: number): string {
  return n.toLocaleString(LOCALE);
}

/** A UTC day or period: "3 Mar 2026" (`parts` picks fewer: a month "Mar 2026", a year "2026"; or no year). */
export function formatDay(when: Date | string, parts: "day" | "month" | "year" | "day-month" = "day"): string {
  const opts: Intl.DateTimeFormatOptions =
    parts === "year"
      ? { year: "numeric" }
      : parts === "month"
        ? { year: "numeric", month: "short" }
        : parts === "day-month"
          ? { day: "numeric", month: "short" }
          : { year: "numeric", month: "short", day: "numeric" };
  return new Date(when).toLocaleDateString(LOCALE, { ...opts, timeZone: "UTC" });
}

/** A moment, in the reader's time zone: "3 Mar 2026, 14:05"; "—" for none. */
export function formatMoment(when: Date | string | null): string {
  return when ? new Date(when).toLocaleString(LOCALE, { dateStyle: "medium", timeStyle: "short" }) : "—";
}
