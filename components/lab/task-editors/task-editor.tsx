"use client";
import type { EditorProps } from "@/components/tasks/editor-common";
import { labEditors } from "@/components/tasks/lab-editors";
import type { TaskType } from "@/lib/tasks/registry";
import { JsonTaskEditor } from "./json-editor";

/** The editor of a task's type (the task registry's), or its JSON for a type the lab has no editor for. */
export function TaskEditor(props: EditorProps) {
  const Editor = Object.hasOwn(labEditors, props.task.type) ? labEditors[props.task.type as TaskType] : JsonTaskEditor;
  return <Editor {...props} />;
}
