import { stringify, type Stringifier } from "csv-stringify";

// Every CSV the platform writes goes through csvStringifier, so no cell of a volunteer's or a team member's
// text reaches a spreadsheet as a live formula (OWASP, CSV injection).

const FORMULA_START = new Set(["=", "+", "-", "@", "\t", "\r"]);
// A plain number, signed or not: no formula, and its value must survive (a JSON number -5, a count).
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A text cell as a spreadsheet should show it: one that starts with =, +, -, @, a tab or a carriage return
 * gets a leading single quote, unless it is a plain number; anything else is unchanged.
 */
export function spreadsheetSafe(cell: string): string {
  if (!FORMULA_START.has(cell.charAt(0)) || PLAIN_NUMBER.test(cell)) return cell;
  return `'${cell}`;
}

/** A CSV stream with a header row of `columns`; its text cells pass through spreadsheetSafe, numbers as they are. */
export function csvStringifier(columns: string[]): Stringifier {
  return stringify({ header: true, columns, cast: { string: (value) => spreadsheetSafe(value) } });
}
