"use client";
import type { EditorProps } from "./common";
import { DrawingEditor } from "./drawing-editor";
import { ComboEditor, HighlighterEditor, JsonTaskEditor, ShortcutEditor, SliderEditor, TextTaskEditor } from "./other-editors";
import { QuestionEditor } from "./question-editor";
import { SurveyEditor } from "./survey-editor";

/** The editor of a task's type. */
export function TaskEditor(props: EditorProps) {
  switch (props.task.type) {
    case "single":
    case "multiple":
      return <QuestionEditor {...props} />;
    case "text":
      return <TextTaskEditor {...props} />;
    case "drawing":
      return <DrawingEditor {...props} />;
    case "survey":
      return <SurveyEditor {...props} />;
    case "slider":
      return <SliderEditor {...props} />;
    case "shortcut":
      return <ShortcutEditor {...props} />;
    case "combo":
      return <ComboEditor {...props} />;
    case "highlighter":
      return <HighlighterEditor {...props} />;
    default:
      return <JsonTaskEditor {...props} />;
  }
}
