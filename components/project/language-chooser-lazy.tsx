"use client";
import { lazyPart } from "@/components/classifier/lazy-part";

/** The language chooser, loaded only on the pages of projects that offer more than one language. */
export const LanguageChooser = lazyPart(() => import("./language-chooser").then((m) => m.LanguageChooser));
