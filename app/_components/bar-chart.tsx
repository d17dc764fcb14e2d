// The one way our pages draw a bar chart: an SVG of bars, each a stack of segments from the baseline up, with an
// optional label of one or two lines centred under it. The page says what the chart shows (its title and
// description, through `labelledBy` or children such as <title> and <desc>) and gives the same figures as a table
// beside it; styling is the page's, through each segment's class. Works in server and client components alike.
import type { ReactNode } from "react";

export interface ChartBar {
  key: string | number;
  /** Stacked from the baseline up, in the order given. */
  segments: ReadonlyArray<{ value: number; className: string }>;
  /** The label's lines under the bar (the second in a tspan below the first); none for an unlabelled bar. */
  label?: readonly string[];
}

export interface BarChartProps {
  bars: readonly ChartBar[];
  /** The value a bar the full plot height stands for (the largest stack, or a total). */
  maxValue: number;
  width: number;
  height: number;
  /** Room under the baseline for the labels. */
  labelHeight: number;
  /** The share of each bar's slot the bar fills. */
  barShare?: number;
  /** A line along the baseline, with this class. */
  baselineClassName?: string;
  labelClassName?: string;
  className?: string;
  labelledBy: string;
  children?: ReactNode;
}

const LINE_HEIGHT = 12;
const TOP_ROOM = 4;

export function BarChart({ bars, maxValue, width, height, labelHeight, barShare = 0.7, baselineClassName, labelClassName, className, labelledBy, children }: BarChartProps) {
  const baseline = height - labelHeight;
  const slot = width / Math.max(bars.length, 1);
  const barWidth = Math.max(slot * barShare, 1);
  const heightOf = (value: number) => (maxValue > 0 ? (Math.max(value, 0) / maxValue) * (baseline - TOP_ROOM) : 0);
  return (
    <svg className={className} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={labelledBy} focusable="false">
      {children}
      {baselineClassName ? <line className={baselineClassName} x1={0} x2={width} y1={baseline} y2={baseline} /> : null}
      {bars.map((bar, index) => {
        const x = index * slot + (slot - barWidth) / 2;
        const centre = x + barWidth / 2;
        let top = baseline;
        return (
          <g key={bar.key}>
            {bar.segments.map((segment, order) => {
              const segmentHeight = heightOf(segment.value);
              top -= segmentHeight;
              return <rect key={order} className={segment.className} x={x} y={top} width={barWidth} height={segmentHeight} />;
            })}
            {bar.label?.length ? (
              <text className={labelClassName} x={centre} y={baseline + LINE_HEIGHT} textAnchor="middle">
                {bar.label[0]}
                {bar.label.slice(1).map((line) => (
                  <tspan key={line} x={centre} dy={LINE_HEIGHT}>
                    {line}
                  </tspan>
                ))}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
