import type { Job } from 'bullmq';
import type { JobName, JobPayload } from '../../../shared/core/jobs/jobs.ts';
import type { Queues } from '../../../shared/core/jobs/queues.ts';
import type { Mailer } from '../../../shared/core/providers/mail/mail.provider.ts';
import type { MeetingsProvider } from '../../../shared/core/providers/meetings/meetings.provider.ts';
import type { PaymentDeps } from '../../../shared/core/services/payment.service.ts';

export type WorkerDeps = PaymentDeps & { mailer: Mailer; meetings: MeetingsProvider; queues: Queues; fetch: typeof fetch };

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, deps: WorkerDeps, job: Job) => Promise<unknown>;
