import { describe, expect, it } from 'vitest';
import { baseEnv } from './base-env.js';

describe('baseEnv', () => {
  it("passes on the host's npm cache settings and nothing else of npm's (tokens stay behind)", () => {
    const env = baseEnv({
      PATH: '/usr/bin',
      npm_config_cache: '/c',
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      'npm_config_//registry.npmjs.org/:_authToken': 'secret',
      NPM_TOKEN: 'secret',
    });
    expect(env).toMatchObject({ PATH: '/usr/bin', npm_config_cache: '/c', npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });
    expect(Object.values(env)).not.toContain('secret');
  });
});
