// Context keys of the "Get Started with Nilvera" walkthrough steps that complete on what really happened.
export const WalkthroughContextKeys = {
  registryDownloaded: 'nilvera.walkthrough.registryDownloaded',
  invoiceChecked: 'nilvera.walkthrough.invoiceChecked',
} as const;
