import type { Config } from '../../config.ts';
import { googleMeetProvider } from './google.provider.ts';
import { jitsiProvider } from './jitsi.provider.ts';
import type { MeetingsProvider } from './meetings.provider.ts';

export function meetingsFromConfig(config: Config): MeetingsProvider {
  const m = config.meetings;
  return m.provider === 'google' ? googleMeetProvider(m) : jitsiProvider(m);
}
