import { parseSiteSettings, type SocialLink } from '../../../shared/core/config.ts';
import type { ManagePolicy } from '../../../shared/domain/manage.ts';

/**
 * Build-time configuration for the public site.
 *
 * Values are read from the environment when `astro build` runs, so they are
 * baked into the static HTML. Change the environment and rebuild to update.
 * They are read through the server's own schema (shared/core/config.ts): the
 * same defaults, and a bad value stops the build as it stops the API.
 * Only pages and endpoints, which run at build time, import this module;
 * islands are given what they need as props, so no zod reaches the browser.
 */
const settings = parseSiteSettings(process.env);

export interface Branch {
  readonly name: string;
  readonly lines: readonly string[];
  readonly mapsQuery: string;
  /** The centre's own phone (the demo centres' numbers; the build reads the live ones from GET /locations). */
  readonly phone: string;
}

/** Turns a display phone number into a value safe for a tel: URI (digits and a leading +). */
export function toTelHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[^\d]/g, '');
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

export interface SiteConfig {
  /** Where the site is served, for canonical links, the sitemap and the share image (as the API's PUBLIC_BASE_URL). */
  readonly baseUrl: string;
  readonly centreName: string;
  readonly supportPhone: string;
  readonly supportPhoneHref: string;
  readonly supportEmail: string;
  readonly supportEmailHref: string;
  readonly poweredBy: string;
  readonly social: readonly SocialLink[];
  readonly branches: readonly Branch[];
}

export const siteConfig: SiteConfig = {
  baseUrl: settings.publicBaseUrl,
  centreName: settings.centreName,
  supportPhone: settings.supportPhone,
  supportPhoneHref: toTelHref(settings.supportPhone),
  supportEmail: settings.supportEmail,
  supportEmailHref: `mailto:${settings.supportEmail}`,
  poweredBy: 'Wellbeing Booking',
  social: settings.social,
  branches: [
    {
      name: 'West Branch',
      lines: ['2nd Floor, Sai Darshan Building', 'S.V. Road, Near Borivali West Station', 'Borivali West, Mumbai', 'Maharashtra 400092'],
      mapsQuery: 'Sai Darshan Building, S.V. Road, Borivali West, Mumbai 400092',
      phone: '+91 98200 11111',
    },
    {
      name: 'East Branch',
      lines: ['Office 104, Shanti Heights', 'Thakur Village Road', 'Kandivali East, Mumbai', 'Maharashtra 400101'],
      mapsQuery: 'Shanti Heights, Thakur Village Road, Kandivali East, Mumbai 400101',
      phone: '+91 98200 22222',
    },
  ],
};

export interface NavLink {
  readonly href: string;
  readonly label: string;
}

/** The canonical address of a page: the base URL and the path without a trailing slash. */
export function canonicalUrl(pathname: string): string {
  const path = pathname.replace(/\/index\.html$/, '/').replace(/\/+$/, '');
  return `${siteConfig.baseUrl}${path || '/'}`;
}

/** Links shown in the header navigation. */
export const primaryNav: readonly NavLink[] = [
  { href: '/', label: 'Home' },
  { href: '/about', label: 'About' },
  { href: '/team', label: 'Our Team' },
  { href: '/blogs', label: 'Blogs' },
  { href: '/faq', label: 'FAQ' },
  { href: '/contact', label: 'Contact' },
];

/** Policy links shown in the footer. */
export const legalNav: readonly NavLink[] = [
  { href: '/disclaimer', label: 'Disclaimer' },
  { href: '/refund-and-cancellation-policy', label: 'Refund & Cancellation Policy' },
  { href: '/privacy-policy', label: 'Privacy Policy' },
  { href: '/terms-and-conditions', label: 'Terms & Conditions' },
];

/**
 * The client's own changes (CHANGE_NOTICE_HOURS, MAX_RESCHEDULES), read as the API reads them: the
 * wizard states the policy and warns before Pay about a session that starts within the notice.
 */
export const changePolicy: ManagePolicy = {
  noticeHours: settings.changeNoticeHours,
  maxReschedules: settings.maxReschedules,
};

/** Business constants repeated in the public copy (spec section 9). */
export const policy = {
  sessionMinutes: 60,
  overtimeBlockMinutes: 15,
  cancellationNoticeHours: changePolicy.noticeHours,
  lateCancellationChargePercent: 100,
  latePaymentInterestPercentPerDay: 10,
  minimumAge: 18,
  arriveEarlyMinutes: 10,
} as const;
