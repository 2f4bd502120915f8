/** The established front end's disciplines: tags from this list (stored lower-cased on projects). */
export const DISCIPLINES = [
  "Arts",
  "Biology",
  "Climate",
  "History",
  "Language",
  "Literature",
  "Medicine",
  "Nature",
  "Physics",
  "Social Science",
  "Space",
  "Transcription",
];
