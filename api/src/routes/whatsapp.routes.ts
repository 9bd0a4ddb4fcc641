import { Router } from 'express';
import { API_MESSAGES } from '../../../shared/contract/messages.ts';
import { AppError } from '../../../shared/core/errors.ts';
import { handleWhatsAppWebhook, verifyWebhookSubscription } from '../../../shared/core/services/whatsapp.service.ts';
import type { AppDeps } from '../deps.ts';
import { noStore } from '../middleware/auth.ts';

/**
 * Meta's WhatsApp webhook: the subscription check (GET) and delivery statuses (POST, raw body, see
 * app.ts). Mounted only when WhatsApp is configured; otherwise both answer 404 like any unknown path.
 */
export function whatsappRoutes(deps: AppDeps): Router {
  const r = Router();

  r.get('/api/whatsapp/webhook', noStore, (req, res) => {
    const challenge = verifyWebhookSubscription(deps.config, req.query as Record<string, unknown>);
    res.type('text/plain').send(challenge);
  });

  r.post('/api/whatsapp/webhook', async (req, res) => {
    if (!Buffer.isBuffer(req.body)) throw new AppError('unsupported_media_type', API_MESSAGES.webhookNotJson);
    const { recorded } = await handleWhatsAppWebhook(deps, req.body, req.get('x-hub-signature-256'));
    res.json({ status: 'ok', recorded });
  });

  return r;
}
