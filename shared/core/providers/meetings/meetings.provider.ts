/** What the product needs from a video-meeting provider: one link per online session. */
export type MeetingRequest = {
  bookingId: number;
  summary: string;
  description: string;
  start: Date;
  end: Date;
};

export interface MeetingsProvider {
  readonly name: 'jitsi' | 'google';
  /** Creating twice for the same booking answers the same meeting where the provider allows it. */
  createMeeting(req: MeetingRequest): Promise<{ url: string }>;
}
