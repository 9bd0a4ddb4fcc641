/** Money is integer paise everywhere but at the edges, where it is rupees. */
export function rupeesToPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

export function paiseToRupees(paise: number): number {
  return paise / 100;
}

// Made on first use: building them loads ICU's Indian locale data, which a process that never formats
// money (the workbook process) should not wait for.
let inr: Intl.NumberFormat | undefined;
let inrWhole: Intl.NumberFormat | undefined;

/** ₹1,500.00 (reports: always 2 decimals). */
export function formatRupees(rupees: number): string {
  inr ??= new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return inr.format(rupees);
}

/** ₹1,500 for whole amounts, ₹1,500.50 otherwise (prices on cards). */
export function formatPrice(rupees: number): string {
  inrWhole ??= new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 0, maximumFractionDigits: 2 });
  return inrWhole.format(rupees);
}
