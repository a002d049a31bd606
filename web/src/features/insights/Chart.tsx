import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJs,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from "chart.js";
import { useEffect, useRef, useState } from "react";

// Only the parts the insights charts draw, so the chunk stays small.
ChartJs.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip);

/** The theme's colours as the CSS variables say now (light or dark). */
export type Palette = { text: string; muted: string; grid: string; series: string[]; danger: string; amber: string };

function readPalette(): Palette {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: read("--text"),
    muted: read("--text-muted"),
    grid: read("--border"),
    series: [1, 2, 3, 4, 5].map((n) => read(`--chart-${n}`)),
    danger: read("--danger"),
    amber: read("--chart-threshold"),
  };
}

/** The palette, read again when the theme switches (the root's class changes). */
export function usePalette(): Palette {
  const [palette, setPalette] = useState(readPalette);
  useEffect(() => {
    const observer = new MutationObserver(() => setPalette(readPalette()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    return () => observer.disconnect();
  }, []);
  return palette;
}

type ChartProps = {
  config: (palette: Palette) => ChartConfiguration<"bar" | "line">;
  label: string;
  testId: string;
};

/** One canvas chart; its configuration is rebuilt whenever the data, words or theme change. */
export function Chart({ config, label, testId }: ChartProps) {
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const chart = useRef<ChartJs<"bar" | "line"> | null>(null);
  const palette = usePalette();
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const next = config(palette);
    if (chart.current) {
      chart.current.data = next.data;
      chart.current.options = next.options ?? {};
      chart.current.update("none");
    } else {
      chart.current = new ChartJs(element, next);
    }
  }, [config, palette]);
  useEffect(
    () => () => {
      chart.current?.destroy();
      chart.current = null;
    },
    [],
  );
  return (
    <div className="insights-canvas">
      <canvas ref={canvas} role="img" aria-label={label} data-testid={testId} />
    </div>
  );
}
