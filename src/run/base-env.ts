/**
 * The environment every setup, session and test command starts from: the host's PATH and
 * toolchain locations, a fixed locale and time zone, CI mode, no colour. Host secrets (API
 * keys, tokens) are never passed on.
 */
export function baseEnv(host: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PASSED) {
    const value = host[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, TZ: 'UTC', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' };
}

const PASSED = [
  'PATH',
  'HOME',
  'USER',
  'TMPDIR',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'npm_config_cache',
  'NPM_CONFIG_CACHE',
  'npm_config_registry',
  // how npm uses its cache and what it asks the registry besides the packages: a host that
  // installs from a warm cache (a CI machine, bakeoff's own tests) says so once for every setup
  'npm_config_prefer_offline',
  'npm_config_audit',
  'npm_config_fund',
] as const;
