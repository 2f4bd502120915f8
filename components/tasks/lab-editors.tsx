"use client";
import type { ComponentType } from "react";
import type { TaskType } from "@/lib/tasks/registry";
import { ComboEditor } from "./combo/editor";
import { DrawingEditor } from "./drawing/editor";
import type { EditorProps } from "./editor-common";
import { HighlighterEditor } from "./highlighter/editor";
import { QuestionEditor } from "./question/editor";
import { ShortcutEditor } from "./shortcut/editor";
import { SliderEditor } from "./slider/editor";
import { SurveyEditor } from "./survey/editor";
import { TextTaskEditor } from "./text/editor";

// How the lab edits each task type: its editor (components/tasks/<type>/editor.tsx), one line each. A type
// with none here is edited as its JSON definition (components/lab/task-editors/json-editor.tsx).

export const labEditors: Record<TaskType, ComponentType<EditorProps>> = {
  single: QuestionEditor,
  multiple: QuestionEditor,
  text: TextTaskEditor,
  drawing: DrawingEditor,
  survey: SurveyEditor,
  slider: SliderEditor,
  shortcut: ShortcutEditor,
  combo: ComboEditor,
  highlighter: HighlighterEditor,
};
