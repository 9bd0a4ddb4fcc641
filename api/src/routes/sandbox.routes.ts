import { Router } from 'express';
import { z } from 'zod';
import { formatRupees, paiseToRupees } from '../../../shared/domain/money.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { SANDBOX_MESSAGES, type SandboxLink, type SandboxPayments } from '../../../shared/core/providers/payments/sandbox.provider.ts';
import type { AppDeps } from '../deps.ts';
import { parseOr400 } from '../middleware/validate.ts';

const linkParam = z.object({ id: z.string().regex(/^plink_[A-Za-z0-9]{14}$/, { error: SANDBOX_MESSAGES.linkNotFound }) });

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function checkoutPage(link: SandboxLink, status: string, centreName: string): string {
  const open = status === 'created';
  const note = open
    ? '<p class="muted">This is the local test checkout. No real money moves. Choose how this payment should end.</p>'
    : `<p class="state">This payment link is ${esc(status)}.</p>`;
  const buttons = open
    ? `<div class="actions">
        <form method="post" action="/sandbox/checkout/${esc(link.id)}/pay"><button class="pay" type="submit">Pay ${esc(formatRupees(paiseToRupees(link.amountPaise)))}</button></form>
        <form method="post" action="/sandbox/checkout/${esc(link.id)}/fail"><button class="fail" type="submit">Fail</button></form>
      </div>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout · ${esc(centreName)}</title>
<style>
  /* Every text colour here reaches 4.5:1 on its background (WCAG AA): the grey is #5c6b69 (5.6:1 on white). */
  body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; background: #f6f3ec; color: #2f3e3c; }
  main { max-width: 440px; margin: 48px auto; padding: 28px; background: #fff; border-radius: 16px; box-shadow: 0 6px 24px rgba(47,62,60,.08); }
  h1 { font-size: 1.1rem; color: #3f7f7a; margin: 0 0 4px; }
  .badge { display: inline-block; font-size: .75rem; letter-spacing: .05em; text-transform: uppercase; background: #fbefd0; color: #7a5b16; padding: 2px 8px; border-radius: 999px; }
  .amount { font-size: 2.2rem; font-weight: 700; margin: 18px 0 6px; }
  .desc { line-height: 1.5; }
  .muted { color: #5c6b69; font-size: .9rem; }
  .state { font-weight: 600; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; font-size: .9rem; }
  dt { color: #5c6b69; }
  .actions { display: flex; gap: 12px; margin-top: 20px; }
  button { font: inherit; border: 0; border-radius: 10px; padding: 12px 18px; cursor: pointer; }
  .pay { background: #3f7f7a; color: #fff; flex: 1; }
  .fail { background: #efe7e4; color: #8a3b2e; }
  button:focus-visible { outline: 3px solid #e7c9a3; outline-offset: 2px; }
</style></head>
<body><main>
  <h1>${esc(centreName)}</h1><span class="badge">Sandbox checkout</span>
  <div class="amount">${esc(formatRupees(paiseToRupees(link.amountPaise)))}</div>
  <p class="desc">${esc(link.description)}</p>
  <dl><dt>Booking</dt><dd>${esc(link.referenceId)}</dd><dt>Link</dt><dd>${esc(link.id)}</dd></dl>
  ${note}
  ${buttons}
</main></body></html>`;
}

/** The sandbox provider's hosted checkout, standing in for Razorpay's page. Mounted only with the sandbox provider. */
export function sandboxRoutes(deps: AppDeps, sandbox: SandboxPayments): Router {
  const r = Router();
  r.get('/sandbox/checkout/:id', async (req, res) => {
    const { id } = parseOr400(linkParam, req.params);
    const link = await sandbox.getLink(id);
    if (!link) throw new AppError('not_found', SANDBOX_MESSAGES.linkNotFound);
    const status = (await sandbox.fetchPaymentLink(id)).status;
    res
      .set('cache-control', 'no-store')
      .type('html')
      .send(checkoutPage(link, status, deps.config.centreName));
  });
  r.post('/sandbox/checkout/:id/pay', async (req, res) => {
    const { id } = parseOr400(linkParam, req.params);
    res.redirect(303, await sandbox.pay(id));
  });
  r.post('/sandbox/checkout/:id/fail', async (req, res) => {
    const { id } = parseOr400(linkParam, req.params);
    res.redirect(303, await sandbox.fail(id));
  });
  return r;
}
