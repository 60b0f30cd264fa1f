// Every API route of the sandbox: one per operation of src/api/operations.ts, checked when the sandbox loads.
import { route, routeForEveryOperation, type RouteSpec } from '../router';
import { STATIC_READS } from '../seed/generate';
import { companyRoutes } from './company';
import { companyListRoutes } from './companyLists';
import { customerRoutes } from './customers';
import { registryRoutes } from './registry';
import { templateRoutes } from './templates';

export const ROUTES: readonly RouteSpec[] = routeForEveryOperation([
  ...companyRoutes,
  ...companyListRoutes,
  ...customerRoutes,
  ...registryRoutes,
  ...templateRoutes,
  // Seed data that never changes, as generated (src/sandbox/seed/generate.ts).
  ...STATIC_READS.map((id) => route(id, ({ app }) => app.statics[id])),
]);
