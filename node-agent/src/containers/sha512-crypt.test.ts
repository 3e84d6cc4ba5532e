import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sha512Crypt } from './sha512-crypt.js';

describe('sha512Crypt', () => {
  // The test vectors of Drepper's specification ("Unix crypt using SHA-256 and SHA-512").
  it.each([
    [
      'Hello world!',
      'saltstring',
      5000,
      '$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1',
    ],
    [
      'Hello world!',
      'saltstringsaltstring',
      10000,
      '$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.',
    ],
    [
      'we have a short salt string but not a short password',
      'short',
      77777,
      '$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0',
    ],
    [
      'a very much longer text to encrypt.  This one even stretches over morethan one line.',
      'anotherlongsaltstring',
      1400,
      '$6$rounds=1400$anotherlongsalts$POfYwTEok97VWcjxIiSOjiykti.o/pQs.wPvMxQ6Fm7I6IoYN3CmLs66x9t0oSwbtEW7o7UmJEiDwGqd8p4ur1',
    ],
  ])('matches the specification for %j with salt %j', (password, salt, rounds, expected) => {
    expect(sha512Crypt(password, salt, rounds)).toBe(expected);
  });

  it('agrees with OpenSSL for a password of many bytes and a random salt', () => {
    const password = 'пароль-密码-'.repeat(9); // longer than one SHA-512 block
    const hash = sha512Crypt(password);
    const salt = hash.split('$')[2]!;
    expect(salt).toMatch(/^[./0-9A-Za-z]{16}$/);
    const openssl = execFileSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], {
      input: password,
      encoding: 'utf8',
    }).trim();
    expect(hash).toBe(openssl);
  });

  it('refuses a salt that would break the shadow line', () => {
    expect(() => sha512Crypt('x', 'a:b')).toThrow(/salt/);
  });
});
