import { describe, expect, it } from 'vitest';
import { studentTCritical, studentTTest, studentTTwoSidedP } from './t-test.js';

describe("Student's t distribution and the two-sample t-test", () => {
  it('give the p-values of the tables', () => {
    expect(studentTTwoSidedP(2, 10)).toBeCloseTo(0.07339, 4);
    expect(studentTTwoSidedP(2.228, 10)).toBeCloseTo(0.05, 3);
    expect(studentTTwoSidedP(1.96, 1e6)).toBeCloseTo(0.05, 3);
    expect(studentTTwoSidedP(12.706, 1)).toBeCloseTo(0.05, 3);
    expect(studentTTwoSidedP(0, 5)).toBe(1);
  });

  it("give the critical values of the tables, Student's 12.706 for one degree of freedom among them", () => {
    expect(studentTCritical(1)).toBeCloseTo(12.706, 3);
    expect(studentTCritical(2)).toBeCloseTo(4.303, 3);
    expect(studentTCritical(10)).toBeCloseTo(2.228, 3);
    expect(studentTCritical(1e6)).toBeCloseTo(1.96, 2);
    expect(studentTCritical(4, 0.9)).toBeCloseTo(2.132, 3);
  });

  it('the two-sample test pools the variances', () => {
    // by hand: pooled variance (3 * 5/3 + 4 * 10) / 7, standard error sqrt(45/7 * (1/4 + 1/5))
    const result = studentTTest([1, 2, 3, 4], [2, 4, 6, 8, 10]);
    expect(result.t).toBeCloseTo(-3.5 / Math.sqrt((45 / 7) * 0.45), 10);
    expect(result.df).toBe(7);
    // t(7) two-sided: 1.895 at p = 0.1, 2.365 at p = 0.05
    expect(result.pValue).toBeGreaterThan(0.05);
    expect(result.pValue).toBeLessThan(0.1);
    expect(studentTTwoSidedP(2.365, 7)).toBeCloseTo(0.05, 3);
  });
});
