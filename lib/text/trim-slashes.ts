// Slashes trimmed off a URL or a key prefix by scanning from the ends: linear whatever the text (the regular
// expression /\/+$/ rescans every run of slashes from each of its positions, quadratic on a long one).

/** `s` without the slashes it ends with. */
export function trimTrailingSlashes(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2f) end--;
  return s.slice(0, end);
}

/** `s` without the slashes it starts or ends with. */
export function trimSlashes(s: string): string {
  let start = 0;
  while (start < s.length && s.charCodeAt(start) === 0x2f) start++;
  return trimTrailingSlashes(s.slice(start));
}
