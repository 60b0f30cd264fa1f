// Every API route of the sandbox: one per operation of src/api/operations.ts, checked when the sandbox loads.
import { routeForEveryOperation, type RouteSpec } from '../router';
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
]);
