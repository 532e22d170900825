/**
 * The public package registries' hosts: the one list. The line analysis uses it for the registry a package
 * manager reaches unless configured otherwise (`namedHosts.ts`), and the walkthrough's one click adds the
 * `COMMON_REGISTRIES` to `toolgate.sandbox.network`. Each host here is the registry operator's own name for
 * its index or its downloads (no CDN catch-alls, no wildcards): listing them lets installs fetch packages and
 * nothing else.
 */

export interface Registry {
  /** For the person: "npm", "PyPI"… */
  readonly name: string;
  readonly hosts: readonly string[];
}

export const NPM: Registry = { name: "npm", hosts: ["registry.npmjs.org"] };
/** yarn 1 reads its own mirror of the npm registry by default. */
export const YARN: Registry = { name: "yarn", hosts: ["registry.yarnpkg.com", "registry.npmjs.org"] };
/** The index (`pypi.org/simple`) and the files it links to. */
export const PYPI: Registry = { name: "PyPI", hosts: ["pypi.org", "files.pythonhosted.org"] };
/** The sparse index, the crate downloads, and the API that redirects to them. */
export const CRATES: Registry = { name: "crates.io", hosts: ["index.crates.io", "static.crates.io", "crates.io"] };
/** The module proxy and the checksum database `go` verifies against. */
export const GO: Registry = { name: "Go modules", hosts: ["proxy.golang.org", "sum.golang.org"] };
/** Maven Central and the Gradle plugin portal and distributions. */
export const MAVEN: Registry = {
  name: "Maven and Gradle",
  hosts: ["repo.maven.apache.org", "repo1.maven.org", "plugins.gradle.org", "services.gradle.org"],
};

/** What the walkthrough's "allow the common registries" adds (the JavaScript, Python, Rust and Go ones). */
export const COMMON_REGISTRIES: readonly Registry[] = [NPM, YARN, PYPI, CRATES, GO];

/** Every host of these registries, each once, in order. */
export function registryHosts(registries: readonly Registry[]): string[] {
  return [...new Set(registries.flatMap((r) => r.hosts))];
}
