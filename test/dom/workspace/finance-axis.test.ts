// Issue 23 point 18: the net-worth chart's axis had no $0 and wrote minus with a hyphen
// ("-$300K"), unlike every other amount of the app ("−$300,000"). Its ticks now start from zero,
// none is skipped (so $0 stays among them), and below zero they take the true minus sign.

import { describe, expect, it } from 'vitest';
import { amountScale, axisMoney, signedMoney } from '../../../renderer/src/workspace/financeAxis.ts';

describe('the amount axis of the overview’s charts', () => {
  it('writes amounts compact, with a true minus sign below zero', () => {
    expect(axisMoney(0, 'USD')).toBe('$0');
    expect(axisMoney(450_000, 'USD')).toBe('$450K');
    expect(axisMoney(-300_000, 'USD')).toBe('−$300K');
    expect(axisMoney(-1_500_000, 'USD')).toBe('−$1.5M');
    expect(signedMoney(-300_000, 'USD')).toBe('−$300,000');
    expect(signedMoney(12_500, 'USD')).toBe('$12,500');
  });

  it('starts at zero and keeps every tick, few enough to fit', () => {
    const scale = amountScale('USD', { text: '#000', grid: '#ccc' });
    expect(scale.beginAtZero).toBe(true);
    // Thinning the ticks out (Chart.js's autoSkip) is what dropped $0 between −$300K and $150K.
    expect(scale.ticks.autoSkip).toBe(false);
    expect(scale.ticks.maxTicksLimit).toBeLessThanOrEqual(5);
    expect(scale.ticks.callback(-200_000)).toBe('−$200K');
  });
});
