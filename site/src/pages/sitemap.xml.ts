/** /sitemap.xml: every public page worth finding (not the admin, 404, payment-status or manage-booking pages: an allow-list, so a private page stays out). */
import type { APIRoute } from 'astro';
import { blogPosts } from '../lib/blog-posts.ts';
import { canonicalUrl, legalNav, primaryNav } from '../lib/site-config.ts';

export const PUBLIC_PATHS: readonly string[] = [
  ...new Set([...primaryNav.map((l) => l.href), '/book', ...legalNav.map((l) => l.href), ...blogPosts.map((p) => `/blogs/${p.slug}`)]),
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export const GET: APIRoute = () =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${PUBLIC_PATHS.map(
      (p) => `  <url><loc>${esc(canonicalUrl(p))}</loc></url>`,
    ).join('\n')}\n</urlset>\n`,
    { headers: { 'Content-Type': 'application/xml; charset=utf-8' } },
  );
