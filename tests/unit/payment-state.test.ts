import { describe, expect, it } from 'vitest';
import { deskPaymentDue, PAYMENT_STATE_WORDS, paymentState, type PaymentStateInput } from '../../shared/domain/payment-state.ts';

const base: PaymentStateInput = { bookingType: 'ONLINE', paymentStatus: 'COMPLETED', cancelled: false, amountPaise: 110_000, paidPaise: 0, refundedPaise: 0 };

describe("paymentState: a booking's payment in words", () => {
  it.each<[string, Partial<PaymentStateInput>, string]>([
    ['paid online', { paidPaise: 110_000 }, 'Paid'],
    ['confirmed with no money recorded', {}, 'Payment not recorded'],
    ['confirmed at no charge', { amountPaise: 0 }, 'No charge'],
    ['in person, to be paid at the desk', { bookingType: 'OFFLINE', paymentStatus: 'PENDING' }, 'Pay at centre'],
    ['a manual online booking waiting on its link', { paymentStatus: 'PENDING' }, 'Awaiting payment'],
    ["the wizard's unpaid hold", { paymentStatus: 'INITIATED' }, 'Awaiting payment'],
    ["a waitlist offer's hold (issue 34)", { bookingType: 'OFFLINE', paymentStatus: 'INITIATED', waitlistHold: true }, 'Held for waitlist'],
    ['a waitlist hold that ended', { paymentStatus: 'FAILED', waitlistHold: false }, 'Not paid'],
    ['a hold that ended unpaid', { paymentStatus: 'FAILED' }, 'Not paid'],
    ['paid and refunded in full', { paidPaise: 110_000, refundedPaise: 110_000, cancelled: true }, 'Refunded'],
    ['paid and partly refunded', { paidPaise: 110_000, refundedPaise: 10_000, cancelled: true }, 'Paid'],
    ['cancelled, its cash still to be handed back', { paidPaise: 110_000, cancelled: true, refundOpen: 'AT_COUNTER' }, 'Refund due at centre'],
    ['cancelled, its refund waiting for the owner', { paidPaise: 110_000, cancelled: true, refundOpen: 'REVIEW' }, 'Refund under review'],
    ['cancelled and handed back since', { paidPaise: 110_000, refundedPaise: 110_000, cancelled: true, refundOpen: null }, 'Refunded'],
    ['cancelled unpaid', { paymentStatus: 'PENDING', cancelled: true }, 'Cancelled'],
    ['an admin block', { bookingType: 'ADMIN_BLOCK', paymentStatus: 'BLOCKED', amountPaise: 0 }, 'Blocked'],
  ])('%s', (_name, over, words) => {
    expect(PAYMENT_STATE_WORDS[paymentState({ ...base, ...over })]).toBe(words);
  });
});

describe('deskPaymentDue: where the desk may record money taken (issue 31)', () => {
  it.each<[string, Partial<PaymentStateInput>, boolean]>([
    ['in person, to be paid at the desk', { bookingType: 'OFFLINE', paymentStatus: 'PENDING' }, true],
    ['confirmed with no money recorded (the spec payload)', {}, true],
    ['a manual online booking waiting on its link', { paymentStatus: 'PENDING' }, true],
    ["the wizard's unpaid hold (paid online)", { paymentStatus: 'INITIATED' }, false],
    ["a waitlist offer's hold", { bookingType: 'OFFLINE', paymentStatus: 'INITIATED', waitlistHold: true }, false],
    ['paid', { paidPaise: 110_000 }, false],
    ['confirmed at no charge', { amountPaise: 0 }, false],
    ['a hold that ended unpaid', { paymentStatus: 'FAILED' }, false],
    ['cancelled unpaid', { paymentStatus: 'PENDING', cancelled: true }, false],
    ['refunded', { paidPaise: 110_000, refundedPaise: 110_000 }, false],
    ['an admin block', { bookingType: 'ADMIN_BLOCK', paymentStatus: 'BLOCKED', amountPaise: 0 }, false],
  ])('%s', (_name, over, due) => {
    const b = { ...base, ...over };
    expect(deskPaymentDue(paymentState(b), b.paymentStatus)).toBe(due);
  });
});
