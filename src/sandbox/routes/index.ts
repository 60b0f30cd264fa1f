// Every API route of the sandbox (41 operations).
import type { RouteSpec } from '../router';
import { certificateRoutes } from './certificates';
import { companyRoutes } from './company';
import { customerRoutes } from './customers';
import { documentRoutes } from './documents';
import { identificationRoutes } from './identifications';
import { registryRoutes } from './registry';
import { settingsRoutes } from './settings';
import { templateRoutes } from './templates';

export const ROUTES: readonly RouteSpec[] = [
  ...companyRoutes,
  ...certificateRoutes,
  ...documentRoutes,
  ...identificationRoutes,
  ...customerRoutes,
  ...registryRoutes,
  ...settingsRoutes,
  ...templateRoutes,
];
