/** Decimals a soak p-value is kept to. */
export const P_VALUE_DECIMALS = 4;

/** "= 0.0312", or "< 0.0001" for a p-value that rounded to 0 (no rank test gives exactly 0). */
export const pValueRelation = (p: number): string => (p === 0 ? `< ${(10 ** -P_VALUE_DECIMALS).toFixed(P_VALUE_DECIMALS)}` : `= ${p}`);
