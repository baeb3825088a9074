import { describe, expect, it } from 'vitest';
import { maskUrlPasswords } from './mask-url-passwords.js';

describe('maskUrlPasswords', () => {
  it('hides the password of every URL in a text, keeping user, host and the rest', () => {
    expect(maskUrlPasswords('bakeoff worker --queue redis://:s3cr3t@redis:6379/0 --name w')).toBe('bakeoff worker --queue redis://:***@redis:6379/0 --name w');
    expect(maskUrlPasswords('rediss://bakeoff:p%40ss@10.0.0.1/2 and redis://u:x@h')).toBe('rediss://bakeoff:***@10.0.0.1/2 and redis://u:***@h');
  });

  it('leaves URLs without a password, and other text, as they are', () => {
    for (const text of ['redis://redis:6379/0', 'redis://user@host:1/0', 'a:b@c', 'http://127.0.0.1:8080/v1']) expect(maskUrlPasswords(text)).toBe(text);
  });
});
