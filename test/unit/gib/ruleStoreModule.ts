// The rule store as a module of its own, for the test's installer processes (ruleStore.test.ts).
export { installGibPackage } from '../../../src/gib/ruleStore';
