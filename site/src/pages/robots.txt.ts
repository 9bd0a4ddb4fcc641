/** /robots.txt: crawlers may read the public pages, not the admin, the API, a client's payment status or their private Manage booking and package pages. */
import type { APIRoute } from 'astro';
import { siteConfig } from '../lib/site-config.ts';

export const GET: APIRoute = () =>
  new Response(
    [
      'User-agent: *',
      'Disallow: /admin/',
      'Disallow: /api/',
      'Disallow: /payment-status',
      'Disallow: /manage-booking',
      'Disallow: /waitlist',
      'Disallow: /my-package',
      'Disallow: /sandbox/',
      'Allow: /',
      '',
      `Sitemap: ${siteConfig.baseUrl}/sitemap.xml`,
      '',
    ].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
  );
