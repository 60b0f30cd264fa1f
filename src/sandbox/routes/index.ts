// Every API route of the sandbox (41 operations).
import { Router } from '../router';
import { certificateRoutes } from './certificates';
import { companyRoutes } from './company';
import { customerRoutes } from './customers';
import { documentRoutes } from './documents';
import { identificationRoutes } from './identifications';
import { registryRoutes } from './registry';
import { settingsRoutes } from './settings';
import { templateRoutes } from './templates';

export function createRouter(): Router {
  return new Router().add(
    ...companyRoutes,
    ...certificateRoutes,
    ...documentRoutes,
    ...identificationRoutes,
    ...customerRoutes,
    ...registryRoutes,
    ...settingsRoutes,
    ...templateRoutes,
  );
}
