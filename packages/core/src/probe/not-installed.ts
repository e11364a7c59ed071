/** The command that installs these Debian packages, as bench prints it. */
export const aptInstallLine = (packages: readonly string[]): string => `apt-get install ${packages.join(' ')}`;

/** What is missing, in the one line bench gives everywhere ("X, Y not found (apt-get install P Q)"), with the packages that bring it. */
export function notInstalled(
  missing: readonly string[],
  aptPackages: readonly string[],
): { readonly ok: false; readonly reason: string; readonly aptPackages: readonly string[] } {
  const packages = [...new Set(aptPackages)];
  return { ok: false, reason: `${missing.join(', ')} not found (${aptInstallLine(packages)})`, aptPackages: packages };
}

/** A scenario a target could serve but for a missing part ("it reaches X through Y, which is not installed: apt-get install P"). */
export function partMissing(
  what: string,
  aptPackages: readonly string[],
): { readonly ok: false; readonly reason: string; readonly aptPackages: readonly string[] } {
  return { ok: false, reason: `${what}, which is not installed: ${aptInstallLine(aptPackages)}`, aptPackages };
}
