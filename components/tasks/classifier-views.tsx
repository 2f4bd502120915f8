"use client";
import type { ComponentType } from "react";
import { lazyPart } from "@/components/classifier/lazy-part";
import type { TaskType } from "@/lib/tasks/registry";
import { QuestionTaskView } from "./question/view";
import { TextTaskView } from "./text/view";
import type { TaskViewProps } from "./view-props";

// What the volunteer sees of each task type: its view (components/tasks/<type>/view.tsx), one line each. Every
// type but the question and text is a chunk of its own, loaded when a workflow shows one: the first load of
// the classifier carries only what a question needs. A combo has no view: the classifier shows its members.

const loading = () => <p className="animate-pulse text-sm text-gray-600">Loading the task…</p>;

export const classifierViews: Partial<Record<TaskType, ComponentType<TaskViewProps>>> = {
  single: QuestionTaskView,
  multiple: QuestionTaskView,
  text: TextTaskView,
  drawing: lazyPart(() => import("./drawing/view").then((m) => m.DrawingTaskView), loading()),
  survey: lazyPart(() => import("./survey/view").then((m) => m.SurveyTaskView), loading()),
  slider: lazyPart(() => import("./slider/view").then((m) => m.SliderTaskView), loading()),
  shortcut: lazyPart(() => import("./shortcut/view").then((m) => m.ShortcutTaskView), loading()),
  highlighter: lazyPart(() => import("./highlighter/view").then((m) => m.HighlighterTaskView), loading()),
};
