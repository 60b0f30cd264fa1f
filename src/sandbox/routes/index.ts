// Every API route of the sandbox (41 operations).
import type { RouteSpec } from '../router';
import { companyRoutes } from './company';
import { companyListRoutes } from './companyLists';
import { customerRoutes } from './customers';
import { registryRoutes } from './registry';
import { templateRoutes } from './templates';

export const ROUTES: readonly RouteSpec[] = [
  ...companyRoutes,
  ...companyListRoutes,
  ...customerRoutes,
  ...registryRoutes,
  ...templateRoutes,
];
