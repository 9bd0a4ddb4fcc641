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
  /**
   * The session was moved (new start and end) or cancelled: the meeting keeps its link, and a provider
   * that keeps a calendar event moves or cancels it. Safe to repeat. Answers what it did.
   */
  updateMeeting(req: MeetingRequest & { cancelled: boolean }): Promise<'moved' | 'cancelled' | 'unchanged'>;
}
