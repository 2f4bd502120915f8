"use client";
import { useEffect, useRef, useState } from "react";

const SPEEDS = [0.5, 1, 2, 4];
const btn = "rounded border px-3 py-1 text-sm focus:outline focus:outline-2 focus:outline-brand-600";

/** A multi-frame subject's frame switcher and flipbook (play/pause at a chosen speed, in frames a second). */
export function FrameControls({ count, frame, onFrame }: { count: number; frame: number; onFrame(f: number): void }) {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const current = useRef(frame);
  current.current = frame;
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => onFrame((current.current + 1) % count), 1000 / speed);
    return () => clearInterval(timer);
  }, [playing, speed, count, onFrame]);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button type="button" className={`${btn} border-gray-300 bg-white`} aria-pressed={playing} onClick={() => setPlaying((p) => !p)}>
        {playing ? "Pause" : "Play"}
      </button>
      <label className="flex items-center gap-1 text-sm">
        Speed
        <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))} className="rounded border border-gray-300 px-1 py-1">
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s} frames/s
            </option>
          ))}
        </select>
      </label>
      <div role="group" aria-label="Images of this subject" className="flex flex-wrap gap-2">
        {Array.from({ length: count }, (_, i) => (
          <button
            key={i}
            type="button"
            aria-pressed={i === frame}
            onClick={() => {
              setPlaying(false);
              onFrame(i);
            }}
            className={`${btn} ${i === frame ? "border-brand-600 bg-brand-50 font-semibold" : "border-gray-300 bg-white hover:bg-gray-100"}`}
          >
            Image {i + 1}
          </button>
        ))}
      </div>
    </div>
  );
}
