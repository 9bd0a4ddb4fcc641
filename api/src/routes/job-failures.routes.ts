import { Router } from 'express';
import { noBody, idParams } from '../../../shared/contract/admin.ts';
import { jobFailuresQuerySchema } from '../../../shared/contract/job-failures.ts';
import { jobFailuresPage, resolveJobFailure } from '../../../shared/core/services/job-failure.service.ts';
import type { AppDeps } from '../deps.ts';
import { currentAdmin, requireAdmin } from '../middleware/auth.ts';
import { parseOr400 } from '../middleware/validate.ts';

const failureIdParams = idParams('Failed job ID');

/** Jobs that failed for good, for every admin: the dashboard's list and "Mark resolved". */
export function jobFailureRoutes(deps: AppDeps): Router {
  const r = Router();
  const auth = requireAdmin(deps);

  r.get('/api/admin/job-failures', auth, async (req, res) => {
    const query = parseOr400(jobFailuresQuerySchema, req.query);
    res.json(await jobFailuresPage(deps.db, query));
  });

  r.post('/api/admin/job-failures/:id/resolve', auth, async (req, res) => {
    const { id } = parseOr400(failureIdParams, req.params);
    parseOr400(noBody, req.body ?? {});
    res.json(await resolveJobFailure(deps.db, id, { adminId: currentAdmin(res).id }, deps.now()));
  });

  return r;
}
