import jwt from 'jsonwebtoken';
import type { MeetingsProvider } from './meetings.provider.ts';

const TOKEN_URL = 'https://oauth2.googleapis.com/token';
const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar.events';

type GoogleOptions = { serviceAccountEmail: string; privateKey: string; impersonateUser: string; calendarId: string };

async function asJson(res: Response, what: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (!res.ok) throw new Error(`Google ${what} failed: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Google Calendar events with a Meet conference, as a Workspace user, through a service account
 * with domain-wide delegation (a JWT-bearer grant signed RS256; no googleapis package).
 */
export function googleMeetProvider(opts: GoogleOptions, fetchImpl: typeof fetch = fetch): MeetingsProvider {
  let cached: { token: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    const nowS = Math.floor(Date.now() / 1000);
    if (cached && cached.expiresAt - 60 > nowS) return cached.token;
    const assertion = jwt.sign(
      { iss: opts.serviceAccountEmail, sub: opts.impersonateUser, scope: CALENDAR_SCOPE, aud: TOKEN_URL, iat: nowS, exp: nowS + 3600 },
      opts.privateKey,
      { algorithm: 'RS256' },
    );
    const body = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    const json = await asJson(
      await fetchImpl(TOKEN_URL, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      'token exchange',
    );
    cached = { token: String(json.access_token), expiresAt: nowS + Number(json.expires_in ?? 3600) };
    return cached.token;
  }

  const base = `https://www.googleapis.com/calendar/v3/calendars/${encodeURIComponent(opts.calendarId)}/events`;
  // A fixed event id (base32hex) makes a retried insert collide (409) instead of making a second meeting,
  // and lets a moved or cancelled session find its event again.
  const eventIdOf = (bookingId: number) => `booking${String(bookingId).padStart(6, '0')}`;

  return {
    name: 'google',
    async createMeeting(req) {
      const token = await accessToken();
      const eventId = eventIdOf(req.bookingId);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const res = await fetchImpl(`${base}?conferenceDataVersion=1&sendUpdates=none`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          id: eventId,
          summary: req.summary,
          description: req.description,
          start: { dateTime: req.start.toISOString(), timeZone: 'Asia/Kolkata' },
          end: { dateTime: req.end.toISOString(), timeZone: 'Asia/Kolkata' },
          conferenceData: { createRequest: { requestId: `booking-${req.bookingId}`, conferenceSolutionKey: { type: 'hangoutsMeet' } } },
        }),
      });
      const event = res.status === 409 ? await asJson(await fetchImpl(`${base}/${eventId}`, { headers }), 'events.get') : await asJson(res, 'events.insert');
      const link = event.hangoutLink;
      if (typeof link !== 'string' || !link.startsWith('https://')) throw new Error('Google answered an event without a Meet link');
      return { url: link };
    },
    async updateMeeting(req) {
      const token = await accessToken();
      const url = `${base}/${eventIdOf(req.bookingId)}?sendUpdates=none`;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      if (req.cancelled) {
        const res = await fetchImpl(url, { method: 'DELETE', headers });
        // Gone already (a retry, or deleted by hand): the meeting is cancelled either way.
        if (res.status === 404 || res.status === 410) return 'cancelled';
        if (!res.ok) await asJson(res, 'events.delete');
        return 'cancelled';
      }
      // PATCH keeps the conference (and so the Meet link); only the times change.
      await asJson(
        await fetchImpl(url, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({
            start: { dateTime: req.start.toISOString(), timeZone: 'Asia/Kolkata' },
            end: { dateTime: req.end.toISOString(), timeZone: 'Asia/Kolkata' },
          }),
        }),
        'events.patch',
      );
      return 'moved';
    },
  };
}
