/** Two-factor authentication: enrol a TOTP authenticator (being built). */
export function AccountSecurityRoute() {
  return null;
}
