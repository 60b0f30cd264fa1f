// Keeps what "Set API Key" learnt of the company with the environment's profile (part of the shell:
// the key commands run at activation's side, the profile commands load on first use).
import type { CompanyResponse as CompanySummary } from '../api';
import type { EnvironmentId } from '../shell/environments';
import { environmentLabel, type ShellServices } from '../shell/services';
import type { Profile } from './profile';

/**
 * After "Set API Key" checked a key: a profile still called by its environment's name takes the
 * company's name, and its tax number is kept for the switch list.
 */
export async function rememberCompany(services: ShellServices, environment: EnvironmentId, company: CompanySummary): Promise<void> {
  const profile = services.profileFor(environment);
  if (profile.environment === 'custom' && !profile.baseUrl) return;
  const next: Profile = { ...profile };
  if (company.Name && profile.name === environmentLabel(profile.environment)) next.name = company.Name;
  if (company.TaxNumber) next.taxNumber = company.TaxNumber;
  await services.profiles.store.put(next);
  services.profiles.touched();
}
