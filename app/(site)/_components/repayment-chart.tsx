// The calculator's picture: one bar per payment, as tall as the amount still owed after it, so a visitor sees the
// debt fall to nothing. An SVG with a title and description for assistive technology; the table beside it is the
// same data in words.
import { formatPounds } from "@/lib/money";
import type { ScheduledPayment } from "@/lib/site/repayment-schedule";

const WIDTH = 560;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 8 };

export function RepaymentChart({ schedule, totalRepayablePence }: { schedule: ScheduledPayment[]; totalRepayablePence: number }) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / (schedule.length + 1);
  const barWidth = Math.max(2, slot * 0.7);
  const heightOf = (pence: number) => (totalRepayablePence > 0 ? (pence / totalRepayablePence) * plotHeight : 0);
  const bars = [{ label: "Start", leftPence: totalRepayablePence }, ...schedule.map((payment) => ({ label: `Day ${payment.dueDay}`, leftPence: payment.leftAfterPence }))];
  const labelEvery = Math.ceil(bars.length / 8);
  return (
    <svg className="repayment-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="repayment-chart-title repayment-chart-description">
      <title id="repayment-chart-title">Amount owed after each payment</title>
      <desc id="repayment-chart-description">
        {`Starts at ${formatPounds(totalRepayablePence)} and falls to ${formatPounds(0)} over ${schedule.length} payments.`}
      </desc>
      <line className="axis" x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={MARGIN.top + plotHeight} y2={MARGIN.top + plotHeight} />
      {bars.map((bar, index) => {
        const height = heightOf(bar.leftPence);
        const x = MARGIN.left + index * slot + (slot - barWidth) / 2;
        return (
          <g key={bar.label}>
            <rect className={index === 0 ? "bar bar--start" : "bar"} x={x} y={MARGIN.top + plotHeight - height} width={barWidth} height={height} />
            {index % labelEvery === 0 || index === bars.length - 1 ? (
              <text x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle">
                {bar.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

export function RepaymentTable({ schedule }: { schedule: ScheduledPayment[] }) {
  return (
    <table className="data-table">
      <caption>Repayment schedule</caption>
      <thead>
        <tr>
          <th scope="col">Payment</th>
          <th scope="col">Due</th>
          <th scope="col" className="number">
            Amount
          </th>
          <th scope="col" className="number">
            Left to pay
          </th>
        </tr>
      </thead>
      <tbody>
        {schedule.map((payment) => (
          <tr key={payment.number}>
            <td>{payment.number}</td>
            <td>Day {payment.dueDay}</td>
            <td className="number">{formatPounds(payment.amountPence)}</td>
            <td className="number">{formatPounds(payment.leftAfterPence)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
