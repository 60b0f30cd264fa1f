// The one e-mail check: the customer import and the forms accept the same addresses.

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** One address, or several separated by ";" or "," (a customer's Email field may hold more than one). */
export function isEmailAddressList(value: string): boolean {
  return value.trim().split(/\s*[;,]\s*/).every((address) => ADDRESS.test(address));
}
